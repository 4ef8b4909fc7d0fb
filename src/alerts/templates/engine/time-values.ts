/**
 * Go's time.Time, time.Duration, time.Month and time.Weekday as template values: their
 * printing (`2026-11-21 22:39:24.161 +0000 UTC`, `1h2m3.5s`), `Format` with Go layouts, and the
 * methods templates call.
 */
import { ExecError, GoFloat, GoOpaque, type GoMethod, type GoType, type GoValue } from './values.js';
import { localLocation, UTC, type GoLocation, type Zone } from './zoneinfo.js';

/** Go's zero time, 0001-01-01 00:00:00 UTC, in epoch milliseconds (Date.UTC maps year 1 to 1901). */
const ZERO_MS = (() => {
  const d = new Date(0);
  d.setUTCFullYear(1, 0, 1);
  d.setUTCHours(0, 0, 0, 0);
  return d.getTime();
})();

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
const DAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

/** time.Month or time.Weekday: an int that prints as its English name. */
export class GoEnum extends GoOpaque {
  constructor(
    readonly type: GoType,
    readonly n: number,
  ) {
    super();
  }
  truth(): boolean {
    return this.n !== 0;
  }
}

const MONTH_TYPE: GoType = { name: 'time.Month', kind: 'opaque', methods: {}, stringer: (v) => MONTHS[(v as GoEnum).n - 1] ?? `%!Month(${(v as GoEnum).n})` };
const WEEKDAY_TYPE: GoType = { name: 'time.Weekday', kind: 'opaque', methods: {}, stringer: (v) => DAYS[(v as GoEnum).n] ?? `%!Weekday(${(v as GoEnum).n})` };

export class GoDuration extends GoOpaque {
  readonly type = DURATION_TYPE;
  constructor(readonly ns: bigint) {
    super();
  }
  truth(): boolean {
    return this.ns !== 0n;
  }
}

export class GoTime extends GoOpaque {
  readonly type = TIME_TYPE;
  /** `ms` is epoch milliseconds; -Infinity (how alerts carry it) is Go's zero time. */
  constructor(
    ms: number,
    readonly location: GoLocation = UTC,
  ) {
    super();
    this.ms = ms === -Infinity ? ZERO_MS : ms;
  }
  readonly ms: number;
  truth(): boolean {
    return true;
  }
  get zone(): Zone {
    return this.location.zoneAt(Math.floor(this.ms / 1000));
  }
  /** The wall clock in the time's zone, as a UTC Date (read with getUTC*). */
  wall(): Date {
    return new Date(this.ms + this.zone.offset * 1000);
  }
  isZero(): boolean {
    return this.ms === ZERO_MS;
  }
}

const pad = (n: number, width: number): string => {
  const text = String(Math.abs(n)).padStart(width, '0');
  return n < 0 ? '-' + text : text;
};

type Chunk = { literal: string } | { std: string; digits?: number };

const STD_PREFIXES: ReadonlyArray<[string, string]> = [
  ['January', 'January'],
  ['Jan', 'Jan'],
  ['Monday', 'Monday'],
  ['Mon', 'Mon'],
  ['MST', 'MST'],
  ['01', '01'],
  ['02', '02'],
  ['03', '03'],
  ['04', '04'],
  ['05', '05'],
  ['06', '06'],
  ['002', '002'],
  ['15', '15'],
  ['1', '1'],
  ['2006', '2006'],
  ['2', '2'],
  ['__2', '__2'],
  ['_2', '_2'],
  ['3', '3'],
  ['4', '4'],
  ['5', '5'],
  ['PM', 'PM'],
  ['pm', 'pm'],
  ['-070000', '-070000'],
  ['-07:00:00', '-07:00:00'],
  ['-0700', '-0700'],
  ['-07:00', '-07:00'],
  ['-07', '-07'],
  ['Z070000', 'Z070000'],
  ['Z07:00:00', 'Z07:00:00'],
  ['Z0700', 'Z0700'],
  ['Z07:00', 'Z07:00'],
  ['Z07', 'Z07'],
];

/** Go's nextStdChunk over a whole layout. */
function chunksOf(layout: string): Chunk[] {
  const chunks: Chunk[] = [];
  let literal = '';
  let i = 0;
  outer: while (i < layout.length) {
    const c = layout[i] as string;
    if ((c === '.' || c === ',') && (layout[i + 1] === '0' || layout[i + 1] === '9')) {
      const digit = layout[i + 1] as string;
      let j = i + 1;
      while (layout[j] === digit) j++;
      if (!/[0-9]/.test(layout[j] ?? '')) {
        if (literal !== '') chunks.push({ literal });
        literal = '';
        chunks.push({ std: c + digit, digits: j - i - 1 });
        i = j;
        continue;
      }
    }
    if (c === '_' && layout.startsWith('_2006', i)) {
      literal += '_';
      i++;
      continue;
    }
    for (const [prefix, std] of STD_PREFIXES) {
      if (!layout.startsWith(prefix, i)) continue;
      // Go takes "0" followed by 1-6 only as a two-digit element, and "2006" before "2".
      if (literal !== '') chunks.push({ literal });
      literal = '';
      chunks.push({ std });
      i += prefix.length;
      continue outer;
    }
    literal += c;
    i++;
  }
  if (literal !== '') chunks.push({ literal });
  return chunks;
}

