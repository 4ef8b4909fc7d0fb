/**
 * Decoder for the HTTP `/json` endpoint: the proto3 JSON mapping (as Go's
 * `protojson.Unmarshal`) of `envoy.service.ratelimit.v3.RateLimitRequest`.
 *
 * Hand-written on purpose. This runs once per /json request, so it is on the
 * hot path: a generic protobuf JSON library (descriptor-driven, reflection
 * over field tables, or a schema validator) would be noticeably slower and
 * would allocate more. Instead we let V8's native `JSON.parse` build the tree
 * and then walk it once with a validating walker whose shape is fixed by the
 * message schema (request -> descriptor -> entry / limit), so its depth never
 * depends on the input: unknown fields are rejected as soon as their key is
 * seen, without ever looking inside their values, and every array is walked
 * with a loop. No error string is built unless decoding fails.
 *
 * protojson rules implemented, as upstream's `/json` handler applies them to rls.proto and
 * ratelimit.proto:
 * - field names in lowerCamelCase or the original snake_case; giving the same
 *   field under both names is an error ("duplicate field"), as in Go;
 * - JSON `null` for a field means "unset" (the default, or absent for
 *   `limit` / the UInt64Value `hitsAddend`); `null` as an array element is an
 *   error;
 * - unknown fields are rejected at every level;
 * - integers may be JSON numbers or strings holding a JSON number
 *   ("5", "5.0", "1e2"); they must be integral, non-negative and in range;
 * - enums by exact name or by number.
 *
 * Deliberate deviations, all of them documented here:
 * - An entry whose `key` is missing, null or "" is rejected. protojson
 *   itself would accept it, but the proto declares `key` with `min_len: 1`
 *   and an empty key can never match configuration.
 * - `limit.unit` accepts only numbers 0..7 (WEEK=7 too, because our Unit
 *   has it). protojson accepts any int32 for an open enum, but upstream then
 *   panics on an unknown unit, and our domain type cannot represent one.
 * - Duplicate keys spelled identically (`{"domain":"a","domain":"b"}`) are
 *   refused with "duplicate field", as Go refuses them: JSON.parse keeps the
 *   last, so the keys walked are counted against the `":` in the text, and a
 *   difference runs an exact scan.
 * - JSON numbers are IEEE doubles after `JSON.parse`, so a number literal
 *   with a tiny fraction beyond double precision (4294967295.00000000001)
 *   reads as an integer. Digits in strings are exact.
 * - Descriptor `hitsAddend` is a uint64. Values above
 *   Number.MAX_SAFE_INTEGER (2^53-1) are clamped to it (any such addend is
 *   over every uint32 limit anyway). Strings are range-checked exactly
 *   against 2^64-1; for JSON numbers the literal 18446744073709551615 rounds
 *   to the double 2^64, as does 18446744073709551616, so when a number equal
 *   to 2^64 is read the text is checked for a literal above 2^64-1.
 */
import { Unit, type DescriptorEntry, type LimitOverride, type RateLimitRequest, type RequestDescriptor } from '../../engine/index.js';
import { readPlainRequest } from './json-plain-request.js';

/**
 * A /json body that is not a valid RateLimitRequest. Returned as a value,
 * never thrown; deliberately not an `Error` subclass so that failing requests
 * do not pay for stack-trace capture.
 */
export class JsonDecodeError {
  readonly name = 'JsonDecodeError';
  /** `path: reason`, e.g. `descriptors[0].entries[1].value: expected string`. */
  readonly message: string;

  constructor(
    /** Field path as written in the body (`''` for the body itself). */
    readonly path: string,
    /** What was wrong, without the path. */
    readonly reason: string,
  ) {
    this.message = path === '' ? reason : `${path}: ${reason}`;
  }

  toString(): string {
    return `${this.name}: ${this.message}`;
  }
}

