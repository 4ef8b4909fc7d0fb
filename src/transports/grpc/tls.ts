import { readFileSync } from 'node:fs';
import type { PeerCertificate } from 'node:tls';
import * as grpc from '@grpc/grpc-js';

export interface GrpcTlsOptions {
  certFile: string;
  keyFile: string;
  /** Client CA: set for mutual TLS. */
  clientCaFile: string | undefined;
  reloadIntervalMs: number;
}

/** Reads a file now so a wrong path stops startup with a message naming the setting. */
function mustRead(path: string, setting: string): void {
  try {
    readFileSync(path);
  } catch (error) {
    throw new Error(`${setting}: cannot read ${path}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
}

/**
 * Server credentials whose certificate, key and client CA are re-read when the files change,
 * so a rotated certificate is served to new connections without a restart. grpc-js's
 * createCertificateProviderServerCredentials puts its first argument in the identity slot
 * (despite the parameter's name), hence the argument order below.
 */
export function tlsServerCredentials(options: GrpcTlsOptions): grpc.ServerCredentials {
  mustRead(options.certFile, 'GRPC_SERVER_TLS_CERT');
  mustRead(options.keyFile, 'GRPC_SERVER_TLS_KEY');
  if (options.clientCaFile !== undefined) mustRead(options.clientCaFile, 'GRPC_CLIENT_TLS_CACERT');
  const identity = new grpc.experimental.FileWatcherCertificateProvider({
    certificateFile: options.certFile,
    privateKeyFile: options.keyFile,
    refreshIntervalMs: options.reloadIntervalMs,
  });
  const clientCa =
    options.clientCaFile === undefined
      ? null
      : new grpc.experimental.FileWatcherCertificateProvider({
          caCertificateFile: options.clientCaFile,
          refreshIntervalMs: options.reloadIntervalMs,
        });
  return grpc.experimental.createCertificateProviderServerCredentials(identity, clientCa, clientCa !== null);
}

/**
 * GRPC_CLIENT_TLS_SAN: the client certificate must name this DNS SAN. grpc-js cannot check
 * this during the handshake, so every call checks its peer certificate.
 */
export function clientHasSan(call: { getAuthContext(): { sslPeerCertificate?: PeerCertificate } }, san: string): boolean {
  const names = call.getAuthContext().sslPeerCertificate?.subjectaltname;
  if (names === undefined) return false;
  return names.split(', ').includes(`DNS:${san}`);
}
