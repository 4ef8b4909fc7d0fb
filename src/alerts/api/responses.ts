import type { ApiResponse } from '../../transports/http/handoff/index.js';
import type { Slicer } from '../slicer.js';

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
  return goEscapes(JSON.stringify(value)) + '\n';
}

/** JSON text with U+2028 and U+2029 escaped, as Go's encoder writes them. */
function goEscapes(json: string): string {
  return json.replace(/[\u2028\u2029]/g, (c) => (c === '\u2028' ? '\\u2028' : '\\u2029'));
}

export function jsonResponse(status: number, value: unknown): ApiResponse {
  return { status, headers: [['Content-Type', 'application/json'], ...V2_HEADERS], body: goJson(value) };
}

/** Items written per piece of a large list: about 0.5-1 MB of JSON. */
const ITEMS_PER_PIECE = 2000;

/**
 * A 200 with a JSON list of `items`, each written by `toText` as JSON.stringify would write it,
 * the whole as goJson writes it; written a piece at a time (yielding between pieces), so that
 * 100,000 alerts do not hold the thread for one long stringify.
 */
export async function jsonListResponse<T>(items: readonly T[], toText: (item: T) => string, slicer: Slicer): Promise<ApiResponse> {
  const pieces: string[] = [];
  for (let at = 0; at < items.length; at += ITEMS_PER_PIECE) {
    pieces.push(goEscapes(items.slice(at, at + ITEMS_PER_PIECE).map(toText).join(',')));
    if (slicer.due()) await slicer.pause();
  }
  return { status: 200, headers: [['Content-Type', 'application/json'], ...V2_HEADERS], body: `[${pieces.join(',')}]\n` };
}

/** A 200 (or 404) with no body and no Content-Type, as POST /alerts and DELETE /silence answer. */
export function emptyResponse(status: number): ApiResponse {
  return { status, headers: [...V2_HEADERS], body: '' };
}
