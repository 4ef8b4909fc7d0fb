/**
 * Go's `time.Parse(layout, value)` as Go 1.19 runs it (the Go of Alertmanager 0.25's builds), for
 * the layout elements go-openapi's date-time layouts use: `2006 01 02 15 04 05`, `.000…`,
 * `.999…`, `Z07:00`, `Z0700` and literal text. Go works on the bytes of the UTF-8 text, and so
 * does this, so that errors quote exactly the rest of the value Go quotes.
 *
 * What Go 1.19 accepts and the later releases refuse stays accepted: a zone offset is any two
 * digits of hours and of minutes (`+99:99` parses; go-openapi's date-time check refuses it later).
 */

/** A parsed time: the fields as written and the zone offset, not yet an instant. */
export interface GoTime {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
  nanosecond: number;
  /** Seconds east of UTC; undefined when the value named no zone (UTC then). */
  offsetSeconds: number | undefined;
}

export type GoParse = { ok: true; time: GoTime } | { ok: false; error: string };

type Element =
  | { kind: 'literal'; text: string }
  | { kind: 'year' | 'month' | 'day' | 'hour' | 'minute' | 'second' | 'zone' | 'zoneNoColon' | 'fraction' | 'optionalFraction'; text: string; digits?: number };

const ELEMENTS: ReadonlyArray<[string, Element['kind']]> = [
  ['2006', 'year'],
  ['01', 'month'],
  ['02', 'day'],
  ['15', 'hour'],
  ['04', 'minute'],
  ['05', 'second'],
  ['Z07:00', 'zone'],
  ['Z0700', 'zoneNoColon'],
];

/** The layout as Go's nextStdChunk cuts it: elements, with the literal text between them. */
function elementsOf(layout: string): Element[] {
  const out: Element[] = [];
  let literal = '';
  let i = 0;
  outer: while (i < layout.length) {
    for (const [text, kind] of ELEMENTS) {
      if (layout.startsWith(text, i)) {
        if (literal !== '') out.push({ kind: 'literal', text: literal });
        literal = '';
        out.push({ kind, text });
        i += text.length;
        continue outer;
      }
    }
    const fraction = /^[.,](0+|9+)(?![0-9])/.exec(layout.slice(i));
    if (fraction !== null) {
      if (literal !== '') out.push({ kind: 'literal', text: literal });
      literal = '';
      const digits = (fraction[1] as string).length;
      out.push({ kind: fraction[1]?.startsWith('0') === true ? 'fraction' : 'optionalFraction', text: fraction[0], digits });
      i += fraction[0].length;
      continue;
    }
    literal += layout[i];
    i++;
  }
  if (literal !== '') out.push({ kind: 'literal', text: literal });
  return out;
}

const layoutCache = new Map<string, Element[]>();
const utf8 = new TextEncoder();

const isDigit = (bytes: Uint8Array, i: number) => i < bytes.length && (bytes[i] as number) >= 0x30 && (bytes[i] as number) <= 0x39;
const isSpace = (byte: number | undefined) => byte === 0x20;

/** Go's getnum: one or two digits (exactly two when `fixed`); the value is left as it was on failure. */
function getnum(value: Uint8Array, fixed: boolean): { n: number; rest: Uint8Array } | undefined {
  if (!isDigit(value, 0)) return undefined;
  if (!isDigit(value, 1)) return fixed ? undefined : { n: (value[0] as number) - 0x30, rest: value.subarray(1) };
  return { n: ((value[0] as number) - 0x30) * 10 + ((value[1] as number) - 0x30), rest: value.subarray(2) };
}

/** Go's time.atoi: an optional sign, then decimal digits only. */
function atoi(bytes: Uint8Array): number | undefined {
  let i = 0;
  let negative = false;
  if (bytes.length > 0 && (bytes[0] === 0x2d || bytes[0] === 0x2b)) {
    negative = bytes[0] === 0x2d;
    i = 1;
  }
  if (i >= bytes.length) return undefined;
  let n = 0;
  for (; i < bytes.length; i++) {
    if (!isDigit(bytes, i)) return undefined;
    n = n * 10 + ((bytes[i] as number) - 0x30);
  }
  return negative ? -n : n;
}

