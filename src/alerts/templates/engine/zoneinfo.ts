/**
 * Time zones as Go's time.LoadLocation finds them: the system's TZif files under
 * /usr/share/zoneinfo, so that zone abbreviations (`CET`, `CEST`, `+03`) are the ones Go
 * prints. Instants after the file's last transition follow its POSIX TZ footer
 * (`CET-1CEST,M3.5.0,M10.5.0/3`), as Go does.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export interface Zone {
  abbreviation: string;
  /** Seconds east of UTC. */
  offset: number;
}

export interface GoLocation {
  /** As Go's Location.String(): `UTC`, `Local`, `Europe/Paris`. */
  name: string;
  zoneAt(epochSeconds: number): Zone;
}

export const UTC: GoLocation = { name: 'UTC', zoneAt: () => ({ abbreviation: 'UTC', offset: 0 }) };

const ZONEINFO_DIR = '/usr/share/zoneinfo';
const cache = new Map<string, GoLocation | string>();

/** Go's time.LoadLocation: a location, or Go's error text. */
export function loadLocation(name: string): GoLocation | string {
  if (name === '' || name === 'UTC') return UTC;
  if (name === 'Local') return localLocation();
  const cached = cache.get(name);
  if (cached !== undefined) return cached;
  const loaded = readLocation(name, name);
  cache.set(name, loaded);
  return loaded;
}

let local: GoLocation | undefined;

/** Go's time.Local: $TZ when set (empty means UTC), else /etc/localtime. */
export function localLocation(): GoLocation {
  if (local !== undefined) return local;
  const tz = process.env['TZ'];
  let found: GoLocation | string;
  if (tz === undefined) found = readZoneFile('/etc/localtime', 'Local');
  else if (tz === '' || tz === 'UTC') found = UTC;
  else found = readLocation(tz.replace(/^:/, ''), 'Local');
  local = typeof found === 'string' ? { name: 'Local', zoneAt: UTC.zoneAt } : { name: 'Local', zoneAt: found.zoneAt };
  return local;
}

function readLocation(name: string, shownAs: string): GoLocation | string {
  // Go refuses names that could leave the zoneinfo directory.
  if (name.startsWith('/') || name.includes('..') || name.includes('\\')) return `time: invalid location name`;
  const found = readZoneFile(join(ZONEINFO_DIR, name), shownAs);
  return typeof found === 'string' ? `unknown time zone ${name}` : found;
}

function readZoneFile(path: string, name: string): GoLocation | string {
  let bytes: Buffer;
  try {
    bytes = readFileSync(path);
  } catch (error) {
    return (error as Error).message;
  }
  const parsed = parseTzif(bytes);
  if (parsed === undefined) return 'malformed time zone information';
  return { name, zoneAt: (seconds) => parsed.zoneAt(seconds) };
}

interface Tzif {
  zoneAt(seconds: number): Zone;
}

/** Parses a TZif file (version 2 or later data when present). */
function parseTzif(bytes: Buffer): Tzif | undefined {
  if (bytes.toString('latin1', 0, 4) !== 'TZif') return undefined;
  const version = bytes[4] ?? 0;
  let offset = 0;
  let header = readHeader(bytes, offset);
  let timeSize = 4;
  if (version >= 0x32) {
    offset += 44 + header.timecnt * 5 + header.typecnt * 6 + header.charcnt + header.leapcnt * 8 + header.isstdcnt + header.isutcnt;
    header = readHeader(bytes, offset);
    timeSize = 8;
  }
  let p = offset + 44;
  const transitions: number[] = [];
  for (let i = 0; i < header.timecnt; i++, p += timeSize) transitions.push(timeSize === 8 ? Number(bytes.readBigInt64BE(p)) : bytes.readInt32BE(p));
  const indexes: number[] = [];
  for (let i = 0; i < header.timecnt; i++, p++) indexes.push(bytes[p] ?? 0);
  const types: { offset: number; isDst: boolean; abbrIndex: number }[] = [];
  for (let i = 0; i < header.typecnt; i++, p += 6) types.push({ offset: bytes.readInt32BE(p), isDst: bytes[p + 4] === 1, abbrIndex: bytes[p + 5] ?? 0 });
  const chars = bytes.toString('latin1', p, p + header.charcnt);
  p += header.charcnt + header.leapcnt * (timeSize + 4) + header.isstdcnt + header.isutcnt;
  const footer = version >= 0x32 ? bytes.toString('latin1', p).split('\n')[1] ?? '' : '';
  const zones: Zone[] = types.map((type) => ({ offset: type.offset, abbreviation: chars.slice(type.abbrIndex, chars.indexOf('\0', type.abbrIndex)) }));
  const rule = parsePosixTz(footer);
  // Before the first transition: the first standard-time type, as Go's lookupFirstZone.
  const firstIndex = Math.max(0, types.findIndex((type) => !type.isDst));
  const first = zones[firstIndex] ?? { abbreviation: 'UTC', offset: 0 };
  return {
    zoneAt(seconds) {
      if (transitions.length === 0 || seconds < (transitions[0] as number)) return transitions.length === 0 && rule !== undefined ? rule(seconds) : first;
      const last = transitions[transitions.length - 1] as number;
      if (seconds >= last && rule !== undefined) return rule(seconds);
      let lo = 0;
      let hi = transitions.length - 1;
      while (lo < hi) {
        const mid = (lo + hi + 1) >> 1;
        if ((transitions[mid] as number) <= seconds) lo = mid;
        else hi = mid - 1;
      }
      return zones[indexes[lo] as number] ?? first;
    },
  };
}

