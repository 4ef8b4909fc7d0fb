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

/**
 * The counter of a sliding window or token bucket limit, its key built on `key` (cacheKeyBase):
 * the current window's key and the previous one's for a sliding window, one key for a bucket.
 */
export function algorithmIncrement(key: string, rule: RateLimitRule, hits: number, start: number, nowMs: number): CounterIncrement {
  const sliding = rule.algorithm === Algorithm.SLIDING_WINDOW;
  // A sliding window reads two windows' counters at once: braces make them one Redis Cluster hash slot.
  const base = sliding ? `{${key}}` : key;
  return {
    // A bucket outlives windows, so its key has none; the embedded store still files it by window.
    key: sliding ? base + start : base + 'tb',
    hits,
    unit: rule.limit.unit,
    windowStart: start,
    algorithm: {
      algorithm: sliding ? Algorithm.SLIDING_WINDOW : Algorithm.TOKEN_BUCKET,
      limit: rule.limit.requestsPerUnit,
      unitMs: rule.unitSeconds * 1000,
      nowMs,
      previousKey: sliding ? base + (start - rule.unitSeconds) : '',
    },
  };
}
