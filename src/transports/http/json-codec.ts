/**
 * proto3 JSON (protojson) codec for the HTTP `/json` endpoint (ref §2.15).
 * Hand-written for the hot path; see json-codec-decode.ts and
 * json-codec-encode.ts for the exact rules and documented deviations.
 */
export { JsonDecodeError, isJsonDecodeError, parseRateLimitRequestJson } from './json-codec-decode.js';
export { encodeRateLimitResponseJson, formatDurationJson } from './json-codec-encode.js';
