import type { ApiResponse } from '../../transports/http/handoff/index.js';

/** Every /api/v2 answer carries these (Alertmanager >= 0.26 sets no-store; rs/cors sets Vary). */
const V2_HEADERS: ReadonlyArray<[string, string]> = [
  ['Cache-Control', 'no-store'],
  ['Vary', 'Origin'],
];

/**
 * Go's json.Encoder with HTML escaping off, as Alertmanager writes its bodies: JSON.stringify, but
 * U+2028 and U+2029 escaped as Go escapes them, and a newline after the value.
 */
export function goJson(value: unknown): string {
  return JSON.stringify(value).replace(/[\u2028\u2029]/g, (c) => (c === '\u2028' ? '\\u2028' : '\\u2029')) + '\n';
}

export function jsonResponse(status: number, value: unknown): ApiResponse {
  return { status, headers: [['Content-Type', 'application/json'], ...V2_HEADERS], body: goJson(value) };
}

/** A 200 (or 404) with no body and no Content-Type, as POST /alerts and DELETE /silence answer. */
export function emptyResponse(status: number): ApiResponse {
  return { status, headers: [...V2_HEADERS], body: '' };
}
