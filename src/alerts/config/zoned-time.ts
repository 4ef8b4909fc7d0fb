/**
 * Calendar fields of an instant in a time zone, through Intl (the IANA database Node ships),
 * for time interval checks. `undefined` as the zone means the process's local zone (Go's
 * `Local`).
 */
export interface ZonedFields {
  year: number;
  /** 1-12. */
  month: number;
  day: number;
  /** 0 = Sunday. */
  weekday: number;
  hour: number;
  minute: number;
}

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(zone: string | undefined): Intl.DateTimeFormat {
  const key = zone ?? '';
  let f = formatters.get(key);
  if (f === undefined) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
      weekday: 'short',
      era: 'short',
    });
    formatters.set(key, f);
  }
  return f;
}

const WEEKDAYS: Readonly<Record<string, number>> = { Sun: 0, Mon: 1, Tue: 2, Wed: 3, Thu: 4, Fri: 5, Sat: 6 };

export function zonedFields(epochMs: number, zone: string | undefined): ZonedFields {
  const parts: Record<string, string> = {};
  for (const part of formatter(zone).formatToParts(epochMs)) parts[part.type] = part.value;
  let year = Number(parts.year);
  if (parts.era === 'BC' || parts.era === 'B') year = 1 - year;
  return {
    year,
    month: Number(parts.month),
    day: Number(parts.day),
    weekday: WEEKDAYS[parts.weekday ?? ''] ?? 0,
    hour: Number(parts.hour),
    minute: Number(parts.minute),
  };
}

/** The zone's offset from UTC at an instant, in milliseconds. */
function offsetAt(epochMs: number, zone: string | undefined): number {
  const f = zonedFields(epochMs, zone);
  const seconds = Math.floor(epochMs / 1000) % 60;
  const asUtc = utcTime(f.year, f.month, f.day, f.hour, f.minute, seconds < 0 ? seconds + 60 : seconds);
  return asUtc - (Math.floor(epochMs / 1000) * 1000);
}

/** Date.UTC without its mapping of years 0-99 to 1900-1999. */
function utcTime(year: number, month: number, day: number, hour = 0, minute = 0, second = 0): number {
  const date = new Date(Date.UTC(2000, month - 1, day, hour, minute, second));
  date.setUTCFullYear(year);
  return date.getTime();
}

/** The instant of a local wall-clock time in the zone (Go's time.Date normalisation for gaps). */
export function zonedInstant(year: number, month: number, day: number, zone: string | undefined): number {
  const guess = utcTime(year, month, day);
  const first = guess - offsetAt(guess, zone);
  return guess - offsetAt(first, zone);
}

/**
 * Whether `name` is a time zone Go's time.LoadLocation would load. Intl accepts zone names in
 * any letter case, Go's zoneinfo files do not, so a name only differing in case is refused.
 */
export function isKnownZone(name: string): boolean {
  try {
    const resolved = new Intl.DateTimeFormat('en-US', { timeZone: name }).resolvedOptions().timeZone;
    return resolved === name || resolved.toLowerCase() !== name.toLowerCase();
  } catch {
    return false;
  }
}
