/**
 * The decision API over HTTP: `/json`, `/healthcheck` and the proto3 JSON codec. Its own entry,
 * so that an HTTP thread loads no gRPC code (grpc-js and protobufjs cost each thread about 50 ms
 * of its start).
 */
export { rateLimitRoutes, type RateLimitRoutesOptions } from './http-routes.js';
export { JsonDecodeError, isJsonDecodeError, parseRateLimitRequestJson, encodeRateLimitResponseJson, encodeRateLimitResponseJsonBytes, formatDurationJson } from './json-codec.js';
