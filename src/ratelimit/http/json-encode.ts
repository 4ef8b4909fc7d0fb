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
 * answer is written as UTF-8 bytes into a reused buffer, from pieces encoded
 * once (field names, a configured limit's opening, durations) and digits
 * written one by one. JSON.stringify is used only to quote caller-controlled
 * strings (rule names, header keys and values). Its escaping matches Go's
 * protojson for valid UTF-16: `"`, `\` and control characters only, lower-case
 * hex, no HTML escaping.
 */
import { Code, Unit, type CurrentLimit, type DescriptorStatus, type HeaderValue, type RateLimitResponse } from '../../engine/index.js';
import { ByteSink, utf8Bytes } from './byte-sink.js';
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
 * The opening of a status up to its currentLimit, as bytes, per code and limit. A configured rule's
 * limit is one frozen object for every request, so its JSON is built once; a caller's override is
 * a new object per request, not frozen, and is encoded without touching the cache.
 */
const statusOpenings = new WeakMap<CurrentLimit, Array<Uint8Array | undefined>>();

function openingOf(code: Code, limit: CurrentLimit): string {
  const codePart = code === Code.UNKNOWN ? '' : `"code":${codeJson(code)},`;
  return `{${codePart}"currentLimit":${encodeCurrentLimit(limit)}`;
}

/**
 * The opening of a status, and the name of its limitRemaining when `remaining` (one piece: each
 * piece written costs a call).
 */
function writeStatusOpening(sink: ByteSink, code: Code, limit: CurrentLimit, remaining: boolean): void {
  // The cache is asked first: Object.isFrozen is a runtime call V8 does not inline.
  let pieces = statusOpenings.get(limit);
  if (pieces === undefined) {
    if (!Object.isFrozen(limit)) {
      sink.text(openingOf(code, limit));
      if (remaining) sink.bytes(NEXT_LIMIT_REMAINING_FIELD);
      return;
    }
    pieces = [];
    statusOpenings.set(limit, pieces);
  }
  const at = code * 2 + (remaining ? 1 : 0);
  let piece = pieces[at];
  if (piece === undefined) {
    piece = utf8Bytes(openingOf(code, limit) + (remaining ? NEXT_LIMIT_REMAINING : ''));
    pieces[at] = piece;
  }
  sink.bytes(piece);
}

/** `"<n>s"` of the whole-second durations a window can have left, encoded once each. */
const DURATION_CACHE_LIMIT = 4096;
const durations: Uint8Array[] = [];

function writeDuration(sink: ByteSink, seconds: number): void {
  if (seconds >= 0 && seconds < DURATION_CACHE_LIMIT && Number.isInteger(seconds)) {
    sink.bytes((durations[seconds] ??= utf8Bytes(formatDurationJson(seconds))));
  } else {
    sink.text(formatDurationJson(seconds));
  }
}

const CODE_OK = utf8Bytes('"OK"');
const CODE_OVER_LIMIT = utf8Bytes('"OVER_LIMIT"');

function writeCode(sink: ByteSink, code: Code): void {
  if (code === Code.OK) sink.bytes(CODE_OK);
  else if (code === Code.OVER_LIMIT) sink.bytes(CODE_OVER_LIMIT);
  else sink.text(codeJson(code));
}

const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const CLOSE_BRACKET = 0x5d;
const COMMA = 0x2c;
const CODE_FIELD = utf8Bytes('"code":');
const LIMIT_REMAINING_FIELD = utf8Bytes('"limitRemaining":');
const NEXT_LIMIT_REMAINING = ',"limitRemaining":';
const NEXT_LIMIT_REMAINING_FIELD = utf8Bytes(NEXT_LIMIT_REMAINING);
const DURATION_FIELD = utf8Bytes('"durationUntilReset":');
const NEXT_DURATION_FIELD = utf8Bytes(',"durationUntilReset":');
const OVERALL_CODE_FIELD = utf8Bytes('"overallCode":');
const STATUSES_FIELD = utf8Bytes('"statuses":[');
/** The usual start of an answer, in one piece. */
const OK_WITH_STATUSES = utf8Bytes('{"overallCode":"OK","statuses":[');
const OVER_LIMIT_WITH_STATUSES = utf8Bytes('{"overallCode":"OVER_LIMIT","statuses":[');
const HEADERS_FIELD = utf8Bytes('"responseHeadersToAdd":[');
const METADATA_FIELD = utf8Bytes('"dynamicMetadata":');

function writeStatus(sink: ByteSink, status: DescriptorStatus): void {
  const remaining = status.limitRemaining !== 0;
  let separate: boolean;
  if (status.currentLimit !== undefined) {
    writeStatusOpening(sink, status.code, status.currentLimit, remaining);
    if (remaining) sink.decimal(status.limitRemaining);
    separate = true;
  } else {
    sink.byte(OPEN_BRACE);
    separate = false;
    if (status.code !== Code.UNKNOWN) {
      sink.bytes(CODE_FIELD);
      writeCode(sink, status.code);
      separate = true;
    }
    if (remaining) {
      sink.bytes(separate ? NEXT_LIMIT_REMAINING_FIELD : LIMIT_REMAINING_FIELD);
      sink.decimal(status.limitRemaining);
      separate = true;
    }
  }
  if (status.durationUntilResetSeconds !== undefined) {
    sink.bytes(separate ? NEXT_DURATION_FIELD : DURATION_FIELD);
    writeDuration(sink, status.durationUntilResetSeconds);
  }
  sink.byte(CLOSE_BRACE);
}

function encodeHeader(header: HeaderValue): string {
  if (header.key === '') return header.value === '' ? '{}' : `{"value":${JSON.stringify(header.value)}}`;
  if (header.value === '') return `{"key":${JSON.stringify(header.key)}}`;
  return `{"key":${JSON.stringify(header.key)},"value":${JSON.stringify(header.value)}}`;
}

/** Where the answers of this thread are written (one at a time: encoding is synchronous). */
const answers = new ByteSink(4096);

/**
 * Encodes a response body for /json as UTF-8, into memory that is only lent: the next call writes
 * over it, so the caller hands the bytes on (or copies them) before encoding another answer.
 * Field order: overallCode, statuses, responseHeadersToAdd, dynamicMetadata; an all-default
 * response (UNKNOWN, no statuses, no headers) is `{}`.
 */
export function encodeRateLimitResponseJsonBytes(response: RateLimitResponse): Uint8Array {
  const sink = answers;
  sink.reset();
  const statuses = response.statuses;
  let separate = false;
  if (statuses.length > 0 && response.overallCode === Code.OK) {
    sink.bytes(OK_WITH_STATUSES);
  } else if (statuses.length > 0 && response.overallCode === Code.OVER_LIMIT) {
    sink.bytes(OVER_LIMIT_WITH_STATUSES);
  } else {
    sink.byte(OPEN_BRACE);
    if (response.overallCode !== Code.UNKNOWN) {
      sink.bytes(OVERALL_CODE_FIELD);
      writeCode(sink, response.overallCode);
      separate = true;
    }
    if (statuses.length > 0) {
      if (separate) sink.byte(COMMA);
      sink.bytes(STATUSES_FIELD);
    }
  }
  if (statuses.length > 0) {
    for (let i = 0; i < statuses.length; i++) {
      if (i > 0) sink.byte(COMMA);
      writeStatus(sink, statuses[i]!);
    }
    sink.byte(CLOSE_BRACKET);
    separate = true;
  }
  const headers = response.responseHeadersToAdd;
  if (headers.length > 0) {
    if (separate) sink.byte(COMMA);
    sink.bytes(HEADERS_FIELD);
    for (let i = 0; i < headers.length; i++) {
      if (i > 0) sink.byte(COMMA);
      sink.text(encodeHeader(headers[i]!));
    }
    sink.byte(CLOSE_BRACKET);
    separate = true;
  }
  if (response.dynamicMetadata !== undefined) {
    if (separate) sink.byte(COMMA);
    sink.bytes(METADATA_FIELD);
    sink.text(structJson(response.dynamicMetadata));
  }
  sink.byte(CLOSE_BRACE);
  return sink.written();
}

const textOfBytes = new TextDecoder();

/** The same body as text (for a trace attribute, a log line, a test). */
export function encodeRateLimitResponseJson(response: RateLimitResponse): string {
  return textOfBytes.decode(encodeRateLimitResponseJsonBytes(response));
}
