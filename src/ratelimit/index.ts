/**
 * The rate limit decision API: over HTTP (`/json`, `/healthcheck` and the proto3 JSON codec, also
 * used by the command-line client) and over gRPC (`ShouldRateLimit`, in ./grpc).
 */
export { rateLimitRoutes, type RateLimitRoutesOptions, JsonDecodeError, isJsonDecodeError, parseRateLimitRequestJson, encodeRateLimitResponseJson, encodeRateLimitResponseJsonBytes, formatDurationJson } from './http/index.js';
export { requestText } from './request-text.js';
export { rateLimitService, decodeRateLimitRequest, encodeRateLimitResponse, encodeRateLimitRequest, decodeRateLimitResponse, RLS_SERVICE, SHOULD_RATE_LIMIT_PATH, rlsProtoRoot, RATE_LIMIT_HEALTH_SERVICE } from './grpc/index.js';
export type { RateLimitServiceOptions } from './grpc/index.js';
