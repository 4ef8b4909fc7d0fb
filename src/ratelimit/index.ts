/**
 * The rate limit decision API over HTTP: `/json` and `/healthcheck`, and the proto3 JSON codec
 * of RateLimitRequest / RateLimitResponse (also used by the command-line client).
 */
export { rateLimitRoutes } from './http-routes.js';
export type { RateLimitRoutesOptions } from './http-routes.js';
export { JsonDecodeError, isJsonDecodeError, parseRateLimitRequestJson, encodeRateLimitResponseJson, formatDurationJson } from './json-codec.js';
export { requestText } from './request-text.js';