/** Type guard for results of {@link parseRateLimitRequestJson}. */
export function isJsonDecodeError(value: unknown): value is JsonDecodeError {
  return value instanceof JsonDecodeError;
}

type JsonObject = Record<string, unknown>;

const UINT32_MAX = 4294967295;
const UINT32_MAX_DIGITS = '4294967295';
const UINT64_MAX_DIGITS = '18446744073709551615';
/** The double nearest to 2^64-1 (it is 2^64). */
const UINT64_MAX_AS_DOUBLE = 18446744073709551615;

const EXPECTED_INTEGER = 'expected integer (number or decimal string)';
const NOT_INTEGER = 'expected integer, got a fractional value';
const NEGATIVE = 'must not be negative';
const OUT_OF_RANGE_U32 = 'out of range for uint32';
const OUT_OF_RANGE_U64 = 'out of range for uint64';
const BAD_NUMBER_STRING = 'string is not a valid JSON number';

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function typeName(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}

const SIMPLE_KEY = /^[A-Za-z_][A-Za-z0-9_]*$/;
const MAX_KEY_IN_MESSAGE = 64;

/** `prefix.key`, or `prefix["odd key"]` for keys that are not identifiers. Only used on errors. */
function fieldPath(prefix: string, key: string): string {
  if (SIMPLE_KEY.test(key) && key.length <= MAX_KEY_IN_MESSAGE) {
    return prefix === '' ? key : `${prefix}.${key}`;
  }
  const shown = key.length > MAX_KEY_IN_MESSAGE ? `${key.slice(0, MAX_KEY_IN_MESSAGE)}...` : key;
  return `${prefix}[${JSON.stringify(shown)}]`;
}

function unknownField(prefix: string, key: string): JsonDecodeError {
  return new JsonDecodeError(fieldPath(prefix, key), 'unknown field');
}

function duplicateField(prefix: string, key: string, first: string): JsonDecodeError {
  return new JsonDecodeError(fieldPath(prefix, key), `duplicate field (already given as "${first}")`);
}

function expected(path: string, what: string, value: unknown): JsonDecodeError {
  return new JsonDecodeError(path, `expected ${what}, got ${typeName(value)}`);
}

// ---------------------------------------------------------------------------
// Integers. Each parser returns the number, or a reason string on failure
// (the constants above, so nothing is allocated).
// ---------------------------------------------------------------------------

/** JSON number grammar; groups: sign, integer part, fraction digits, exponent. */
const JSON_NUMBER = /^(-?)(0|[1-9][0-9]*)(?:\.([0-9]+))?(?:[eE]([+-]?[0-9]+))?$/;
const PLAIN_DIGITS = /^(?:0|[1-9][0-9]{0,19})$/;

/**
 * Exact integer digits (no leading zeros, '0' for zero) of a string holding a
 * JSON number, as Go's protojson `normalizeToIntString`; or a reason string.
 */
function integerDigitsOfString(s: string, maxDigits: number, outOfRange: string): string {
  if (PLAIN_DIGITS.test(s)) return s;
  const m = JSON_NUMBER.exec(s);
  if (m === null) return BAD_NUMBER_STRING;
  const negative = m[1] === '-';
  const intPart = m[2] === '0' ? '' : (m[2] ?? '');
  const frac = (m[3] ?? '').replace(/0+$/, '');
  const expText = m[4];
  if (intPart === '' && frac === '') return '0';
  let exp = 0;
  if (expText !== undefined) {
    exp = Number(expText);
    // Go parses the exponent as int32; anything bigger is invalid.
    if (!Number.isInteger(exp) || exp > 2147483647 || exp < -2147483648) return BAD_NUMBER_STRING;
  }
  let digits: string;
  if (exp >= 0) {
    if (frac.length > exp) return NOT_INTEGER;
    if (intPart.length + exp > 20) return negative ? NEGATIVE : outOfRange;
    digits = intPart + frac + '0'.repeat(exp - frac.length);
  } else {
    if (frac.length > 0) return NOT_INTEGER;
    const index = intPart.length + exp;
    if (index < 0) return NOT_INTEGER;
    for (let i = index; i < intPart.length; i++) {
      if (intPart.charCodeAt(i) !== 48 /* '0' */) return NOT_INTEGER;
    }
    digits = intPart.slice(0, index);
  }
  digits = digits.replace(/^0+/, '');
  if (digits === '') return '0';
  if (negative) return NEGATIVE;
  if (digits.length > maxDigits) return outOfRange;
  return digits;
}

