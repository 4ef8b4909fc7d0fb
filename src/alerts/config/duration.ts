/**
 * Durations as Alertmanager's configuration writes them (Prometheus' model.Duration):
 * `1h30m`, `10s`, `500ms`, `2w`, `1y` (365 days), `0`; printed back canonically.
 */
const UNITS: ReadonlyArray<readonly [string, bigint]> = [
  ['y', 1000n * 60n * 60n * 24n * 365n],
  ['w', 1000n * 60n * 60n * 24n * 7n],
  ['d', 1000n * 60n * 60n * 24n],
  ['h', 1000n * 60n * 60n],
  ['m', 1000n * 60n],
  ['s', 1000n],
  ['ms', 1n],
];

/** The largest duration Go's time.Duration holds, in milliseconds. */
const MAX_MS = (2n ** 63n - 1n) / 1_000_000n;

export type DurationResult = { ok: true; ms: number } | { ok: false; error: string };

/** model.ParseDuration, with its messages. */
export function parseDuration(text: string): DurationResult {
  if (text === '0') return { ok: true, ms: 0 };
  if (text === '') return { ok: false, error: 'empty duration string' };
  const match = /^(?:([0-9]+)y)?(?:([0-9]+)w)?(?:([0-9]+)d)?(?:([0-9]+)h)?(?:([0-9]+)m)?(?:([0-9]+)s)?(?:([0-9]+)ms)?$/.exec(text);
  if (match === null) return { ok: false, error: `not a valid duration string: ${JSON.stringify(text)}` };
  let total = 0n;
  let overflow = false;
  UNITS.forEach(([, mult], i) => {
    const digits = match[i + 1];
    if (digits === undefined) return;
    const n = BigInt(digits);
    if (n > MAX_MS / mult) overflow = true;
    total += n * mult;
  });
  if (overflow || total > MAX_MS) return { ok: false, error: 'duration out of range' };
  return { ok: true, ms: Number(total) };
}

/** model.Duration's String(): largest units first; years and weeks only when exact. */
export function formatDuration(ms: number): string {
  let left = BigInt(Math.trunc(ms));
  if (left === 0n) return '0s';
  let out = '';
  for (const [unit, mult] of UNITS) {
    const exactOnly = unit === 'y' || unit === 'w';
    if (exactOnly && left % mult !== 0n) continue;
    const v = left / mult;
    if (v > 0n) {
      out += `${v}${unit}`;
      left -= v * mult;
    }
  }
  return out;
}

const GO_UNITS: ReadonlyMap<string, number> = new Map([
  ['ns', 1e-6],
  ['us', 1e-3],
  ['µs', 1e-3],
  ['μs', 1e-3],
  ['ms', 1],
  ['s', 1000],
  ['m', 60_000],
  ['h', 3_600_000],
]);

/**
 * Go's time.ParseDuration (what yaml.v2 uses for a time.Duration field such as a webhook's
 * `timeout`): `300ms`, `1.5h`, `2h45m`; milliseconds, or undefined when Go would refuse it.
 */
export function parseGoDuration(text: string): number | undefined {
  let s = text;
  let sign = 1;
  if (s.startsWith('-') || s.startsWith('+')) {
    if (s[0] === '-') sign = -1;
    s = s.slice(1);
  }
  if (s === '0') return 0;
  if (s === '') return undefined;
  let total = 0;
  while (s !== '') {
    const m = /^([0-9]*(?:\.[0-9]*)?)([^0-9.]+)/.exec(s);
    if (m === null) return undefined;
    const [whole, number = '', unit = ''] = m;
    if (number === '' || number === '.') return undefined;
    const scale = GO_UNITS.get(unit);
    if (scale === undefined) return undefined;
    total += Number(number) * scale;
    s = s.slice(whole.length);
  }
  return sign * total;
}
