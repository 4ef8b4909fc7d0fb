import * as grpc from '@grpc/grpc-js';
import { performance } from 'node:perf_hooks';
import type { Decide, Decision, RateLimitRequest, RateLimitResponse } from '../../engine/index.js';
import { ServiceError, grpcStatusOf } from '../../errors/index.js';
import type { Logger, StatsStore, Tracing } from '../../observability/index.js';
import { methodStats, tracedUnary, type CallGuard, type GrpcService } from '../../transports/grpc/index.js';
import { RepeatedRequests } from '../repeated-requests.js';
import { decodeRateLimitRequest, encodeRateLimitResponse } from './rls-codec.js';
import { RLS_SERVICE } from './rls-protos.js';

export interface RateLimitServiceOptions {
  decide: Decide;
  /** REQUEST_CACHE_SIZE: distinct messages kept read and matched for their repeats (0: none). */
  requestCacheSize: number;
  stats: StatsStore;
  logger: Logger;
  guard: CallGuard;
  /** Absent: calls are not traced, and no tracing code runs per call. */
  tracing?: Tracing;
}

const definition: grpc.ServiceDefinition = {
  ShouldRateLimit: {
    path: `/${RLS_SERVICE}/ShouldRateLimit`,
    requestStream: false,
    responseStream: false,
    requestSerialize: () => Buffer.alloc(0),
    // Read in the handler, where the kept requests are.
    requestDeserialize: (bytes: Buffer) => bytes,
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
export function rateLimitService({ decide, requestCacheSize, stats, logger, guard, tracing }: RateLimitServiceOptions): GrpcService {
  const rls = methodStats(stats, 'ShouldRateLimit');
  const repeated = new RepeatedRequests(requestCacheSize);
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
  const shouldRateLimit: grpc.handleUnaryCall<Buffer, RateLimitResponse> = (call, callback) => {
    const started = performance.now();
    rls.total.value++;
    const refused = guard.refusal(call);
    if (refused !== undefined) return finish(callback, started, refused);
    // A repeat of a kept message is not read again (see RepeatedRequests).
    const cached = repeated.use();
    let repeat = cached ? repeated.get(call.request) : undefined;
    let request: RateLimitRequest;
    if (repeat !== undefined) {
      request = repeat.request;
    } else {
      const read = decodeRateLimitRequest(call.request);
      if (read instanceof ServiceError) return finish(callback, started, toServiceError(read));
      request = read;
      if (cached) repeat = repeated.remember(call.request, read);
    }
    let decision: Decision | Promise<Decision>;
    try {
      decision = decide(request, repeat?.reuse);
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