/** True when the digit string (no leading zeros) is above `maxDigits` (same form). */
function digitsAbove(digits: string, max: string): boolean {
  return digits.length > max.length || (digits.length === max.length && digits > max);
}

function parseUint32(value: unknown): number | string {
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) return OUT_OF_RANGE_U32;
    if (!Number.isInteger(value)) return NOT_INTEGER;
    if (value < 0) return NEGATIVE;
    if (value > UINT32_MAX) return OUT_OF_RANGE_U32;
    return value + 0; // -0 -> 0
  }
  if (typeof value === 'string') {
    const digits = integerDigitsOfString(value, 10, OUT_OF_RANGE_U32);
    if (!isDigitString(digits)) return digits;
    if (digitsAbove(digits, UINT32_MAX_DIGITS)) return OUT_OF_RANGE_U32;
    return Number(digits);
  }
  return EXPECTED_INTEGER;
}

/** uint64, clamped to Number.MAX_SAFE_INTEGER (see the file comment). */
function parseUint64Clamped(value: unknown): number | string {
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) return OUT_OF_RANGE_U64;
    if (!Number.isInteger(value)) return NOT_INTEGER;
    if (value < 0) return NEGATIVE;
    if (value > UINT64_MAX_AS_DOUBLE) return OUT_OF_RANGE_U64;
    return value > Number.MAX_SAFE_INTEGER ? Number.MAX_SAFE_INTEGER : value + 0;
  }
  if (typeof value === 'string') {
    const digits = integerDigitsOfString(value, 20, OUT_OF_RANGE_U64);
    if (!isDigitString(digits)) return digits;
    if (digitsAbove(digits, UINT64_MAX_DIGITS)) return OUT_OF_RANGE_U64;
    const n = Number(digits);
    return n > Number.MAX_SAFE_INTEGER ? Number.MAX_SAFE_INTEGER : n;
  }
  return EXPECTED_INTEGER;
}

/** Distinguishes a digit string result from a reason string (reasons never start with a digit). */
function isDigitString(s: string): boolean {
  const c = s.charCodeAt(0);
  return c >= 48 && c <= 57;
}

// ---------------------------------------------------------------------------
// Enum
// ---------------------------------------------------------------------------

/** `envoy.type.v3.RateLimitUnit` by name or number (plus WEEK/7, see file comment); or a reason. */
function parseUnit(value: unknown): Unit | string {
  if (typeof value === 'string') {
    switch (value) {
      case 'UNKNOWN':
        return Unit.UNKNOWN;
      case 'SECOND':
        return Unit.SECOND;
      case 'MINUTE':
        return Unit.MINUTE;
      case 'HOUR':
        return Unit.HOUR;
      case 'DAY':
        return Unit.DAY;
      case 'MONTH':
        return Unit.MONTH;
      case 'YEAR':
        return Unit.YEAR;
      case 'WEEK':
        return Unit.WEEK;
      default:
        return 'unknown enum name for envoy.type.v3.RateLimitUnit';
    }
  }
  if (typeof value === 'number') {
    if (Number.isInteger(value) && value >= 0 && value <= 7) return (value + 0) as Unit;
    return 'unknown enum number for envoy.type.v3.RateLimitUnit';
  }
  return 'expected enum name (string) or number';
}

