/**
 * Timestamps as Alertmanager's API reads and writes them (go-openapi strfmt.DateTime).
 * Written: RFC 3339 in UTC with exactly three fractional digits. Read: strfmt's layouts on Go's
 * time.Parse (go-time.ts): RFC 3339 with any number of fractional digits, an offset without a
 * colon only after exactly 3 or 6 of them, and the zone-less forms; Go's zero time
 * (`0001-01-01T00:00:00Z`) and null mean "not set", `""` is the epoch.
 */
import { goParse, type GoParse, type GoTime } from './go-time.js';

/** Milliseconds since the epoch; ZERO_TIME for Go's zero time ("not set"). */
export const ZERO_TIME = Number.NEGATIVE_INFINITY;

/** Times written lately: the alerts of one POST, and of one rule evaluation, share their times. */
const formatted = new Map<number, string>();
const FORMATTED_KEPT = 4096;

export function formatTime(ms: number): string {
  let text = formatted.get(ms);
  if (text === undefined) {
    if (formatted.size >= FORMATTED_KEPT) formatted.clear();
    formatted.set(ms, (text = new Date(ms).toISOString()));
  }
  return text;
}

export function isZero(ms: number): boolean {
  return ms === ZERO_TIME;
}

/**
 * go-openapi strfmt's DateTimeFormats, in the order ParseDateTime tries them: the first that
 * parses wins, and a failure reports the last one's error.
 */
const DATE_TIME_LAYOUTS = [
  '2006-01-02T15:04:05.000000Z07:00',
  '2006-01-02T15:04:05.000000Z0700',
  '2006-01-02T15:04:05.000Z07:00',
  '2006-01-02T15:04:05.000Z0700',
  '2006-01-02T15:04:05Z07:00',
  '2006-01-02T15:04:05.999999999Z07:00',
  '2006-01-02T15:04:05',
  '2006-01-02T15:04Z',
  '2006-01-02T15:04',
  '2006-01-02 15:04:05',
];

/**
 * A time that parsed. `notDateTime`: set when go-openapi's `date-time` format check refuses it
 * afterwards (422, code 601), as the text that check sees (the time written back as
 * `2006-01-02T15:04:05.000Z07:00`): an offset of 100 hours or more, such as `+99:99`.
 */
export type ParsedTime = TimeValue | { ok: false; error: string };
export type TimeValue = { ok: true; ms: number; notDateTime?: string };

/**
 * The last two texts parsed and their results: the alerts of one POST usually share their start
 * and their end, read one after the other.
 */
let lastText = '';
let lastParsed: ParsedTime = { ok: true, ms: 0 };
let previousText = '';
let previousParsed: ParsedTime = { ok: true, ms: 0 };

/** strfmt.ParseDateTime on Go 1.19's time.Parse; the error is the last layout's, as Go's is. */
export function parseTime(text: string): ParsedTime {
  if (text === lastText) return lastParsed;
  if (text === previousText) return previousParsed;
  previousText = lastText;
  previousParsed = lastParsed;
  lastParsed = parseUncached(text);
  lastText = text;
  return lastParsed;
}

const utf8 = new TextEncoder();

function parseUncached(text: string): ParsedTime {
  if (text === '') return { ok: true, ms: 0 };
  const ms = plainRfc3339(text);
  return ms === undefined ? parseWithLayouts(text) : { ok: true, ms };
}

/** The layouts tried one after the other, as strfmt does: the path for every text but the plain form. */
export function parseWithLayouts(text: string): ParsedTime {
  const bytes = utf8.encode(text);
  let last: GoParse = { ok: false, error: '' };
  for (const layout of DATE_TIME_LAYOUTS) {
    last = goParse(layout, bytes);
    if (last.ok) break;
  }
  if (!last.ok) return last;
  const t = last.time;
  let ms = Date.UTC(t.year, t.month - 1, t.day, t.hour, t.minute, t.second, Math.floor(t.nanosecond / 1e6));
  // Date.UTC maps years 0-99 to 1900-1999.
  if (t.year < 100) ms = new Date(ms).setUTCFullYear(t.year);
  ms -= (t.offsetSeconds ?? 0) * 1000;
  // Go's zero time, however it is written, means "not set" (amtool sends it for both times), and is never format-checked.
  if (ms === GO_ZERO_MS) return { ok: true, ms: ZERO_TIME };
  const notDateTime = dateTimeCheck(t);
  return notDateTime === undefined ? { ok: true, ms } : { ok: true, ms, notDateTime };
}