/** Go's parseNanoseconds: `value` starts with the separator, `length` bytes including it. */
function parseNanoseconds(value: Uint8Array, length: number): { ns: number } | { range: string } | undefined {
  if (value[0] !== 0x2e && value[0] !== 0x2c) return undefined;
  const n = Math.min(length, 10);
  const digits = atoi(value.subarray(1, n));
  if (digits === undefined) return undefined;
  if (digits < 0) return { range: 'fractional second' };
  return { ns: digits * 10 ** (10 - n) };
}

/**
 * Go's skip: literal bytes in order; a space in the layout takes any run of spaces, none
 * included. On failure, the value as far as it got (Go quotes that in its error).
 */
function skip(value: Uint8Array, prefix: string): { ok: boolean; rest: Uint8Array } {
  let p = 0;
  let v = value;
  while (p < prefix.length) {
    if (prefix[p] === ' ') {
      if (v.length > 0 && !isSpace(v[0])) return { ok: false, rest: v };
      while (prefix[p] === ' ') p++;
      let cut = 0;
      while (isSpace(v[cut])) cut++;
      v = v.subarray(cut);
      continue;
    }
    if (v.length === 0 || v[0] !== prefix.charCodeAt(p)) return { ok: false, rest: v };
    p++;
    v = v.subarray(1);
  }
  return { ok: true, rest: v };
}

const DAYS_BEFORE_NEXT = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

function daysIn(month: number, year: number): number {
  if (month === 2 && year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0)) return 29;
  return DAYS_BEFORE_NEXT[month - 1] as number;
}

/**
 * Go's time.quote: ASCII printable text as is (with `"` and `\` escaped), every byte of a
 * control or non-ASCII character as `\xNN`.
 */
export function goTimeQuote(bytes: Uint8Array): string {
  let out = '"';
  let i = 0;
  while (i < bytes.length) {
    const byte = bytes[i] as number;
    if (byte >= 0x20 && byte < 0x80) {
      if (byte === 0x22 || byte === 0x5c) out += '\\';
      out += String.fromCharCode(byte);
      i++;
      continue;
    }
    const width = byte < 0x80 ? 1 : runeWidth(bytes, i);
    for (let j = 0; j < width; j++) out += `\\x${(bytes[i + j] as number).toString(16).padStart(2, '0')}`;
    i += width;
  }
  return out + '"';
}

/** Bytes of the UTF-8 sequence at `i`, or 1 when it is not a valid one (Go's RuneError width). */
function runeWidth(bytes: Uint8Array, i: number): number {
  const lead = bytes[i] as number;
  const width = lead >= 0xf0 && lead <= 0xf4 ? 4 : lead >= 0xe0 ? 3 : lead >= 0xc2 && lead < 0xe0 ? 2 : 1;
  if (width === 1 || i + width > bytes.length) return 1;
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(bytes.subarray(i, i + width));
    return width;
  } catch {
    return 1;
  }
}

function parseError(layout: string, value: Uint8Array, valueElem: Uint8Array, layoutElem: string): GoParse {
  return { ok: false, error: `parsing time ${goTimeQuote(value)} as ${goTimeQuote(utf8.encode(layout))}: cannot parse ${goTimeQuote(valueElem)} as ${goTimeQuote(utf8.encode(layoutElem))}` };
}

function messageError(value: Uint8Array, message: string): GoParse {
  return { ok: false, error: `parsing time ${goTimeQuote(value)}${message}` };
}

