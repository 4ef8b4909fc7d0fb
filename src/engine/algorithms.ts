/**
 * How a limit counts, beyond upstream's fixed window: the arithmetic every counter store shares.
 * A store answers each count with the "count after" the engine's accounting expects (over the
 * limit when it exceeds requests_per_unit; limitRemaining = limit - after), so statistics, shadow
 * mode and the answer are reckoned the same way for every algorithm.
 */
export enum Algorithm {
  /** Upstream's: one counter per epoch-aligned window; every hit counts, allowed or not. */
  FIXED_WINDOW = 0,
  /** Weighted previous window: previous * (1 - elapsed / window) + current; only allowed hits count. */
  SLIDING_WINDOW = 1,
  /** Capacity requests_per_unit, refilled continuously at requests_per_unit per unit; only allowed hits take tokens. */
  TOKEN_BUCKET = 2,
}

/**
 * The largest requests_per_unit of a token bucket: the embedded store keeps a bucket in one 32-bit
 * word with 1/1024 of a token as its finest step, which leaves room for 2^20 tokens.
 */
export const MAX_TOKEN_BUCKET_CAPACITY = 2 ** 20;

const NAMES: ReadonlyMap<string, Algorithm> = new Map([
  ['fixed_window', Algorithm.FIXED_WINDOW],
  ['sliding_window', Algorithm.SLIDING_WINDOW],
  ['token_bucket', Algorithm.TOKEN_BUCKET],
]);

/** The YAML spelling (`algorithm: sliding_window`); undefined for an unknown name. */
export function parseAlgorithmName(name: string): Algorithm | undefined {
  return NAMES.get(name.toLowerCase());
}

export function algorithmName(algorithm: Algorithm): string {
  for (const [name, value] of NAMES) if (value === algorithm) return name;
  return 'fixed_window';
}

/** What a store needs, beside the key and hits, to count a limit of another algorithm. */
export interface AlgorithmCount {
  readonly algorithm: Algorithm.SLIDING_WINDOW | Algorithm.TOKEN_BUCKET;
  /** requests_per_unit. */
  readonly limit: number;
  /** The unit in milliseconds. */
  readonly unitMs: number;
  /** Now, in Unix milliseconds. */
  readonly nowMs: number;
  /** Sliding window: the counter of the previous window (read, never written). */
  readonly previousKey: string;
}

/**
 * The sliding window's estimate of the requests in the last `windowMs`: the previous window's
 * count weighted by the part of it still inside the sliding window, rounded down to a whole
 * request, plus the current window's count.
 */
export function slidingWindowCount(previous: number, current: number, elapsedMs: number, windowMs: number): number {
  return Math.floor((previous * (windowMs - elapsedMs)) / windowMs) + current;
}

/** A token bucket as tokens and the time they were counted (the Redis form of the state). */
export interface TokenBucketState {
  tokens: number;
  atMs: number;
}

/** Tokens in a bucket at `nowMs`: `state`'s tokens plus the refill since, at most the capacity; a bucket never seen is full. */
export function tokensAt(state: TokenBucketState | undefined, nowMs: number, limit: number, unitMs: number): number {
  if (state === undefined) return limit;
  const elapsed = Math.max(0, nowMs - state.atMs);
  return Math.min(limit, state.tokens + (elapsed * limit) / unitMs);
}

/**
 * The count after `hits` as the accounting reads it, from the tokens there are: capacity minus
 * whole tokens plus hits. Over the limit exactly when fewer tokens than hits remain; when the
 * hits are allowed, limit - after is the whole tokens left.
 */
export function tokenBucketAfter(tokens: number, hits: number, limit: number): number {
  return limit - Math.floor(tokens) + hits;
}

/**
 * Seconds until a token bucket whose count after is `after` is full again, rounded up; 0 when
 * it is full. Counted from whole tokens, so up to one token's refill time late.
 */
export function tokenBucketSecondsUntilFull(after: number, limit: number, unitMs: number, hits: number, allowed: boolean): number {
  const missing = allowed ? after : after - hits;
  if (missing <= 0 || limit <= 0) return 0;
  return Math.ceil((missing * unitMs) / limit / 1000);
}
