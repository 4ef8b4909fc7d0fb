/**
 * A token bucket in one 32-bit word of the embedded store, so one compareExchange updates it.
 * The word holds the moment the bucket is full again ("full at"), counted in tokens since the
 * start of the window whose table holds it: tokens = capacity - max(0, fullAt - now), where now
 * is (ms since the window start) x capacity / unit ms. That is the same bucket as tokens plus the
 * time they were counted (the Redis form), folded into one number. A fixed point with `fraction`
 * bits keeps fullAt in [0, 2 x capacity]: word = 1 + round(fullAt x 2^fraction).
 */

/** A word never written in this window: the bucket is carried over from the previous window. */
export const UNSET = 0;
/** A word whose bucket moved on to the next window's table. */
export const SEALED = 0xffffffff;
/** takeTokens()'s answer when the word is sealed: count in the next window. Counts are never negative. */
export const MOVED = -1;

export interface BucketShape {
  /** 2^fraction: steps per token. */
  scale: number;
  /** Half a step, added before whole tokens are counted, so rounding never withholds a token. */
  slack: number;
}

const shapes = new Map<number, BucketShape>();

/** The finest step that keeps 1 + 2 x capacity x 2^fraction below SEALED (at least 2^-10 up to 2^20 tokens). */
export function bucketShape(capacity: number): BucketShape {
  let shape = shapes.get(capacity);
  if (shape === undefined) {
    let fraction = 0;
    while (fraction < 20 && 1 + 2 * Math.max(1, capacity) * 2 ** (fraction + 1) < SEALED) fraction++;
    shape = { scale: 2 ** fraction, slack: 2 ** -(fraction + 1) };
    shapes.set(capacity, shape);
  }
  return shape;
}

export function encodeFullAt(fullAt: number, shape: BucketShape): number {
  return 1 + Math.round(fullAt * shape.scale);
}

export function decodeFullAt(word: number, shape: BucketShape): number {
  return word === UNSET ? 0 : (word - 1) / shape.scale;
}
