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

/** The last text parsed and its result: the alerts of one POST usually share their times. */
let lastText = '';
let lastParsed: ParsedTime = { ok: true, ms: 0 };

/** strfmt.ParseDateTime on Go 1.19's time.Parse; the error is the last layout's, as Go's is. */
export function parseTime(text: string): ParsedTime {
  if (text !== lastText) {
    lastParsed = parseUncached(text);
    lastText = text;
  }
  return lastParsed;
}

const utf8 = new TextEncoder();

function parseUncached(text: string): ParsedTime {
  if (text === '') return { ok: true, ms: 0 };
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