// ---------------------------------------------------------------------------
// Messages
// ---------------------------------------------------------------------------

function decodeEntry(raw: unknown, d: number, e: number): DescriptorEntry | JsonDecodeError {
  if (!isObject(raw)) return expected(`descriptors[${d}].entries[${e}]`, 'object', raw);
  let key = '';
  let value = '';
  for (const k in raw) {
    keysWalked++;
    const v = raw[k];
    if (k === 'key') {
      if (v === null) continue;
      if (typeof v !== 'string') return expected(`descriptors[${d}].entries[${e}].key`, 'string', v);
      key = v;
    } else if (k === 'value') {
      if (v === null) continue;
      if (typeof v !== 'string') return expected(`descriptors[${d}].entries[${e}].value`, 'string', v);
      value = v;
    } else {
      return unknownField(`descriptors[${d}].entries[${e}]`, k);
    }
  }
  if (key === '') {
    return new JsonDecodeError(`descriptors[${d}].entries[${e}].key`, 'required (non-empty string)');
  }
  return { key, value };
}

function decodeLimit(raw: JsonObject, d: number, field: string): LimitOverride | JsonDecodeError {
  let requestsPerUnit = 0;
  let unit = Unit.UNKNOWN;
  let rpuName: string | undefined;
  for (const k in raw) {
    keysWalked++;
    const v = raw[k];
    switch (k) {
      case 'requestsPerUnit':
      case 'requests_per_unit': {
        if (rpuName !== undefined) return duplicateField(`descriptors[${d}].${field}`, k, rpuName);
        rpuName = k;
        if (v === null) break;
        const n = parseUint32(v);
        if (typeof n === 'string') return new JsonDecodeError(`descriptors[${d}].${field}.${k}`, n);
        requestsPerUnit = n;
        break;
      }
      case 'unit': {
        if (v === null) break;
        const u = parseUnit(v);
        if (typeof u === 'string') return new JsonDecodeError(`descriptors[${d}].${field}.unit`, u);
        unit = u;
        break;
      }
      default:
        return unknownField(`descriptors[${d}].${field}`, k);
    }
  }
  return { requestsPerUnit, unit };
}

function decodeDescriptor(raw: unknown, d: number): RequestDescriptor | JsonDecodeError {
  if (!isObject(raw)) return expected(`descriptors[${d}]`, 'object', raw);
  let entries: DescriptorEntry[] = [];
  let limit: LimitOverride | undefined;
  let hitsAddend: number | undefined;
  let hitsName: string | undefined;
  for (const k in raw) {
    keysWalked++;
    const v = raw[k];
    switch (k) {
      case 'entries': {
        if (v === null) break;
        if (!Array.isArray(v)) return expected(`descriptors[${d}].entries`, 'array', v);
        const n = v.length;
        entries = [];
        for (let e = 0; e < n; e++) {
          const entry = decodeEntry(v[e], d, e);
          if (entry instanceof JsonDecodeError) return entry;
          entries.push(entry);
        }
        break;
      }
      case 'limit': {
        if (v === null) break;
        if (!isObject(v)) return expected(`descriptors[${d}].limit`, 'object', v);
        const l = decodeLimit(v, d, k);
        if (l instanceof JsonDecodeError) return l;
        limit = l;
        break;
      }
      case 'hitsAddend':
      case 'hits_addend': {
        if (hitsName !== undefined) return duplicateField(`descriptors[${d}]`, k, hitsName);
        hitsName = k;
        if (v === null) break;
        const n = parseUint64Clamped(v);
        if (typeof n === 'string') return new JsonDecodeError(`descriptors[${d}].${k}`, n);
        // 2^64-1 and 2^64 are the same double: only the text can tell them apart (checked after the walk).
        if (v === UINT64_MAX_AS_DOUBLE) hugeNumberAt = `descriptors[${d}].${k}`;
        hitsAddend = n;
        break;
      }
      default:
        return unknownField(`descriptors[${d}]`, k);
    }
  }
  const out: RequestDescriptor = { entries };
  if (limit !== undefined) out.limit = limit;
  if (hitsAddend !== undefined) out.hitsAddend = hitsAddend;
  return out;
}

