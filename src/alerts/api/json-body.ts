import { mediaTypeOf } from '../../transports/http/index.js';
import type { ApiRequest } from '../../transports/http/handoff/index.js';

export type BodyProblem =
  | { kind: 'media type'; mediaType: string }
  | { kind: 'missing' }
  | { kind: 'parse'; reason: string };

/** Fatal: Go's decoder would turn invalid bytes into U+FFFD; a body that is not UTF-8 is refused instead. */
const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * A POST body as Alertmanager's go-openapi layer reads it: only `application/json` (parameters
 * allowed; none given counts as application/octet-stream), then Go's json.Decoder, which reads the
 * first JSON value and ignores what follows it. Duplicate keys keep the last value, as in Go.
 */
export function readJsonBody(request: ApiRequest): { ok: true; value: unknown } | { ok: false; problem: BodyProblem } {
  const contentType = request.headers.get('content-type');
  const mediaType = contentType === undefined ? 'application/octet-stream' : mediaTypeOf(contentType);
  if (mediaType !== 'application/json') return { ok: false, problem: { kind: 'media type', mediaType: contentType === undefined ? mediaType : mediaTypeOf(contentType) } };
  let text: string;
  try {
    text = utf8.decode(request.body);
  } catch {
    return { ok: false, problem: { kind: 'parse', reason: 'the body is not valid UTF-8' } };
  }
  if (text.trim() === '') return { ok: false, problem: { kind: 'missing' } };
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch (error) {
    const firstValue = leadingValue(text, (error as Error).message);
    if (firstValue !== undefined) return { ok: true, value: firstValue };
    return { ok: false, problem: { kind: 'parse', reason: goJsonError(text, (error as Error).message) } };
  }
}

/** The first JSON value when JSON.parse failed only on what follows it (Go ignores trailing data). */
function leadingValue(text: string, message: string): unknown {
  const at = /after JSON at position (\d+)/.exec(message);
  if (at === null) return undefined;
  try {
    return JSON.parse(text.slice(0, Number(at[1])));
  } catch {
    return undefined;
  }
}

/** Go's encoding/json words for the errors people make: a cut-off body, or a bad character. */
function goJsonError(text: string, message: string): string {
  if (/Unexpected end of JSON input|Unterminated/.test(message)) return 'unexpected EOF';
  const at = /at position (\d+)/.exec(message);
  const offset = at === null ? 0 : Number(at[1]);
  const found = text.charAt(offset);
  return `invalid character '${found}' looking for beginning of value`;
}

/** Go's name for a JSON value's type in "cannot unmarshal X into ..." messages. */
export function goJsonType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'boolean') return 'bool';
  return typeof value;
}
