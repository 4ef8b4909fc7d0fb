/**
 * Timestamps as Alertmanager's API reads and writes them (go-openapi strfmt.DateTime).
 * Written: RFC 3339 in UTC with exactly three fractional digits. Read: RFC 3339 with 0-9
 * fractional digits, with or without a colon in the offset, and the zone-less forms strfmt
 * accepts; Go's zero time (`0001-01-01T00:00:00Z`) and null mean "not set", `""` is the epoch.
 */

/** Milliseconds since the epoch; ZERO_TIME for Go's zero time ("not set"). */
export const ZERO_TIME = Number.NEGATIVE_INFINITY;

export function formatTime(ms: number): string {
  return new Date(ms).toISOString();
}

export function isZero(ms: number): boolean {
  return ms === ZERO_TIME;
}

const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(Z|z|[+-]\d{2}:?\d{2})?$/;

export type ParsedTime = { ok: true; ms: number } | { ok: false; error: string };

/** The last text parsed and its result: the alerts of one POST usually share their times. */
let lastText = '';
let lastParsed: ParsedTime = { ok: true, ms: 0 };

/** strfmt.ParseDateTime; the error names the last layout tried, as Go's does. */
export function parseTime(text: string): ParsedTime {
  if (text !== lastText) {
    lastParsed = parseUncached(text);
    lastText = text;
  }
  return lastParsed;
}

function parseUncached(text: string): ParsedTime {
  if (text === '') return { ok: true, ms: 0 };
  const m = RFC3339.exec(text);
  const fail: ParsedTime = { ok: false, error: `parsing time ${JSON.stringify(text)} as "2006-01-02 15:04:05": cannot parse ${JSON.stringify(text)} as "2006"` };
  if (m === null) return fail;
  const [, y, mo, d, h, mi, s, frac, zone] = m as unknown as string[];
  const year = Number(y);
  const month = Number(mo);
  const day = Number(d);
  const hour = Number(h);
  const minute = Number(mi);
  const second = s === undefined ? 0 : Number(s);
  if (month < 1 || month > 12 || day < 1 || day > 31 || hour > 23 || minute > 59 || second > 59) return fail;
  const millis = frac === undefined ? 0 : Number((frac + '00').slice(0, 3));
  let ms = Date.UTC(year, month - 1, day, hour, minute, second, millis);
  // Date.UTC maps years 0-99 to 1900-1999.
  if (year < 100) ms = new Date(ms).setUTCFullYear(year);
  if (new Date(ms).getUTCDate() !== day) return fail;
  if (zone !== undefined && zone.toUpperCase() !== 'Z') {
    const sign = zone.startsWith('-') ? -1 : 1;
    const digits = zone.slice(1).replace(':', '');
    ms -= sign * (Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2, 4))) * 60_000;
  }
  // Go's zero time, however it is written, means "not set" (amtool sends it for both times).
  if (ms === GO_ZERO_MS) return { ok: true, ms: ZERO_TIME };
  return { ok: true, ms };
}

/** 0001-01-01T00:00:00Z in JavaScript milliseconds. */
const GO_ZERO_MS = Date.parse('0001-01-01T00:00:00Z');
