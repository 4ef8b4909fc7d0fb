/**
 * Encoder for the HTTP `/json` endpoint: `envoy.service.ratelimit.v3.RateLimitResponse`
 * in the proto3 JSON mapping exactly as Go's `protojson.Marshal` emits it
 * (upstream's `/json` handler): lowerCamelCase names, fields in proto declaration order,
 * default-valued fields omitted, enums as names, Duration as a string ("58s").
 * Output is compact (Go's protojson may add random spaces; we never do).
 *
 * Hand-written on purpose: this runs once per /json request, on the hot path.
 * A generic protobuf JSON library (or building an intermediate object and
 * calling JSON.stringify on it) would be slower and allocate more, so the
 * string is built by concatenation; JSON.stringify is used only to quote
 * caller-controlled strings (rule names, header keys and values). Its
 * escaping matches Go's protojson for valid UTF-16: `"`, `\` and control
 * characters only, lower-case hex, no HTML escaping.
 */
// Imported: on Node 20 the global `Buffer` is an accessor, a getter call per use.
import { Buffer } from 'node:buffer';
import { Code, Unit, decimalText, type CurrentLimit, type DescriptorStatus, type HeaderValue, type RateLimitResponse } from '../../engine/index.js';
import { structJson } from './struct-json.js';

/** `RateLimitResponse.Code` as JSON; Go emits the number for values outside the enum. */
function codeJson(code: Code): string {
  switch (code) {
    case Code.OK:
      return '"OK"';
    case Code.OVER_LIMIT:
      return '"OVER_LIMIT"';
    case Code.UNKNOWN:
      return '"UNKNOWN"';
    default:
      return String(code);
  }
}

/** `RateLimitResponse.RateLimit.Unit` as JSON. */
function unitJson(unit: Unit): string {
  switch (unit) {
    case Unit.SECOND:
      return '"SECOND"';
    case Unit.MINUTE:
      return '"MINUTE"';
    case Unit.HOUR:
      return '"HOUR"';
    case Unit.DAY:
      return '"DAY"';
    case Unit.WEEK:
      return '"WEEK"';
    case Unit.MONTH:
      return '"MONTH"';
    case Unit.YEAR:
      return '"YEAR"';
    case Unit.UNKNOWN:
      return '"UNKNOWN"';
    default:
      return String(unit);
  }
}

/**
 * `google.protobuf.Duration` in protojson form: whole seconds as "58s";
 * a fractional part is written with 3, 6 or 9 digits ("1.500s"), as Go does.
 */
export function formatDurationJson(seconds: number): string {
  if (Number.isInteger(seconds)) return `"${seconds + 0}s"`;
  const negative = seconds < 0;
  const abs = Math.abs(seconds);
  let whole = Math.trunc(abs);
  let nanos = Math.round((abs - whole) * 1e9);
  if (nanos >= 1e9) {
    whole += 1;
    nanos -= 1e9;
  }
  let text = String(whole);
  if (nanos !== 0) {
    let frac = String(nanos).padStart(9, '0');
    while (frac.endsWith('000')) frac = frac.slice(0, -3);
    text += `.${frac}`;
  }
  return negative && (whole !== 0 || nanos !== 0) ? `"-${text}s"` : `"${text}s"`;
}

function encodeCurrentLimit(limit: CurrentLimit): string {
  // Declaration order in rls.proto: name (3), requests_per_unit (1), unit (2).
  let out = '{';
  let sep = '';
  if (limit.name !== '') {
    out += `"name":${JSON.stringify(limit.name)}`;
    sep = ',';
  }
  if (limit.requestsPerUnit !== 0) {
    out += `${sep}"requestsPerUnit":${limit.requestsPerUnit}`;
    sep = ',';
  }
  if (limit.unit !== Unit.UNKNOWN) {
    out += `${sep}"unit":${unitJson(limit.unit)}`;
  }
  return out + '}';
}

/**
 * The opening of a status up to its currentLimit, per code and limit. A configured rule's limit is
 * one frozen object for every request, so its JSON is built once; a caller's override is a new
 * object per request, not frozen, and is encoded without touching the cache.
 */
const statusOpenings = new WeakMap<CurrentLimit, Array<string | undefined>>();

function openingOf(code: Code, limit: CurrentLimit): string {
  const codePart = code === Code.UNKNOWN ? '' : `"code":${codeJson(code)},`;
  return `{${codePart}"currentLimit":${encodeCurrentLimit(limit)}`;
}

