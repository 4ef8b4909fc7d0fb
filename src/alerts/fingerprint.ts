import type { LabelSet } from './matchers/matcher.js';

const OFFSET = 0xcbf29ce484222325n;
const PRIME = 0x100000001b3n;
const MASK = 0xffffffffffffffffn;
const SEPARATOR = 0xff;
const utf8 = new TextEncoder();

/** Label names in byte-wise (UTF-8) order, which is code point order, not UTF-16 unit order. */
export function sortedLabelNames(labels: LabelSet): string[] {
  return Object.keys(labels).sort(compareCodePoints);
}

/** Compares strings by code points (as Go compares UTF-8 bytes). */
export function compareCodePoints(a: string, b: string): number {
  if (a === b) return 0;
  const left = a[Symbol.iterator]();
  const right = b[Symbol.iterator]();
  for (;;) {
    const x = left.next();
    const y = right.next();
    if (x.done === true) return y.done === true ? 0 : -1;
    if (y.done === true) return 1;
    const cx = x.value.codePointAt(0) as number;
    const cy = y.value.codePointAt(0) as number;
    if (cx !== cy) return cx < cy ? -1 : 1;
  }
}

/**
 * Alertmanager's alert fingerprint (Prometheus `model.LabelSet.Fingerprint`): FNV-1a 64 over
 * each name and value in name order, each followed by a 0xFF byte, as 16 lower-case hex digits.
 */
export function fingerprint(labels: LabelSet): string {
  let hash = OFFSET;
  const feed = (bytes: Uint8Array) => {
    for (const byte of bytes) hash = ((hash ^ BigInt(byte)) * PRIME) & MASK;
    hash = ((hash ^ BigInt(SEPARATOR)) * PRIME) & MASK;
  };
  for (const name of sortedLabelNames(labels)) {
    feed(utf8.encode(name));
    feed(utf8.encode(labels[name] as string));
  }
  return hash.toString(16).padStart(16, '0');
}