const layoutCache = new Map<string, Chunk[]>();

/** Go's Time.Format. */
export function formatTime(time: GoTime, layout: string): string {
  let chunks = layoutCache.get(layout);
  if (chunks === undefined) {
    chunks = chunksOf(layout);
    if (layoutCache.size < 256) layoutCache.set(layout, chunks);
  }
  const wall = time.wall();
  const zone = time.zone;
  const year = wall.getUTCFullYear();
  const hour = wall.getUTCHours();
  const ms = ((time.ms % 1000) + 1000) % 1000;
  let out = '';
  for (const chunk of chunks) {
    if ('literal' in chunk) {
      out += chunk.literal;
      continue;
    }
    switch (chunk.std) {
      case 'January':
        out += MONTHS[wall.getUTCMonth()];
        break;
      case 'Jan':
        out += MONTHS[wall.getUTCMonth()]?.slice(0, 3);
        break;
      case 'Monday':
        out += DAYS[wall.getUTCDay()];
        break;
      case 'Mon':
        out += DAYS[wall.getUTCDay()]?.slice(0, 3);
        break;
      case 'MST':
        out += zone.abbreviation !== '' ? zone.abbreviation : numericZone(zone.offset, '', false);
        break;
      case '01':
        out += pad(wall.getUTCMonth() + 1, 2);
        break;
      case '1':
        out += String(wall.getUTCMonth() + 1);
        break;
      case '02':
        out += pad(wall.getUTCDate(), 2);
        break;
      case '2':
        out += String(wall.getUTCDate());
        break;
      case '_2':
        out += String(wall.getUTCDate()).padStart(2, ' ');
        break;
      case '002':
        out += pad(yearDay(wall), 3);
        break;
      case '__2':
        out += String(yearDay(wall)).padStart(3, ' ');
        break;
      case '2006':
        out += pad(year, 4);
        break;
      case '06':
        out += pad(year % 100, 2);
        break;
      case '15':
        out += pad(hour, 2);
        break;
      case '3':
        out += String(hour % 12 === 0 ? 12 : hour % 12);
        break;
      case '03':
        out += pad(hour % 12 === 0 ? 12 : hour % 12, 2);
        break;
      case '4':
        out += String(wall.getUTCMinutes());
        break;
      case '04':
        out += pad(wall.getUTCMinutes(), 2);
        break;
      case '5':
        out += String(wall.getUTCSeconds());
        break;
      case '05':
        out += pad(wall.getUTCSeconds(), 2);
        break;
      case 'PM':
        out += hour >= 12 ? 'PM' : 'AM';
        break;
      case 'pm':
        out += hour >= 12 ? 'pm' : 'am';
        break;
      default:
        out += chunk.std.startsWith('Z') || chunk.std.startsWith('-') ? isoZone(chunk.std, zone.offset) : fraction(chunk.std, chunk.digits ?? 0, ms);
    }
  }
  return out;
}

function yearDay(wall: Date): number {
  const startOfYear = new Date(0);
  startOfYear.setUTCFullYear(wall.getUTCFullYear(), 0, 1);
  return Math.floor((wall.getTime() - startOfYear.getTime()) / 86_400_000) + 1;
}

function fraction(std: string, digits: number, ms: number): string {
  const all = String(ms).padStart(3, '0') + '000000';
  const separator = std[0] as string;
  if (std[1] === '0') return separator + all.slice(0, digits);
  const trimmed = all.slice(0, digits).replace(/0+$/, '');
  return trimmed === '' ? '' : separator + trimmed;
}

function numericZone(offset: number, separator: string, withSeconds: boolean): string {
  const sign = offset < 0 ? '-' : '+';
  const abs = Math.abs(offset);
  const text = pad(Math.floor(abs / 3600), 2) + separator + pad(Math.floor(abs / 60) % 60, 2);
  return sign + text + (withSeconds ? separator + pad(abs % 60, 2) : '');
}

function isoZone(std: string, offset: number): string {
  if (std.startsWith('Z') && offset === 0) return 'Z';
  const shape = std.slice(1);
  const separator = shape.includes(':') ? ':' : '';
  if (shape === '07') {
    const sign = offset < 0 ? '-' : '+';
    return sign + pad(Math.floor(Math.abs(offset) / 3600), 2);
  }
  return numericZone(offset, separator, shape.length > 5);
}

/** Go's Time.String() (without the monotonic clock reading, which alert times never carry). */
export function timeString(time: GoTime): string {
  return formatTime(time, '2006-01-02 15:04:05.999999999 -0700 MST');
}

