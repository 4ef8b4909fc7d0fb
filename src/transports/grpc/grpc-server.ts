import * as grpc from '@grpc/grpc-js';
import type { Logger, StatsStore } from '../../observability/index.js';
import type { CallGuard, GrpcService } from './grpc-service.js';
import { clientHasSan, tlsServerCredentials, type GrpcTlsOptions } from './tls.js';

export interface GrpcServerOptions {
  /** `host:port`, or a unix socket path. */
  listen: { host: string; port: number } | { unixSocket: string };
  /** The services to serve; each method asks `guard` before it answers. */
  services(guard: CallGuard): readonly GrpcService[];
  /** Counts certificate reloads. */
  stats: StatsStore;
  logger: Logger;
  /** Absent: plaintext. */
  tls: (GrpcTlsOptions & { clientSan: string | undefined }) | undefined;
  maxConnectionAgeMs: number;
  maxConnectionAgeGraceMs: number;
}

export interface GrpcServer {
  /** Bound TCP port (meaningless for a unix socket). */
  readonly port: number;
  /** Refuses new calls, lets calls in progress finish for up to `graceMs`, then closes. */
  close(graceMs?: number): Promise<void>;
}

/**
 * Server options that only change what grpc-js does per call. Channelz keeps per-call and
 * per-message counters for a channelz service this server never registers, so nobody could read
 * them (grpc-js turns it on by default). The bare grpc-js ceiling of native-bench uses the same.
 */
export const GRPC_TRANSPORT_OPTIONS: grpc.ServerOptions = { 'grpc.enable_channelz': 0 };

const UNAUTHENTICATED: Partial<grpc.ServiceError> = {
  code: grpc.status.UNAUTHENTICATED,
  details: 'client certificate does not carry the DNS name GRPC_CLIENT_TLS_SAN requires',
};

const ADMIT_ALL: CallGuard = { refusal: () => undefined };

/**
 * A grpc-js server of any services: TLS with certificate reload, mutual TLS with a required SAN
 * (refused per call, as upstream does), connection age limits, and a drain at shutdown.
 */
export async function startGrpcServer(options: GrpcServerOptions): Promise<GrpcServer> {
  const { stats, logger } = options;
  const server = new grpc.Server({
    ...GRPC_TRANSPORT_OPTIONS,
    'grpc.max_connection_age_ms': options.maxConnectionAgeMs,
    'grpc.max_connection_age_grace_ms': options.maxConnectionAgeGraceMs,
  });
  const san = options.tls?.clientSan;
  const guard: CallGuard = san === undefined ? ADMIT_ALL : { refusal: (call) => (clientHasSan(call, san) ? undefined : UNAUTHENTICATED) };
  const services = options.services(guard);
  for (const service of services) server.addService(service.definition, service.implementation);

  const reloaded = stats.counter('certs.reload_success');
  const rejected = stats.counter('certs.reload_error');
  const tls =
    options.tls === undefined
      ? undefined
      : tlsServerCredentials(options.tls, {
          onReloaded: () => {
            reloaded.value++;
            logger.info('reloaded the gRPC server certificate');
          },
          onRejected: (reason) => {
            rejected.value++;
            logger.error(`changed certificate files not used (the previous ones keep serving): ${reason}`);
          },
        });
  const credentials = tls?.credentials ?? grpc.ServerCredentials.createInsecure();
  const address = 'unixSocket' in options.listen ? `unix:${options.listen.unixSocket}` : `${options.listen.host}:${options.listen.port}`;
  const port = await new Promise<number>((resolve, reject) => {
    server.bindAsync(address, credentials, (error, bound) => (error === null ? resolve(bound) : reject(new Error(`gRPC server could not listen on ${address}: ${error.message}`))));
  }).catch((error: unknown) => {
    tls?.close();
    throw error;
  });
  logger.info('gRPC server listening', { address, tls: options.tls !== undefined, mutualTls: options.tls?.clientCaFile !== undefined });

  let closing: Promise<void> | undefined;
  return {
    port,
    close(graceMs = 10_000) {
      closing ??= new Promise<void>((resolve) => {
        const force = setTimeout(() => {
          server.forceShutdown();
          resolve();
        }, graceMs);
        for (const service of services) service.close?.();
        server.tryShutdown(() => {
          clearTimeout(force);
          resolve();
        });
        tls?.close();
      });
      return closing;
    },
  };
}