/** time.Parse(layout, text), Go 1.19, for the elements above. */
export function goParse(layout: string, text: string | Uint8Array): GoParse {
  let elements = layoutCache.get(layout);
  if (elements === undefined) layoutCache.set(layout, (elements = elementsOf(layout)));
  const whole = typeof text === 'string' ? utf8.encode(text) : text;
  let value = whole;
  const t: GoTime = { year: 0, month: -1, day: -1, hour: 0, minute: 0, second: 0, nanosecond: 0, offsetSeconds: undefined };
  let failed = false;
  let range = '';
  const takeFraction = (length: number) => {
    const fraction = parseNanoseconds(value, length);
    value = value.subarray(length);
    if (fraction === undefined) failed = true;
    else if ('range' in fraction) range = fraction.range;
    else t.nanosecond = fraction.ns;
  };
  for (let e = 0; e < elements.length; e++) {
    const element = elements[e] as Element;
    if (element.kind === 'literal') {
      const skipped = skip(value, element.text);
      value = skipped.rest;
      if (!skipped.ok) return parseError(layout, whole, value, element.text);
      continue;
    }
    switch (element.kind) {
      case 'year': {
        if (value.length < 4 || !isDigit(value, 0)) {
          failed = true;
          break;
        }
        const year = atoi(value.subarray(0, 4));
        value = value.subarray(4);
        if (year === undefined) failed = true;
        else t.year = year;
        break;
      }
      case 'month':
      case 'day':
      case 'hour':
      case 'minute':
      case 'second': {
        const got = getnum(value, element.kind !== 'hour');
        if (got === undefined) {
          failed = true;
          break;
        }
        value = got.rest;
        if (element.kind === 'month') {
          t.month = got.n;
          if (got.n <= 0 || got.n > 12) range = 'month';
        } else if (element.kind === 'day') {
          t.day = got.n;
        } else if (element.kind === 'hour') {
          t.hour = got.n;
          if (got.n >= 24) range = 'hour';
        } else if (element.kind === 'minute') {
          t.minute = got.n;
          if (got.n >= 60) range = 'minute';
        } else {
          t.second = got.n;
          if (got.n >= 60) {
            range = 'second';
            break;
          }
          // A fraction the layout does not ask for is read anyway, unless the next element is one.
          const next = elements[e + 1];
          const layoutHasFraction = next !== undefined && (next.kind === 'fraction' || next.kind === 'optionalFraction');
          if (!layoutHasFraction && value.length >= 2 && (value[0] === 0x2e || value[0] === 0x2c) && isDigit(value, 1)) {
            let n = 2;
            while (isDigit(value, n)) n++;
            takeFraction(n);
          }
        }
        break;
      }
      case 'fraction': {
        const length = 1 + (element.digits as number);
        if (value.length < length) {
          failed = true;
          break;
        }
        takeFraction(length);
        break;
      }
      case 'optionalFraction': {
        if (value.length < 2 || (value[0] !== 0x2e && value[0] !== 0x2c) || !isDigit(value, 1)) break;
        let i = 0;
        while (i < 9 && isDigit(value, i + 1)) i++;
        takeFraction(1 + i);
        break;
      }
      case 'zone':
      case 'zoneNoColon': {
        if (value.length >= 1 && value[0] === 0x5a) {
          value = value.subarray(1);
          t.offsetSeconds = 0;
          break;
        }
        const colon = element.kind === 'zone';
        if (value.length < (colon ? 6 : 5) || (colon && value[3] !== 0x3a)) {
          failed = true;
          break;
        }
        const sign = value[0];
        const hours = atoi(value.subarray(1, 3));
        const minutes = atoi(value.subarray(colon ? 4 : 3, colon ? 6 : 5));
        value = value.subarray(colon ? 6 : 5);
        if (hours === undefined || minutes === undefined || (sign !== 0x2b && sign !== 0x2d)) {
          failed = true;
          break;
        }
        const offset = (hours * 60 + minutes) * 60;
        t.offsetSeconds = sign === 0x2d ? -offset : offset;
        break;
      }
    }
    if (range !== '') return messageError(whole, `: ${range} out of range`);
    if (failed) return parseError(layout, whole, value, element.text);
  }
  if (value.length > 0) return messageError(whole, `: extra text: ${goTimeQuote(value)}`);
  if (t.month < 0) t.month = 1;
  if (t.day < 0) t.day = 1;
  if (t.day < 1 || t.day > daysIn(t.month, t.year)) return messageError(whole, ': day out of range');
  return { ok: true, time: t };
}
