import type { RuleStats } from '../observability/stats.js';
import type { MetadataStruct } from './metadata.js';
import type { Algorithm } from './algorithms.js';
import type { CurrentLimit } from './response.js';

/** A limit that applies to one request descriptor: a configured rule, or a caller's override. */
export interface RateLimitRule {
  /** Statistics key (upstream's FullKey) of the config path, e.g. `domain.key1_value1.subkey1`. */
  readonly fullKey: string;
  readonly limit: CurrentLimit;
  readonly unitSeconds: number;
  readonly unlimited: boolean;
  readonly shadowMode: boolean;
  /** Emit statistics per concrete request value instead of under fullKey. */
  readonly detailedMetric: boolean;
  readonly replaces: readonly string[];
  /** floor(f32(limit) * f32(NEAR_LIMIT_RATIO)), as upstream computes it in float32. */
  readonly nearLimitThreshold: number;
  /**
   * Created on the rule's first hit, not when the configuration compiles: a configuration of
   * 200,000 rules would otherwise make 1.2 million counters on every thread before any request.
   */
  stats: RuleStats | undefined;
  /**
   * Per entry depth, the wildcard pattern that replaces the request's value in the cache key
   * (share_threshold: every matching value shares one counter); undefined when none does.
   */
  readonly sharedValues: ReadonlyArray<string | undefined> | undefined;
  /** quota_mode on the rule; absent means false. */
  readonly quotaMode?: boolean;
  /** The rule's `metadata`, for the response's dynamic metadata. */
  readonly metadata?: MetadataStruct;
  /**
   * value_to_metric: per entry depth, the statistics key segment as configured, or undefined where
   * the request's `key_value` goes instead. Absent when no level of the rule's path has the flag.
   */
  readonly metricSegments?: ReadonlyArray<string | undefined>;
  /** How the limit counts; FIXED_WINDOW is upstream's. */
  readonly algorithm: Algorithm;
  /** The descriptor's further limits (`rate_limits`), each with its own counter and statistics; undefined with one limit. */
  readonly more: readonly RateLimitRule[] | undefined;
  /** Put in the cache key before the window start: '' for the first limit (upstream's key), `#n_` for the nth. */
  readonly keySuffix: string;
}

export function nearLimitThreshold(requestsPerUnit: number, ratio: number): number {
  return Math.floor(Math.fround(Math.fround(requestsPerUnit) * Math.fround(ratio)));
}
