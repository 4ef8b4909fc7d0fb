import type { MetadataStruct } from './metadata.js';
import type { Algorithm } from './algorithms.js';
import type { Unit } from './units.js';

/**
 * The rules the engine decides by, as plain data: what the YAML files (or, later, xDS
 * resources) say after every check of the loader. Plain objects only, so a configuration can be
 * posted to worker threads unchanged and compiled there. The engine owns this shape; the
 * configuration loader produces it.
 */

/** `rate_limit:` block of a descriptor rule. */
export interface RateLimitPolicy {
  /** UNKNOWN only when `unlimited` is true. */
  unit: Unit;
  requestsPerUnit: number;
  unlimited: boolean;
  /** `name`, or '' when absent. */
  name: string;
  /** Names listed under `replaces`. */
  replaces: string[];
  /** `algorithm`; absent means upstream's fixed window. */
  algorithm?: Algorithm;
}

/** One descriptor rule, possibly with nested rules. */
export interface DescriptorRule {
  key: string;
  /** '' when the rule has no value (matches any value). A trailing or inner `*` makes it a wildcard. */
  value: string;
  rateLimit?: RateLimitPolicy;
  shadowMode: boolean;
  detailedMetric: boolean;
  /** On a wildcard rule: every matching value shares one counter (the pattern replaces the value in the cache key). */
  shareThreshold: boolean;
  /** quota_mode: the request is over only when all quota descriptors are (absent means false). */
  quotaMode?: boolean;
  /** value_to_metric: this level's request value goes into the statistics key (absent means false). */
  valueToMetric?: boolean;
  /** `metadata`: free-form data put into the response's dynamic metadata. */
  metadata?: MetadataStruct;
  descriptors: DescriptorRule[];
  /** `rate_limits`: limits counted beside `rateLimit`, each on its own counter; absent when none. */
  moreLimits?: RateLimitPolicy[];
}

/** All rules of one domain, merged across files when MERGE_DOMAIN_CONFIG allows. */
export interface DomainConfig {
  domain: string;
  descriptors: DescriptorRule[];
}

/** A whole successfully loaded configuration. */
export interface RateLimitConfig {
  domains: DomainConfig[];
}