/** The value of the ASCII digits text[from, to), or -1 when one of them is not a digit. */
function digits(text: string, from: number, to: number): number {
  let value = 0;
  for (let i = from; i < to; i++) {
    const digit = text.charCodeAt(i) - 48;
    if (digit < 0 || digit > 9) return -1;
    value = value * 10 + digit;
  }
  return value;
}

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

function daysIn(year: number, month: number): number {
  return month === 2 && year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : (DAYS_IN_MONTH[month - 1] as number);
}

/**
 * The form every Alertmanager client sends (`2006-01-02T15:04:05[.fraction](Z|+07:00)`, a year
 * from 1000, fields in range, up to 9 fractional digits, an offset under a day): read directly,
 * to the value the first matching layout would give. Trying the layouts in order builds two
 * failures' error texts for the commonest form (three fractional digits), which made time parsing
 * most of an ingest's cost when every alert's times differ. Anything else: undefined, and the
 * layouts decide, with Go's errors.
 */
function plainRfc3339(text: string): number | undefined {
  const length = text.length;
  if (length < 20 || text.charCodeAt(4) !== 45 || text.charCodeAt(7) !== 45 || text.charCodeAt(10) !== 84 || text.charCodeAt(13) !== 58 || text.charCodeAt(16) !== 58) return undefined;
  const year = digits(text, 0, 4);
  const month = digits(text, 5, 7);
  const day = digits(text, 8, 10);
  const hour = digits(text, 11, 13);
  const minute = digits(text, 14, 16);
  const second = digits(text, 17, 19);
  if (year < 1000 || month < 1 || month > 12 || day < 1 || day > daysIn(year, month) || hour < 0 || hour > 23 || minute < 0 || minute > 59 || second < 0 || second > 59) return undefined;
  let at = 19;
  let millisecond = 0;
  if (text.charCodeAt(at) === 46) {
    const end = fractionEnd(text, at + 1);
    const count = end - at - 1;
    if (count < 1 || count > 9) return undefined;
    const fraction = digits(text, at + 1, end);
    millisecond = count <= 3 ? fraction * 10 ** (3 - count) : Math.floor(fraction / 10 ** (count - 3));
    at = end;
  }
  let offsetMinutes = 0;
  const zone = text.charCodeAt(at);
  if (zone === 90 && at + 1 === length) offsetMinutes = 0;
  else if ((zone === 43 || zone === 45) && at + 6 === length && text.charCodeAt(at + 3) === 58) {
    const hours = digits(text, at + 1, at + 3);
    const minutes = digits(text, at + 4, at + 6);
    if (hours < 0 || hours > 23 || minutes < 0 || minutes > 59) return undefined;
    offsetMinutes = (zone === 45 ? -1 : 1) * (hours * 60 + minutes);
  } else return undefined;
  return Date.UTC(year, month - 1, day, hour, minute, second, millisecond) - offsetMinutes * 60_000;
}

function fractionEnd(text: string, from: number): number {
  let end = from;
  while (end < text.length && text.charCodeAt(end) >= 48 && text.charCodeAt(end) <= 57) end++;
  return end;
}

const pad = (n: number, width: number) => String(n).padStart(width, '0');

/**
 * strfmt's IsDateTime on the time as DateTime.String() writes it: the zone `+hh:mm` must have
 * two digits of hours, which a parsed offset of 100 hours or more (`+99:60` to `+99:99`) has not.
 * The rest of what the check asks (a valid date, hours to 23, minutes and seconds to 59) always
 * holds for a time that parsed. Returns the written text when the check fails.
 */
function dateTimeCheck(t: GoTime): string | undefined {
  const minutes = Math.trunc((t.offsetSeconds ?? 0) / 60);
  if (Math.abs(minutes) < 100 * 60) return undefined;
  const zone = `${minutes < 0 ? '-' : '+'}${pad(Math.floor(Math.abs(minutes) / 60), 2)}:${pad(Math.abs(minutes) % 60, 2)}`;
  return `${pad(t.year, 4)}-${pad(t.month, 2)}-${pad(t.day, 2)}T${pad(t.hour, 2)}:${pad(t.minute, 2)}:${pad(t.second, 2)}.${pad(Math.floor(t.nanosecond / 1e6), 3)}${zone}`;
}

/** 0001-01-01T00:00:00Z in JavaScript milliseconds. */
const GO_ZERO_MS = Date.parse('0001-01-01T00:00:00Z');
