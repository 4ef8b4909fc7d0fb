/**
 * proto3 JSON (protojson) codec for the HTTP `/json` endpoint, as upstream's `/json` handler.
 * Hand-written for the hot path; see json-decode.ts and
 * json-encode.ts for the exact rules and documented deviations.
 */
export { JsonDecodeError, isJsonDecodeError, parseRateLimitRequestJson } from './json-decode.js';
export { encodeRateLimitResponseJson, formatDurationJson, encodeRateLimitResponseJsonBytes } from './json-encode.js';
