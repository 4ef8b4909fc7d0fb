/**
 * Go `time.ParseDuration` syntax, which every upstream duration setting uses:
 * a sequence of decimal numbers with units ns, us (or µs), ms, s, m, h, e.g. `10s`, `1m30s`, `1.5h`, `300ms`.
 * A bare `0` is allowed. Returns milliseconds, or undefined when the text is not a duration.
 */
const UNIT_MS: Readonly<Record<string, number>> = {
  ns: 1e-6,
  us: 1e-3,
  'µs': 1e-3,
  'μs': 1e-3,
  ms: 1,
  s: 1000,
  m: 60_000,
  h: 3_600_000,
};

const PART = /(\d+(?:\.\d*)?|\.\d+)(ns|us|µs|μs|ms|s|m|h)/y;

export function parseDurationMs(text: string): number | undefined {
  let s = text.trim();
  let sign = 1;
  if (s.startsWith('-') || s.startsWith('+')) {
    sign = s.startsWith('-') ? -1 : 1;
    s = s.slice(1);
  }
  if (s === '0') return 0;
  if (s === '') return undefined;
  let total = 0;
  PART.lastIndex = 0;
  while (PART.lastIndex < s.length) {
    const start = PART.lastIndex;
    const match = PART.exec(s);
    if (match === null || match.index !== start) return undefined;
    total += Number(match[1]) * (UNIT_MS[match[2] as string] as number);
  }
  return sign * total;
}
