/**
 * 64-bit fingerprint of a cache key: two independent 32-bit hashes computed in one pass over
 * the string's UTF-16 code units, two units per round, with murmur3-style mixing (Math.imul and
 * rotations) and a murmur3 finalizer each. No allocation: no TextEncoder, no BigInt, no array
 * for the pair; the results go into a caller-owned scratch array.
 *
 * Both halves are forced odd (`| 1`) so that 0 always means "empty" (fpHi) or "not yet
 * published" (fpLo) in a slot. That leaves 62 bits: with a million keys in one window the
 * chance that two of them share a fingerprint is about 1e-7.
 */

const HI_SEED = 0x9747b28c | 0;
const LO_SEED = 0x2f6b1e4d | 0;
// murmur3 x86_32 constants for the first hash, xxhash32 primes for the second.
const HI_C1 = 0xcc9e2d51 | 0;
const HI_C2 = 0x1b873593 | 0;
const LO_C1 = 0x85ebca77 | 0;
const LO_C2 = 0xc2b2ae3d | 0;
const HI_ADD = 0xe6546b64 | 0;
const LO_ADD = 0x165667b1 | 0;

/** Index of fpHi / fpLo in the scratch array. */
export const FP_HI = 0;
export const FP_LO = 1;

/** Writes the fingerprint of `key` to out[FP_HI], out[FP_LO]; both non-zero. */
export function fingerprint(key: string, out: Int32Array): void {
  const length = key.length;
  let hi = HI_SEED ^ length;
  let lo = LO_SEED ^ length;
  const pairs = length & ~1;
  let i = 0;
  for (; i < pairs; i += 2) {
    const word = key.charCodeAt(i) | (key.charCodeAt(i + 1) << 16);

    let k = Math.imul(word, HI_C1);
    k = (k << 15) | (k >>> 17);
    hi ^= Math.imul(k, HI_C2);
    hi = (hi << 13) | (hi >>> 19);
    hi = (Math.imul(hi, 5) + HI_ADD) | 0;

    let m = Math.imul(word, LO_C1);
    m = (m << 13) | (m >>> 19);
    lo ^= Math.imul(m, LO_C2);
    lo = (lo << 17) | (lo >>> 15);
    lo = (Math.imul(lo, 9) + LO_ADD) | 0;
  }
  if (i < length) {
    const word = key.charCodeAt(i);
    let k = Math.imul(word, HI_C1);
    k = (k << 15) | (k >>> 17);
    hi ^= Math.imul(k, HI_C2);
    let m = Math.imul(word, LO_C1);
    m = (m << 13) | (m >>> 19);
    lo ^= Math.imul(m, LO_C2);
  }
  out[FP_HI] = finalize(hi) | 1;
  out[FP_LO] = finalize(lo ^ 0x5bd1e995) | 1;
}

/** murmur3 fmix32: every input bit affects every output bit. */
function finalize(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h;
}
