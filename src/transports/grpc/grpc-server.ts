import * as grpc from '@grpc/grpc-js';
import { performance } from 'node:perf_hooks';
import type { Decision, RateLimitRequest, RateLimitResponse } from '../../engine/index.js';
import { ServiceError, grpcStatusOf } from '../../errors/index.js';
import type { Logger, StatsStore, Tracing } from '../../observability/index.js';
import { healthHandlers, healthServiceDefinition, type HealthSource } from './health-service.js';
import { RLS_SERVICE } from './proto-root.js';
import { decodeRateLimitRequest, encodeRateLimitResponse } from './rls-codec.js';
import { clientHasSan, tlsServerCredentials, type GrpcTlsOptions } from './tls.js';

export interface GrpcServerOptions {
  /** `host:port`, or a unix socket path. */
  listen: { host: string; port: number } | { unixSocket: string };
  decide(request: RateLimitRequest): Decision | Promise<Decision>;
  health: HealthSource;
  stats: StatsStore;
  logger: Logger;
  /** Absent: plaintext. */
  tls: (GrpcTlsOptions & { clientSan: string | undefined }) | undefined;
  maxConnectionAgeMs: number;
  maxConnectionAgeGraceMs: number;
  /** Absent: calls are not traced, and no tracing code runs per call. */
  tracing?: Tracing;
}

export interface GrpcServer {
  /** Bound TCP port (meaningless for a unix socket). */
  readonly port: number;
  /** Refuses new calls, lets calls in progress finish for up to `graceMs`, then closes. */
  close(graceMs?: number): Promise<void>;
}

type Request = RateLimitRequest | ServiceError;

/**
 * Server options that only change what grpc-js does per call. Channelz keeps per-call and
 * per-message counters for a channelz service this server never registers, so nobody could read
 * them (grpc-js turns it on by default). The bare grpc-js ceiling of native-bench uses the same.
 */
export const GRPC_TRANSPORT_OPTIONS: grpc.ServerOptions = { 'grpc.enable_channelz': 0 };

const rlsDefinition: grpc.ServiceDefinition = {
  ShouldRateLimit: {
    path: `/${RLS_SERVICE}/ShouldRateLimit`,
    requestStream: false,
    responseStream: false,
    requestSerialize: () => Buffer.alloc(0),
    requestDeserialize: decodeRateLimitRequest,
    responseSerialize: encodeRateLimitResponse,
    responseDeserialize: () => ({}),
  },
};

function toServiceError(error: ServiceError): Partial<grpc.ServiceError> {
  return { code: grpcStatusOf(error.code), details: error.message };
}

/**
 * A unary handler in a SERVER span named and described as otelgrpc's (`<service>/<method>`,
 * `rpc.*` attributes, the status code), continuing the trace of the call's metadata.
 */
function tracedUnary<Req, Res>(tracing: Tracing, method: string, handler: grpc.handleUnaryCall<Req, Res>): grpc.handleUnaryCall<Req, Res> {
  const attributes = { 'rpc.system': 'grpc', 'rpc.service': RLS_SERVICE, 'rpc.method': method };
  return (call, callback) => {
    const carrier = (name: string) => {
      const values = call.metadata.get(name);
      return values.length > 0 ? String(values[0]) : undefined;
    };
    tracing.inServerSpan(`${RLS_SERVICE}/${method}`, carrier, attributes, (span) => {
      handler(call, (error, response) => {
        span.setAttribute('rpc.grpc.status_code', error?.code ?? grpc.status.OK);
        if (error) span.fail(error.details ?? '');
        span.end();
        callback(error, response);
      });
    });
  };
}

/** Per-method statistics of upstream's gRPC interceptor: `ratelimit_server.<Method>.*`. */
function methodStats(stats: StatsStore, method: string) {
  return {
    total: stats.counter(`ratelimit_server.${method}.total_requests`),
    time: stats.timer(`ratelimit_server.${method}.response_time`),
  };
}

const UNAUTHENTICATED: Partial<grpc.ServiceError> = {
  code: grpc.status.UNAUTHENTICATED,
  details: 'client certificate does not carry the DNS name GRPC_CLIENT_TLS_SAN requires',
};

export async function startGrpcServer(options: GrpcServerOptions): Promise<GrpcServer> {
  const { decide, stats, logger } = options;
  const server = new grpc.Server({
    ...GRPC_TRANSPORT_OPTIONS,
    'grpc.max_connection_age_ms': options.maxConnectionAgeMs,
    'grpc.max_connection_age_grace_ms': options.maxConnectionAgeGraceMs,
  });
  const san = options.tls?.clientSan;
  const sanRefused = (call: Parameters<typeof clientHasSan>[0]) => san !== undefined && !clientHasSan(call, san);

  const rls = methodStats(stats, 'ShouldRateLimit');
  // Built once, not per call: the synchronous path allocates no closures.
  const finish = (callback: grpc.sendUnaryData<RateLimitResponse>, started: number, error: Partial<grpc.ServiceError> | null, response?: RateLimitResponse) => {
    rls.time.record(Math.round(performance.now() - started));
    if (error !== null) callback(error);
    else callback(null, response);
  };
  const answer = (callback: grpc.sendUnaryData<RateLimitResponse>, started: number, decision: Decision) => {
    if (decision instanceof ServiceError) finish(callback, started, toServiceError(decision));
    else finish(callback, started, null, decision);
  };
  const failed = (callback: grpc.sendUnaryData<RateLimitResponse>, started: number, error: unknown) => {
    logger.error('decision failed', { error: String(error) });
    finish(callback, started, { code: grpc.status.INTERNAL, details: 'internal error' });
  };
  const shouldRateLimit: grpc.handleUnaryCall<Request, RateLimitResponse> = (call, callback) => {
    const started = performance.now();
    rls.total.value++;
    if (sanRefused(call)) return finish(callback, started, UNAUTHENTICATED);
    const request = call.request;
    if (request instanceof ServiceError) return finish(callback, started, toServiceError(request));
    let decision: Decision | Promise<Decision>;
    try {
      decision = decide(request);
    } catch (error) {
      return failed(callback, started, error);
    }
    if (decision instanceof Promise) {
      decision.then(
        (d) => answer(callback, started, d),
        (error: unknown) => failed(callback, started, error),
      );
    } else {
      answer(callback, started, decision);
    }
  };
  const tracing = options.tracing;
  server.addService(rlsDefinition, { ShouldRateLimit: tracing === undefined ? shouldRateLimit : tracedUnary(tracing, 'ShouldRateLimit', shouldRateLimit) });

  const health = healthHandlers(options.health);
  const check = methodStats(stats, 'Check');
  server.addService(healthServiceDefinition, {
    Check: ((call, callback) => {
      const started = performance.now();
      check.total.value++;
      if (sanRefused(call)) callback(UNAUTHENTICATED);
      else health.check(call, callback);
      check.time.record(Math.round(performance.now() - started));
    }) satisfies typeof health.check,
    Watch: ((call) => {
      if (sanRefused(call)) {
        call.emit('error', UNAUTHENTICATED);
        return;
      }
      health.watch(call);
    }) satisfies typeof health.watch,
  });

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
        health.endWatches();
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