/** Longest JSON.parse message kept in an "invalid JSON" error. */
const MAX_SYNTAX_MESSAGE = 200;

/**
 * Decodes a /json request body. Never throws: a malformed body gives a
 * {@link JsonDecodeError} whose `message` names the offending field path.
 *
 * The codec only checks the wire format. `{}` decodes to domain '' with no
 * descriptors; rejecting that is the service's job. There is no limit on
 * the number of descriptors or entries; the caller bounds the body size.
 */
export function parseRateLimitRequestJson(body: string): RateLimitRequest | JsonDecodeError {
  return readPlainRequest(body) ?? parseThroughJsonParse(body);
}

/** The general decoder: JSON.parse, then the checks on its tree (every body the plain reader passes on). */
export function parseThroughJsonParse(body: string): RateLimitRequest | JsonDecodeError {
  const request = decodeRequest(body);
  if (request instanceof JsonDecodeError) return request;
  // JSON.parse keeps the last of duplicate keys; Go's decoder refuses them. Every key of the
  // walked tree ends in `":` in the text, so equal counts mean no duplicate: the exact scan runs
  // only when they differ (a duplicate, a string holding `":`, or a space before a colon).
  if (countKeyEnds(body) !== keysWalked) {
    const duplicate = findDuplicateKey(body);
    if (duplicate !== undefined) return duplicate;
  }
  if (hugeNumberAt !== undefined && hasNumberBeyondUint64(body)) return new JsonDecodeError(hugeNumberAt, OUT_OF_RANGE_U64);
  // JSON.parse accepts escaped lone surrogates (`"\ud800"`); Go's decoder and protobuf strings
  // do not. Only an escape can produce one in an already valid UTF-8 body, so check only then.
  if (body.includes('\\u')) return rejectLoneSurrogates(request);
  return request;
}

/** Keys the last walk visited; compared with the text, it tells whether JSON.parse dropped a duplicate. */
let keysWalked = 0;
/** Where a JSON number equal to 2^64 (as a double) was read, if one was. */
let hugeNumberAt: string | undefined;

/** Occurrences of `":` in the text: one per key, unless strings hold some or a key has a space before its colon. */
function countKeyEnds(body: string): number {
  let count = 0;
  for (let at = body.indexOf('":'); at !== -1; at = body.indexOf('":', at + 2)) count++;
  return count;
}

/**
 * The first key that repeats within one object, with its path, found by scanning the (already
 * valid) JSON text; undefined when there is none. Only runs when the quick count says it might.
 */
function findDuplicateKey(body: string): JsonDecodeError | undefined {
  interface Frame {
    keys: Set<string> | undefined;
    /** Path of this container; for an array, the index of the element being read. */
    path: string;
    index: number;
    key: string | undefined;
  }
  const stack: Frame[] = [];
  const pathOfChild = (): string => {
    const top = stack[stack.length - 1];
    if (top === undefined) return '';
    if (top.keys === undefined) return `${top.path}[${top.index}]`;
    return fieldPath(top.path, top.key ?? '');
  };
  let expectKey = false;
  for (let i = 0; i < body.length; i++) {
    const c = body.charCodeAt(i);
    if (c === 0x22 /* " */) {
      let end = i + 1;
      while (body.charCodeAt(end) !== 0x22) end += body.charCodeAt(end) === 0x5c /* \ */ ? 2 : 1;
      const top = stack[stack.length - 1];
      if (expectKey && top?.keys !== undefined) {
        const key = JSON.parse(body.slice(i, end + 1)) as string;
        if (top.keys.has(key)) return new JsonDecodeError(fieldPath(top.path, key), 'duplicate field');
        top.keys.add(key);
        top.key = key;
        expectKey = false;
      }
      i = end;
    } else if (c === 0x7b /* { */ || c === 0x5b /* [ */) {
      stack.push({ keys: c === 0x7b ? new Set() : undefined, path: pathOfChild(), index: 0, key: undefined });
      expectKey = c === 0x7b;
    } else if (c === 0x7d /* } */ || c === 0x5d /* ] */) {
      stack.pop();
    } else if (c === 0x2c /* , */) {
      const top = stack[stack.length - 1];
      if (top?.keys === undefined) {
        if (top !== undefined) top.index++;
      } else {
        expectKey = true;
      }
    }
  }
  return undefined;
}

