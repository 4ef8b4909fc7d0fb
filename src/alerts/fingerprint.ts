import type { LabelSet } from './matchers/matcher.js';

/** Label sets up to this size are sorted by insertion; larger ones (rare, or hostile) by Array#sort. */
const INSERTION_SORT_MAX = 16;

/** Label names in byte-wise (UTF-8) order, which is code point order, not UTF-16 unit order. */
export function sortedLabelNames(labels: LabelSet): string[] {
  const names = Object.keys(labels);
  // UTF-16 order equals code point order unless surrogates meet U+E000-U+FFFF; the plain order is much faster.
  if (names.some(hasSurrogates)) return names.sort(compareCodePoints);
  if (names.length > INSERTION_SORT_MAX) return names.sort();
  // A few names, by insertion: Array#sort's own setup cost more than the sorting (130 against
  // 330 ns for four names), once for every alert posted.
  for (let i = 1; i < names.length; i++) {
    const name = names[i] as string;
    let j = i - 1;
    for (; j >= 0 && (names[j] as string) > name; j--) names[j + 1] = names[j] as string;
    names[j + 1] = name;
  }
  return names;
}

function hasSurrogates(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code >= 0xd800 && code < 0xe000) return true;
  }
  return false;
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
 * FNV-1a 64 state in four 16-bit limbs (h0 lowest), so every step is integer arithmetic that
 * stays below 2^32: several times faster than BigInt or double-based 64-bit math on the
 * POST /alerts path. The prime is 2^40 + 0x1b3, so `h * prime` is `h * 0x1b3 + (h << 40)`,
 * and `h << 40` is limb i moved to limb i + 2 times 2^8.
 */
let h0 = 0;
let h1 = 0;
let h2 = 0;
let h3 = 0;

function step(byte: number): void {
  h0 ^= byte;
  const t0 = h0 * 0x1b3;
  const t1 = h1 * 0x1b3 + (t0 >>> 16);
  const t2 = h2 * 0x1b3 + h0 * 0x100 + (t1 >>> 16);
  const t3 = h3 * 0x1b3 + h1 * 0x100 + (t2 >>> 16);
  h0 = t0 & 0xffff;
  h1 = t1 & 0xffff;
  h2 = t2 & 0xffff;
  h3 = t3 & 0xffff;
}

/** Feeds the UTF-8 bytes of `text`, then the 0xFF separator. */
function feed(text: string): void {
  for (let i = 0; i < text.length; i++) {
    let code = text.charCodeAt(i);
    if (code < 0x80) {
      step(code);
      continue;
    }
    if (code >= 0xd800 && code < 0xdc00 && i + 1 < text.length) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next < 0xe000) {
        code = 0x10000 + ((code - 0xd800) << 10) + (next - 0xdc00);
        i++;
      }
    }
    if (code < 0x800) {
      step(0xc0 | (code >> 6));
    } else if (code < 0x10000) {
      // A lone surrogate is encoded as U+FFFD, as TextEncoder (and Go's string conversion) do.
      if (code >= 0xd800 && code < 0xe000) code = 0xfffd;
      step(0xe0 | (code >> 12));
      step(0x80 | ((code >> 6) & 0x3f));
    } else {
      step(0xf0 | (code >> 18));
      step(0x80 | ((code >> 12) & 0x3f));
      step(0x80 | ((code >> 6) & 0x3f));
    }
    step(0x80 | (code & 0x3f));
  }
  step(0xff);
}

function hex4(limb: number): string {
  return limb.toString(16).padStart(4, '0');
}

/**
 * Alertmanager's alert fingerprint (Prometheus `model.LabelSet.Fingerprint`): FNV-1a 64 over
 * each name and value in name order, each followed by a 0xFF byte, as 16 lower-case hex digits.
 */
export function fingerprint(labels: LabelSet): string {
  // The offset basis 0xcbf29ce484222325.
  h0 = 0x2325;
  h1 = 0x8422;
  h2 = 0x9ce4;
  h3 = 0xcbf2;
  for (const name of sortedLabelNames(labels)) {
    feed(name);
    feed(labels[name] as string);
  }
  return hex4(h3) + hex4(h2) + hex4(h1) + hex4(h0);
}

/** Prometheus's LabelSet.Before: fewer labels first, then the first differing name or value. */
export function compareLabelSets(a: LabelSet, b: LabelSet): number {
  const an = sortedLabelNames(a);
  const bn = sortedLabelNames(b);
  if (an.length !== bn.length) return an.length - bn.length;
  for (let i = 0; i < an.length; i++) {
    const byName = compareCodePoints(an[i] as string, bn[i] as string);
    if (byName !== 0) return byName;
    const byValue = compareCodePoints(a[an[i] as string] as string, b[bn[i] as string] as string);
    if (byValue !== 0) return byValue;
  }
  return 0;
}

/** Alerts in a group (types.AlertSlice): by `job`, then `instance` (having the label first), then by labels. */
export function compareAlertsInGroup(x: { labels: LabelSet }, y: { labels: LabelSet }): number {
  for (const name of ['job', 'instance']) {
    const a = x.labels[name];
    const b = y.labels[name];
    if (a !== b) {
      if (a === undefined) return 1;
      if (b === undefined) return -1;
      return compareCodePoints(a, b);
    }
  }
  return compareLabelSets(x.labels, y.labels);
}
