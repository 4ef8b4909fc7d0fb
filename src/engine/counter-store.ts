import type { AlgorithmCount } from './algorithms.js';
import type { Unit } from './units.js';

/** One counter to bump: the cache key of a descriptor in the current window. */
export interface CounterIncrement {
  /** Full cache key, `prefix + domain_k1_v1_k2_v2_..._windowStart`, as upstream's cache key. */
  key: string;
  /** Hits to add; 0 reads the counter without consuming. */
  hits: number;
  unit: Unit;
  /** Epoch second at which this key's window starts (also the key's suffix). */
  windowStart: number;
  /**
   * The embedded store's 64-bit fingerprint of `key`, kept here by the store with the key it was
   * computed for. The engine hands the same increment to every repeat of a request within one
   * window, so the key is hashed once per window instead of once per request.
   */
  keyFingerprint?: KeyFingerprint | undefined;
  /**
   * A sliding window or token bucket limit: the store answers the count after as algorithms.ts
   * reckons it, and adds the hits only when they are allowed. Undefined for upstream's fixed window.
   */
  algorithm?: AlgorithmCount;
}

/** A fingerprint of one key (two 32-bit halves), valid while the increment's key is still `key`. */
export interface KeyFingerprint {
  readonly key: string;
  readonly hi: number;
  readonly lo: number;
}

/**
 * Where counters live: embedded shared memory, a key-value store or an object cache.
 * `increment` returns the value of each counter after adding its hits, in order.
 * Stores that need no I/O return synchronously so the hot path avoids a promise.
 * A failure is a thrown (or rejected) CounterStoreError.
 */
export interface CounterStore {
  increment(increments: readonly CounterIncrement[]): number[] | Promise<number[]>;
  /**
   * Each counter's value without changing it, for STOP_CACHE_KEY_INCREMENT_WHEN_OVERLIMIT.
   * Absent on a store that ignores that setting (the object cache, as upstream).
   */
  read?(increments: readonly CounterIncrement[]): number[] | Promise<number[]>;
  /**
   * Sets each counter back to its start (zero; a full bucket), for an operator's reset on the
   * debug port; a sliding window's previous window too. Absent on a store that cannot.
   */
  reset?(increments: readonly CounterIncrement[]): void | Promise<void>;
  close(): Promise<void>;
}

/** The store could not count (unreachable, timed out, full). The request fails, as upstream's does. */
export class CounterStoreError extends Error {
  override readonly name: string = 'CounterStoreError';
}

/** One key the store cannot hold (too long, bad characters); nothing of the request was sent. */
export class CounterKeyError extends CounterStoreError {
  override readonly name = 'CounterKeyError';

  constructor(
    /** Index of the offending increment. */
    readonly index: number,
    message: string,
  ) {
    super(message);
  }
}