function statusOpening(code: Code, limit: CurrentLimit): string {
  // The cache is asked first: Object.isFrozen is a runtime call V8 does not inline.
  let byCode = statusOpenings.get(limit);
  if (byCode === undefined) {
    if (!Object.isFrozen(limit)) return openingOf(code, limit);
    byCode = [];
    statusOpenings.set(limit, byCode);
  }
  let opening = byCode[code];
  if (opening === undefined) {
    opening = openingOf(code, limit);
    byCode[code] = opening;
  }
  return opening;
}

/** `"<n>s",` strings of the whole-second durations a window can have left, built once each. */
const DURATION_CACHE_LIMIT = 4096;
const durations: string[] = [];

function durationJson(seconds: number): string {
  if (seconds >= 0 && seconds < DURATION_CACHE_LIMIT && Number.isInteger(seconds)) {
    return (durations[seconds] ??= formatDurationJson(seconds));
  }
  return formatDurationJson(seconds);
}

function encodeStatus(status: DescriptorStatus): string {
  let out: string;
  let sep: string;
  if (status.currentLimit !== undefined) {
    out = statusOpening(status.code, status.currentLimit);
    sep = ',';
  } else {
    out = '{';
    sep = '';
    if (status.code !== Code.UNKNOWN) {
      out += `"code":${codeJson(status.code)}`;
      sep = ',';
    }
  }
  if (status.limitRemaining !== 0) {
    out += `${sep}"limitRemaining":` + decimalText(status.limitRemaining);
    sep = ',';
  }
  if (status.durationUntilResetSeconds !== undefined) {
    out += `${sep}"durationUntilReset":${durationJson(status.durationUntilResetSeconds)}`;
  }
  return out + '}';
}

function encodeHeader(header: HeaderValue): string {
  if (header.key === '') return header.value === '' ? '{}' : `{"value":${JSON.stringify(header.value)}}`;
  if (header.value === '') return `{"key":${JSON.stringify(header.key)}}`;
  return `{"key":${JSON.stringify(header.key)},"value":${JSON.stringify(header.value)}}`;
}

/**
 * Encodes a response body for /json. Field order: overallCode, statuses,
 * responseHeadersToAdd, dynamicMetadata; an all-default response (UNKNOWN, no statuses, no
 * headers) is `{}`.
 */
export function encodeRateLimitResponseJson(response: RateLimitResponse): string {
  let out = '{';
  let sep = '';
  if (response.overallCode !== Code.UNKNOWN) {
    out += `"overallCode":${codeJson(response.overallCode)}`;
    sep = ',';
  }
  const statuses = response.statuses;
  if (statuses.length > 0) {
    out += `${sep}"statuses":[`;
    for (let i = 0; i < statuses.length; i++) {
      if (i > 0) out += ',';
      out += encodeStatus(statuses[i]!);
    }
    out += ']';
    sep = ',';
  }
  const headers = response.responseHeadersToAdd;
  if (headers.length > 0) {
    out += `${sep}"responseHeadersToAdd":[`;
    for (let i = 0; i < headers.length; i++) {
      if (i > 0) out += ',';
      out += encodeHeader(headers[i]!);
    }
    out += ']';
    sep = ',';
  }
  if (response.dynamicMetadata !== undefined) out += `${sep}"dynamicMetadata":${structJson(response.dynamicMetadata)}`;
  return out + '}';
}

/** Printable ASCII only: such a limit name is as many UTF-8 bytes as characters, quoted or not. */
const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;

/**
 * The UTF-8 length of `text`, the answer encodeRateLimitResponseJson made of `response`. Everything
 * the encoder writes is ASCII but what callers and rules name: limit names, headers and metadata.
 * Without those (the usual answer) the length is the string's; `Buffer.byteLength` of a string
 * built by concatenation costs a flatten and a scan on every answer.
 */
export function rateLimitResponseJsonBytes(response: RateLimitResponse, text: string): number {
  if (response.responseHeadersToAdd.length > 0 || response.dynamicMetadata !== undefined) return Buffer.byteLength(text);
  const statuses = response.statuses;
  for (let i = 0; i < statuses.length; i++) {
    const name = statuses[i]!.currentLimit?.name;
    if (name !== undefined && name !== '' && !PRINTABLE_ASCII.test(name)) return Buffer.byteLength(text);
  }
  return text.length;
}
