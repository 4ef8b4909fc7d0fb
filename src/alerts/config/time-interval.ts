import type { YamlNode } from '../../yaml/index.js';
import type { Decoder } from './decode-context.js';
import type { TimeInterval } from './model.js';
import { map, seq, str, type YamlOut } from './yaml-emit.js';
import { isKnownZone, zonedFields, zonedInstant } from './zoned-time.js';

/**
 * Time intervals (`time_intervals`, and the deprecated `mute_time_intervals`), with
 * Alertmanager's timeinterval package's checks, evaluation and printing. A spec's fields must
 * all match (an absent field matches anything, an empty list nothing); within a field any
 * range may match; a named interval is active when any of its specs is.
 */
interface Range {
  begin: number;
  end: number;
}

export interface IntervalSpec {
  /** Minutes of the day, [start, end). */
  times: Range[] | undefined;
  weekdays: Range[] | undefined;
  daysOfMonth: Range[] | undefined;
  months: Range[] | undefined;
  years: Range[] | undefined;
  /** The name as written: '' or `UTC` is UTC, `Local` the process's zone. */
  location: string | undefined;
}

export interface NamedInterval {
  name: string;
  specs: IntervalSpec[];
}

const WEEKDAYS = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'];
const MONTHS = ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december'];

/** Go's strconv.Atoi, with its error text. */
function atoi(text: string): number | string {
  if (/^[+-]?[0-9]+$/.test(text)) {
    const n = Number(text);
    if (Number.isSafeInteger(n)) return n;
    return `strconv.Atoi: parsing ${JSON.stringify(text)}: value out of range`;
  }
  return `strconv.Atoi: parsing ${JSON.stringify(text)}: invalid syntax`;
}

/** A `begin:end` or single-member range; `member` maps one side to a number or an error text. */
function parseRange(d: Decoder, text: string, member: (s: string) => number | string): Range {
  const lower = text.toLowerCase();
  const parts = lower.includes(':') ? lower.split(':') : [lower, lower];
  if (parts.length !== 2) d.fail(`couldn't parse range ${lower}, invalid format`);
  const begin = member(parts[0] ?? '');
  if (typeof begin === 'string') d.fail(begin);
  const end = member(parts[1] ?? '');
  if (typeof end === 'string') d.fail(end);
  return { begin, end };
}

function weekdayRange(d: Decoder, text: string): Range {
  const r = parseRange(d, text, (s) => {
    const i = WEEKDAYS.indexOf(s);
    return i >= 0 ? i : `${s} is not a valid weekday`;
  });
  if (r.begin > r.end) d.fail('start day cannot be before end day');
  return r;
}

function dayOfMonthRange(d: Decoder, text: string): Range {
  const r = parseRange(d, text, atoi);
  if (r.begin === 0 || r.begin < -31 || r.begin > 31) d.fail(`${r.begin} is not a valid day of the month: out of range`);
  if (r.end === 0 || r.end < -31 || r.end > 31) d.fail(`${r.end} is not a valid day of the month: out of range`);
  if (r.begin < 0 && r.end > 0) d.fail('end day must be negative if start day is negative');
  // Negative days count from the month's end; compared as in a 28-day month, always too early.
  const checkBegin = r.begin < 0 ? 28 + r.begin : r.begin;
  const checkEnd = r.end < 0 ? 28 + r.end : r.end;
  if (checkBegin > checkEnd) d.fail(`end day ${r.end} is always before start day ${r.begin}`);
  return r;
}

function monthRange(d: Decoder, text: string): Range {
  const r = parseRange(d, text, (s) => {
    const i = MONTHS.indexOf(s);
    if (i >= 0) return i + 1;
    const n = atoi(s);
    return typeof n === 'number' ? n : `${s} is not a valid month`;
  });
  if (r.begin > r.end) d.fail(`end month ${MONTHS[r.end - 1] ?? ''} is before start month ${MONTHS[r.begin - 1] ?? ''}`);
  return r;
}

function yearRange(d: Decoder, text: string): Range {
  const r = parseRange(d, text, atoi);
  if (r.begin > r.end) d.fail(`end year ${r.end} is before start year ${r.begin}`);
  return r;
}

/** `HH:MM` to minutes of the day; 24:00 allowed as an end. */
function parseClock(d: Decoder, text: string): number {
  if (!/^(([01][0-9]|2[0-3]):[0-5][0-9]|24:00)$/.test(text)) d.fail(`couldn't parse timestamp ${text}, invalid format`);
  const [hours = '0', minutes = '0'] = text.split(':');
  return Number(hours) * 60 + Number(minutes);
}

function timeRange(d: Decoder, node: YamlNode): Range | undefined {
  let start = '';
  let end = '';
  const mark = d.mark();
  d.struct(node, 'timeinterval.yamlTimeRange', {
    start_time: (v) => (start = d.string(v) ?? ''),
    end_time: (v) => (end = d.string(v) ?? ''),
  });
  if (!d.clean(mark)) return undefined;
  if (start === '' || end === '') d.fail('both start and end times must be provided');
  const r = { begin: parseClock(d, start), end: parseClock(d, end) };
  if (r.begin >= r.end) d.fail('start time cannot be equal or greater than end time');
  return r;
}

function rangeList(d: Decoder, node: YamlNode, goType: string, parse: (d: Decoder, text: string) => Range): Range[] | undefined {
  const ranges = d.list(node, goType, (item) => {
    const text = d.string(item);
    return text === undefined ? undefined : parse(d, text);
  });
  return ranges?.filter((r): r is Range => r !== undefined);
}