/** Go's Duration.String(). */
export function durationString(ns: bigint): string {
  if (ns === 0n) return '0s';
  const negative = ns < 0n;
  let u = negative ? -ns : ns;
  let out: string;
  if (u < 1_000_000_000n) {
    const [unit, precision] = u < 1000n ? ['ns', 0] : u < 1_000_000n ? ['µs', 3] : ['ms', 6];
    const [digits, whole] = fractionDigits(u, precision);
    out = `${whole}${digits}${unit}`;
  } else {
    const [digits, wholeSeconds] = fractionDigits(u, 9);
    u = wholeSeconds;
    out = `${u % 60n}${digits}s`;
    u /= 60n;
    if (u > 0n) {
      out = `${u % 60n}m` + out;
      u /= 60n;
      if (u > 0n) out = `${u}h` + out;
    }
  }
  return negative ? '-' + out : out;
}

/** Go's fmtFrac: `.` and the fraction of `v / 10^precision` without trailing zeros, and the rest. */
function fractionDigits(v: bigint, precision: number): [string, bigint] {
  const scale = 10n ** BigInt(precision);
  const fractionPart = v % scale;
  const text = precision === 0 ? '' : fractionPart.toString().padStart(precision, '0').replace(/0+$/, '');
  return [text === '' ? '' : '.' + text, v / scale];
}

const arg = (args: readonly GoValue[], i: number) => args[i];

function asTime(value: GoValue): GoTime {
  if (!(value instanceof GoTime)) throw new ExecError(`wrong type for value; expected time.Time; got ${value === null ? '<nil>' : typeof value}`);
  return value;
}

const timeMethods: Record<string, GoMethod> = {
  Format: { params: ['string'], call: (t, args) => formatTime(t as GoTime, arg(args, 0) as string) },
  String: { params: [], call: (t) => timeString(t as GoTime) },
  Unix: { params: [], call: (t) => Math.floor((t as GoTime).ms / 1000) },
  UnixMilli: { params: [], call: (t) => (t as GoTime).ms },
  UnixNano: { params: [], call: (t) => (t as GoTime).ms * 1_000_000 },
  UTC: { params: [], call: (t) => new GoTime((t as GoTime).ms, UTC) },
  Local: { params: [], call: (t) => new GoTime((t as GoTime).ms, localLocation()) },
  IsZero: { params: [], call: (t) => (t as GoTime).isZero() },
  Year: { params: [], call: (t) => (t as GoTime).wall().getUTCFullYear() },
  Month: { params: [], call: (t) => new GoEnum(MONTH_TYPE, (t as GoTime).wall().getUTCMonth() + 1) },
  Day: { params: [], call: (t) => (t as GoTime).wall().getUTCDate() },
  Weekday: { params: [], call: (t) => new GoEnum(WEEKDAY_TYPE, (t as GoTime).wall().getUTCDay()) },
  YearDay: { params: [], call: (t) => yearDay((t as GoTime).wall()) },
  Hour: { params: [], call: (t) => (t as GoTime).wall().getUTCHours() },
  Minute: { params: [], call: (t) => (t as GoTime).wall().getUTCMinutes() },
  Second: { params: [], call: (t) => (t as GoTime).wall().getUTCSeconds() },
  Nanosecond: { params: [], call: (t) => (((t as GoTime).ms % 1000) + 1000) % 1000 * 1_000_000 },
  Before: { params: ['time.Time'], call: (t, args) => (t as GoTime).ms < asTime(arg(args, 0)).ms },
  After: { params: ['time.Time'], call: (t, args) => (t as GoTime).ms > asTime(arg(args, 0)).ms },
  Equal: { params: ['time.Time'], call: (t, args) => (t as GoTime).ms === asTime(arg(args, 0)).ms },
  Sub: { params: ['time.Time'], call: (t, args) => new GoDuration(BigInt((t as GoTime).ms - asTime(arg(args, 0)).ms) * 1_000_000n) },
  Add: { params: ['time.Duration'], call: (t, args) => new GoTime((t as GoTime).ms + Number((arg(args, 0) as GoDuration).ns / 1_000_000n), (t as GoTime).location) },
};

export const TIME_TYPE: GoType = { name: 'time.Time', kind: 'opaque', methods: timeMethods, stringer: (v) => timeString(v as GoTime) };

const durationMethods: Record<string, GoMethod> = {
  String: { params: [], call: (d) => durationString((d as GoDuration).ns) },
  Seconds: { params: [], call: (d) => new GoFloat(Number((d as GoDuration).ns) / 1e9) },
  Minutes: { params: [], call: (d) => new GoFloat(Number((d as GoDuration).ns) / 6e10) },
  Hours: { params: [], call: (d) => new GoFloat(Number((d as GoDuration).ns) / 3.6e12) },
  Milliseconds: { params: [], call: (d) => Number((d as GoDuration).ns / 1_000_000n) },
};

export const DURATION_TYPE: GoType = { name: 'time.Duration', kind: 'opaque', methods: durationMethods, stringer: (v) => durationString((v as GoDuration).ns) };
