import { connect, type Socket } from 'node:net';
import { createServer, createSecureContext, type TLSSocket } from 'node:tls';
import type { AddressInfo } from 'node:net';
import { subjectAltNames, type NodeTlsPlan } from './web-config/tls-plan.js';

export interface TlsTerminatorOptions {
  host: string;
  /** 0 picks a free port; TlsTerminator.port then tells which. */
  port: number;
  /** The plain HTTP listener of the HTTP threads, on loopback. */
  target: { host: string; port: number };
  plan: NodeTlsPlan;
  /** A connection closed after its handshake (no client certificate, or not an allowed one). */
  onRefused(reason: string): void;
}

export interface TlsTerminator {
  readonly port: number;
  /** New connections are served with this plan (a rotated certificate, a reloaded file). */
  update(plan: NodeTlsPlan): void;
  /** Stops accepting; connections still open after `graceMs` are closed. */
  close(graceMs: number): Promise<void>;
}

/** A client that has not finished its handshake by then is dropped (Node's default is 120 s). */
const HANDSHAKE_TIMEOUT_MS = 10_000;

/** Why a handshaken connection may not go on, or undefined. */
function refusal(socket: TLSSocket, plan: NodeTlsPlan): string | undefined {
  const certificate = socket.getPeerCertificate();
  const given = certificate !== null && Object.keys(certificate).length > 0;
  if (plan.requireCertificate && !given) return 'no client certificate';
  if (plan.verifyGivenCertificate && given && !socket.authorized) return `client certificate not verified: ${String(socket.authorizationError)}`;
  if (plan.allowedSans !== undefined) {
    const names = given ? subjectAltNames(certificate.subjectaltname) : [];
    if (!names.some((name) => plan.allowedSans?.includes(name))) return 'client certificate carries none of client_allowed_sans';
  }
  return undefined;
}

/**
 * TLS for the configurations uWebSockets.js cannot serve (a required client certificate, allowed
 * SANs, curves, other versions): Node's TLS server on the public port, each connection handed as
 * plain bytes to the HTTP threads' loopback listener. Everything behind it is unchanged; it costs
 * a copy of each byte through this thread.
 */
export async function startTlsTerminator(options: TlsTerminatorOptions): Promise<TlsTerminator> {
  let plan = options.plan;
  /** Every accepted connection, handshaking or handed on, so close() can end them. */
  const open = new Set<Socket>();
  const server = createServer({
    ...plan.context,
    requestCert: plan.requestCert,
    rejectUnauthorized: plan.rejectUnauthorized,
    handshakeTimeout: HANDSHAKE_TIMEOUT_MS,
  });
  server.on('connection', (raw: Socket) => {
    open.add(raw);
    raw.once('close', () => open.delete(raw));
  });
  server.on('secureConnection', (socket: TLSSocket) => {
    const refused = refusal(socket, plan);
    if (refused !== undefined) {
      options.onRefused(refused);
      socket.destroy();
      return;
    }
    const upstream = connect(options.target.port, options.target.host);
    const end = () => {
      socket.destroy();
      upstream.destroy();
    };
    socket.on('error', end).on('close', end);
    upstream.on('error', end).on('close', end);
    socket.pipe(upstream);
    upstream.pipe(socket);
  });
  // A failed handshake (no certificate, an unknown CA, a plain HTTP client) ends that connection only.
  server.on('tlsClientError', (_error, socket) => socket.destroy());
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  let closing: Promise<void> | undefined;
  return {
    port: (server.address() as AddressInfo).port,
    update(next) {
      // Checked first: a context that cannot be made must leave the running one in place.
      createSecureContext(next.context);
      server.setSecureContext(next.context);
      // Read by node:tls for each new connection.
      Object.assign(server, { requestCert: next.requestCert, rejectUnauthorized: next.rejectUnauthorized });
      plan = next;
    },
    close(graceMs) {
      closing ??= new Promise<void>((resolve) => {
        const timer = setTimeout(() => {
          for (const socket of open) socket.destroy();
        }, graceMs);
        timer.unref();
        server.close(() => {
          clearTimeout(timer);
          resolve();
        });
      });
      return closing;
    },
  };
}
