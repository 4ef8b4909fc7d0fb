/**
 * A count's decimal digits, written with `String.fromCharCode` instead of V8's number-to-string
 * conversion (template literals, `String(n)`). That conversion files each string it makes in a
 * cache that is a root of the young-generation collector, so with a number that changes on every
 * request (the remaining count of a limit) the cache keeps thousands of fresh strings alive:
 * every scavenge of a busy HTTP thread copied about 500 KB and paused 4-5 ms, against 2 ms with
 * the same thread's numbers written here. Anything but an integer in [0, 10^10) goes to `String`.
 */
export function decimalText(n: number): string {
  if (n >= 0 && n < 100_000 && (n | 0) === n) return digits(n, digitCount(n));
  if (n >= 100_000 && n < 10_000_000_000 && Math.floor(n) === n) {
    const high = Math.floor(n / 100_000);
    // Both parts are at most 5 characters, so V8 joins them into one flat string.
    return digits(high, digitCount(high)) + digits(n - high * 100_000, 5);
  }
  return String(n);
}

function digitCount(n: number): number {
  return n < 10 ? 1 : n < 100 ? 2 : n < 1000 ? 3 : n < 10_000 ? 4 : 5;
}

const ZERO = 0x30;

/** `n` (below 10^count) as exactly `count` digits (1-5), zeros in front. */
function digits(n: number, count: number): string {
  const e = ZERO + (n % 10);
  const d = ZERO + (((n / 10) | 0) % 10);
  const c = ZERO + (((n / 100) | 0) % 10);
  const b = ZERO + (((n / 1000) | 0) % 10);
  const a = ZERO + (((n / 10_000) | 0) % 10);
  switch (count) {
    case 1:
      return String.fromCharCode(e);
    case 2:
      return String.fromCharCode(d, e);
    case 3:
      return String.fromCharCode(c, d, e);
    case 4:
      return String.fromCharCode(b, c, d, e);
    default:
      return String.fromCharCode(a, b, c, d, e);
  }
}
