import * as grpc from '@grpc/grpc-js';
import { performance } from 'node:perf_hooks';
import type { Decision, RateLimitRequest, RateLimitResponse } from '../../engine/index.js';
import { ServiceError, grpcStatusOf } from '../../errors/index.js';
import type { Logger, StatsStore, Tracing } from '../../observability/index.js';
import { methodStats, tracedUnary, type CallGuard, type GrpcService } from '../../transports/grpc/index.js';
import { decodeRateLimitRequest, encodeRateLimitResponse } from './rls-codec.js';
import { RLS_SERVICE } from './rls-protos.js';

export interface RateLimitServiceOptions {
  decide(request: RateLimitRequest): Decision | Promise<Decision>;
  stats: StatsStore;
  logger: Logger;
  guard: CallGuard;
  /** Absent: calls are not traced, and no tracing code runs per call. */
  tracing?: Tracing;
}

type Request = RateLimitRequest | ServiceError;

const definition: grpc.ServiceDefinition = {
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
 * `envoy.service.ratelimit.v3.RateLimitService/ShouldRateLimit`: the hot path over gRPC. The
 * request is decoded by a hand-written codec (rls-request-decoder.ts) and the callbacks are
 * built once, so a call that decides synchronously allocates no closure of its own.
 */
export function rateLimitService({ decide, stats, logger, guard, tracing }: RateLimitServiceOptions): GrpcService {
  const rls = methodStats(stats, 'ShouldRateLimit');
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
    const refused = guard.refusal(call);
    if (refused !== undefined) return finish(callback, started, refused);
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
  return {
    definition,
    implementation: { ShouldRateLimit: tracing === undefined ? shouldRateLimit : tracedUnary(tracing, RLS_SERVICE, 'ShouldRateLimit', shouldRateLimit) },
  };
}
