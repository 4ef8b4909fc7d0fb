import { Algorithm } from './algorithms.js';
import type { CounterIncrement } from './counter-store.js';
import type { DescriptorEntry } from './request.js';
import type { RateLimitRule } from './rule.js';

/**
 * Upstream's cache key (src/limiter/cache_key.go): prefix + domain + `_` + `key_value_` per entry
 * + window start, where a share_threshold level puts its wildcard pattern in place of the value.
 * This is the key without its window start; a descriptor's nth limit adds `#n_` first.
 */
export function cacheKeyBase(prefix: string, domain: string, entries: readonly DescriptorEntry[], rule: RateLimitRule): string {
  const sharedValues = rule.sharedValues;
  let key = prefix + domain + '_';
  for (let i = 0; i < entries.length; i++) {
    const entry = entries[i] as DescriptorEntry;
    key += entry.key + '_' + (sharedValues?.[i] ?? entry.value) + '_';
  }
  return key + rule.keySuffix;
}

/** The keys of a sliding window or token bucket counter in one window: the same for every request in it. */
export interface AlgorithmKeys {
  readonly windowStart: number;
  /** The current window's key (sliding window), or the bucket's (which has no window). */
  readonly key: string;
  /** The previous window's key of a sliding window; '' for a bucket. */
  readonly previousKey: string;
}

/** The keys of a sliding window or token bucket limit in the window starting at `start`, built on `base` (cacheKeyBase). */
export function algorithmKeys(base: string, rule: RateLimitRule, start: number): AlgorithmKeys {
  if (rule.algorithm !== Algorithm.SLIDING_WINDOW) {
    // A bucket outlives windows, so its key has none; the embedded store still files it by window.
    return { windowStart: start, key: base + 'tb', previousKey: '' };
  }
  // A sliding window reads two windows' counters at once: braces make them one Redis Cluster hash slot.
  const braced = `{${base}}`;
  return { windowStart: start, key: braced + start, previousKey: braced + (start - rule.unitSeconds) };
}

/** The counter of a sliding window or token bucket limit at `nowMs`, on its window's `keys`. */
export function algorithmIncrement(keys: AlgorithmKeys, rule: RateLimitRule, hits: number, nowMs: number): CounterIncrement {
  return {
    key: keys.key,
    hits,
    unit: rule.limit.unit,
    windowStart: keys.windowStart,
    algorithm: {
      algorithm: rule.algorithm === Algorithm.SLIDING_WINDOW ? Algorithm.SLIDING_WINDOW : Algorithm.TOKEN_BUCKET,
      limit: rule.limit.requestsPerUnit,
      unitMs: rule.unitSeconds * 1000,
      nowMs,
      previousKey: keys.previousKey,
    },
  };
}
