import type { PeerCertificate } from 'node:tls';
import * as grpc from '@grpc/grpc-js';
import { CertificateFiles } from './certificate-files.js';

export interface GrpcTlsOptions {
  certFile: string;
  keyFile: string;
  /** Client CA: set for mutual TLS. */
  clientCaFile: string | undefined;
  reloadIntervalMs: number;
}

export interface TlsCredentials {
  credentials: grpc.ServerCredentials;
  /** Stops watching the certificate files. */
  close(): void;
}

/**
 * Server credentials whose certificate, key and client CA are re-read when the files change, so a
 * rotated certificate is served to new connections without a restart. grpc-js's
 * createCertificateProviderServerCredentials puts its first argument in the identity slot
 * (despite the parameter's name), hence the argument order below.
 */
export function tlsServerCredentials(
  options: GrpcTlsOptions,
  events: { onReloaded(): void; onRejected(reason: string): void },
): TlsCredentials {
  const files = new CertificateFiles({
    certFile: options.certFile,
    keyFile: options.keyFile,
    caFile: options.clientCaFile,
    pollIntervalMs: options.reloadIntervalMs,
    ...events,
  });
  const mutual = options.clientCaFile !== undefined;
  return {
    credentials: grpc.experimental.createCertificateProviderServerCredentials(files, mutual ? files : null, mutual),
    close: () => files.close(),
  };
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