function readHeader(bytes: Buffer, at: number) {
  const count = (i: number) => bytes.readUInt32BE(at + 20 + i * 4);
  return { isutcnt: count(0), isstdcnt: count(1), leapcnt: count(2), timecnt: count(3), typecnt: count(4), charcnt: count(5) };
}

/** A POSIX TZ rule (`STDoffset[DST[offset][,Mm.w.d[/time],Mm.w.d[/time]]]`) as a zone lookup. */
function parsePosixTz(text: string): ((seconds: number) => Zone) | undefined {
  const match = /^(<[^>]+>|[A-Za-z]+)([+-]?[\d:]+)(?:(<[^>]+>|[A-Za-z]+)([+-]?[\d:]+)?,M(\d+)\.(\d)\.(\d)(?:\/([+-]?[\d:]+))?,M(\d+)\.(\d)\.(\d)(?:\/([+-]?[\d:]+))?)?$/.exec(text);
  if (match === null) return undefined;
  const name = (s: string) => s.replace(/^<|>$/g, '');
  const std: Zone = { abbreviation: name(match[1] as string), offset: -clock(match[2] as string) };
  if (match[3] === undefined) return () => std;
  const dst: Zone = { abbreviation: name(match[3]), offset: match[4] === undefined ? std.offset + 3600 : -clock(match[4]) };
  const start = { month: Number(match[5]), week: Number(match[6]), day: Number(match[7]), time: match[8] === undefined ? 7200 : clock(match[8]) };
  const end = { month: Number(match[9]), week: Number(match[10]), day: Number(match[11]), time: match[12] === undefined ? 7200 : clock(match[12]) };
  return (seconds) => {
    const year = new Date(seconds * 1000).getUTCFullYear();
    // Transition instants in UTC: the start is in standard time, the end in daylight time.
    const startAt = ruleDay(year, start) + start.time - std.offset;
    const endAt = ruleDay(year, end) + end.time - dst.offset;
    const inDst = startAt < endAt ? seconds >= startAt && seconds < endAt : !(seconds >= endAt && seconds < startAt);
    return inDst ? dst : std;
  };
}

function clock(text: string): number {
  const sign = text.startsWith('-') ? -1 : 1;
  const [h = 0, m = 0, s = 0] = text.replace(/^[+-]/, '').split(':').map(Number);
  return sign * (h * 3600 + m * 60 + s);
}

/** Midnight UTC (as epoch seconds) of day `day` of week `week` (5 = last) of `month`. */
function ruleDay(year: number, rule: { month: number; week: number; day: number }): number {
  const firstOfMonth = Date.UTC(year, rule.month - 1, 1) / 1000;
  const firstWeekday = new Date(firstOfMonth * 1000).getUTCDay();
  let day = 1 + ((rule.day - firstWeekday + 7) % 7) + (rule.week - 1) * 7;
  const daysInMonth = new Date(Date.UTC(year, rule.month, 0)).getUTCDate();
  while (day > daysInMonth) day -= 7;
  return firstOfMonth + (day - 1) * 86400;
}
