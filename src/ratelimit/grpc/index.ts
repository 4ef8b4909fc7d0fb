/**
 * The rate limit decision API over gRPC: Envoy's `RateLimitService/ShouldRateLimit` (its service,
 * its hand-written protobuf codec, its protos) and the name of its gRPC health service.
 */
export { rateLimitService } from './rls-service.js';
export type { RateLimitServiceOptions } from './rls-service.js';
export { decodeRateLimitRequest, encodeRateLimitResponse, encodeRateLimitRequest, decodeRateLimitResponse } from './rls-codec.js';
export { RLS_SERVICE, SHOULD_RATE_LIMIT_PATH, rlsProtoRoot } from './rls-protos.js';

/** The gRPC health service name whose health follows `/healthcheck` (upstream registers "ratelimit"). */
export const RATE_LIMIT_HEALTH_SERVICE = 'ratelimit';