function decodeSpec(d: Decoder, node: YamlNode): IntervalSpec {
  const spec: IntervalSpec = { times: undefined, weekdays: undefined, daysOfMonth: undefined, months: undefined, years: undefined, location: undefined };
  d.struct(node, 'timeinterval.TimeInterval', {
    times: (v) => (spec.times = d.list(v, '[]timeinterval.TimeRange', (item) => timeRange(d, item))?.filter((r): r is Range => r !== undefined)),
    weekdays: (v) => (spec.weekdays = rangeList(d, v, '[]timeinterval.WeekdayRange', weekdayRange)),
    days_of_month: (v) => (spec.daysOfMonth = rangeList(d, v, '[]timeinterval.DayOfMonthRange', dayOfMonthRange)),
    months: (v) => (spec.months = rangeList(d, v, '[]timeinterval.MonthRange', monthRange)),
    years: (v) => (spec.years = rangeList(d, v, '[]timeinterval.YearRange', yearRange)),
    location: (v) => {
      const name = d.string(v);
      if (name === undefined) return;
      if (name !== '' && name !== 'UTC' && name !== 'Local' && !isKnownZone(name)) d.fail(`unknown time zone ${name}`);
      spec.location = name;
    },
  });
  return spec;
}

/** One entry of `time_intervals` (or `mute_time_intervals`: `deprecated` words its error). */
export function decodeNamedInterval(d: Decoder, node: YamlNode, deprecated: boolean): NamedInterval {
  const named: NamedInterval = { name: '', specs: [] };
  return d.withChecks(
    () => {
      d.struct(node, 'config.plain', {
        name: (v) => (named.name = d.string(v) ?? ''),
        time_intervals: (v) => (named.specs = d.list(v, '[]timeinterval.TimeInterval', (item) => decodeSpec(d, item)) ?? []),
      });
      return named;
    },
    (n) => {
      if (n.name === '') d.fail(deprecated ? 'missing name in mute time interval' : 'missing name in time interval');
    },
  );
}

function inRanges(value: number, ranges: readonly Range[]): boolean {
  return ranges.some((r) => value >= r.begin && value <= r.end);
}

/**
 * The days of the month as Alertmanager counts them: the hours from the 1st to the next 1st in
 * the zone, divided by 24 and truncated, so a month that loses an hour to daylight saving time
 * counts one day short (what makes `-1` mean the 30th of March in Europe).
 */
function daysInMonth(year: number, month: number, zone: string | undefined): number {
  const start = zonedInstant(year, month, 1, zone);
  const next = month === 12 ? zonedInstant(year + 1, 1, 1, zone) : zonedInstant(year, month + 1, 1, zone);
  return Math.trunc((next - start) / 3_600_000 / 24);
}

function zoneOf(spec: IntervalSpec): string | undefined {
  if (spec.location === undefined || spec.location === '' || spec.location === 'UTC') return 'UTC';
  return spec.location === 'Local' ? undefined : spec.location;
}

export function specContains(spec: IntervalSpec, at: Date): boolean {
  const zone = zoneOf(spec);
  const t = zonedFields(at.getTime(), zone);
  if (spec.times !== undefined) {
    const minute = t.hour * 60 + t.minute;
    if (!spec.times.some((r) => minute >= r.begin && minute < r.end)) return false;
  }
  if (spec.daysOfMonth !== undefined) {
    const days = daysInMonth(t.year, t.month, zone);
    const ok = spec.daysOfMonth.some((r) => {
      let begin = r.begin < 0 ? days + r.begin + 1 : r.begin;
      let end = r.end < 0 ? days + r.end + 1 : r.end;
      if (begin > days) return false;
      begin = Math.min(Math.max(begin, -days), days);
      end = Math.min(Math.max(end, -days), days);
      return t.day >= begin && t.day <= end;
    });
    if (!ok) return false;
  }
  if (spec.months !== undefined && !inRanges(t.month, spec.months)) return false;
  if (spec.weekdays !== undefined && !inRanges(t.weekday, spec.weekdays)) return false;
  if (spec.years !== undefined && !inRanges(t.year, spec.years)) return false;
  return true;
}

export function timeIntervalOf(named: NamedInterval): TimeInterval {
  const specs = named.specs;
  return { name: named.name, contains: (at) => specs.some((spec) => specContains(spec, at)) };
}

function clock(minutes: number): string {
  return `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;
}

function rangeText(r: Range, names?: readonly string[]): string {
  const side = (n: number): string => (names === undefined ? String(n) : (names[n] ?? String(n)));
  return r.begin === r.end ? side(r.begin) : `${side(r.begin)}:${side(r.end)}`;
}

function specOut(spec: IntervalSpec): YamlOut {
  const entries: Array<[string, YamlOut]> = [];
  if (spec.times !== undefined && spec.times.length > 0) {
    entries.push(['times', seq(spec.times.map((r) => map([['start_time', str(clock(r.begin))], ['end_time', str(clock(r.end))]])))]);
  }
  const flow = (key: string, ranges: Range[] | undefined, names?: readonly string[]): void => {
    if (ranges !== undefined && ranges.length > 0) entries.push([key, seq(ranges.map((r) => str(rangeText(r, names))), true)]);
  };
  flow('weekdays', spec.weekdays, WEEKDAYS);
  flow('days_of_month', spec.daysOfMonth);
  // Months print as numbers: Alertmanager's month ranges have no names of their own to print.
  flow('months', spec.months);
  flow('years', spec.years);
  if (spec.location !== undefined) entries.push(['location', str(spec.location === '' ? 'UTC' : spec.location)]);
  return map(entries);
}

export function namedIntervalOut(named: NamedInterval): YamlOut {
  return map([
    ['name', str(named.name)],
    ['time_intervals', seq(named.specs.map(specOut))],
  ]);
}