/** Whether a number literal in the text is above 2^64-1 (a double cannot tell 2^64 from 2^64-1). */
function hasNumberBeyondUint64(body: string): boolean {
  for (const match of body.matchAll(/(?<![\w."\\])(\d{20,})(?![\w.])/g)) {
    const digits = (match[1] as string).replace(/^0+/, '');
    if (digitsAbove(digits, UINT64_MAX_DIGITS)) return true;
  }
  return false;
}

function isWellFormed(text: string): boolean {
  return (text as string & { isWellFormed(): boolean }).isWellFormed();
}

function rejectLoneSurrogates(request: RateLimitRequest): RateLimitRequest | JsonDecodeError {
  if (!isWellFormed(request.domain)) return new JsonDecodeError('domain', 'invalid UTF-16: lone surrogate');
  for (let d = 0; d < request.descriptors.length; d++) {
    const entries = (request.descriptors[d] as RequestDescriptor).entries;
    for (let e = 0; e < entries.length; e++) {
      const entry = entries[e] as RequestDescriptor['entries'][number];
      if (!isWellFormed(entry.key) || !isWellFormed(entry.value)) {
        return new JsonDecodeError(`descriptors[${d}].entries[${e}]`, 'invalid UTF-16: lone surrogate');
      }
    }
  }
  return request;
}

function decodeRequest(body: string): RateLimitRequest | JsonDecodeError {
  keysWalked = 0;
  hugeNumberAt = undefined;
  let root: unknown;
  try {
    root = JSON.parse(body);
  } catch (err) {
    let detail = err instanceof Error ? err.message : String(err);
    if (detail.length > MAX_SYNTAX_MESSAGE) detail = `${detail.slice(0, MAX_SYNTAX_MESSAGE)}...`;
    return new JsonDecodeError('', `invalid JSON: ${detail}`);
  }
  if (!isObject(root)) return new JsonDecodeError('', `expected a JSON object, got ${typeName(root)}`);

  let domain = '';
  let descriptors: RequestDescriptor[] = [];
  let hitsAddend = 0;
  let hitsName: string | undefined;
  for (const k in root) {
    keysWalked++;
    const v = root[k];
    switch (k) {
      case 'domain':
        if (v === null) break;
        if (typeof v !== 'string') return expected('domain', 'string', v);
        domain = v;
        break;
      case 'descriptors': {
        if (v === null) break;
        if (!Array.isArray(v)) return expected('descriptors', 'array', v);
        const n = v.length;
        descriptors = [];
        for (let d = 0; d < n; d++) {
          const desc = decodeDescriptor(v[d], d);
          if (desc instanceof JsonDecodeError) return desc;
          descriptors.push(desc);
        }
        break;
      }
      case 'hitsAddend':
      case 'hits_addend': {
        if (hitsName !== undefined) return duplicateField('', k, hitsName);
        hitsName = k;
        if (v === null) break;
        const n = parseUint32(v);
        if (typeof n === 'string') return new JsonDecodeError(k, n);
        hitsAddend = n;
        break;
      }
      default:
        return unknownField('', k);
    }
  }
  return { domain, descriptors, hitsAddend };
}
