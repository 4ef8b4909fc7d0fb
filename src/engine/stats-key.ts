import type { RuleStats, RuleStatsFactory } from '../observability/stats.js';
import type { RequestDescriptor } from './request.js';
import type { RateLimitRule } from './rule.js';

/**
 * The statistics of one descriptor's rule, under upstream's key for it:
 * - detailed_metric on the rule: every request entry as `key_value` (`domain.k1_v1.k2_v2`);
 * - value_to_metric on some level of the rule's path: the configured path, where each flagged
 *   level is written with the request's value (`domain.k1_A.k2`; a wildcard level shows the whole
 *   value, not the pattern); detailed_metric takes precedence;
 * - otherwise the configured path (the rule's fullKey), whose counters are kept on the rule.
 */
export function statsFor(factory: RuleStatsFactory, domain: string, rule: RateLimitRule, descriptor: RequestDescriptor): RuleStats {
  // A descriptor's nth limit (`rate_limits`) counts under `.limit_n` after the key.
  const limitSuffix = rule.keySuffix === '' ? '' : `.limit_${rule.keySuffix.slice(1, -1)}`;
  if (rule.detailedMetric) return factory.forKey(detailedKey(domain, descriptor) + limitSuffix);
  if (rule.metricSegments !== undefined) return factory.forKey(valueToMetricKey(domain, rule.metricSegments, descriptor) + limitSuffix);
  return (rule.stats ??= factory.forKey(rule.fullKey));
}

/** detailed_metric statistics key: every request entry as `key_value`, as upstream. */
export function detailedKey(domain: string, descriptor: RequestDescriptor): string {
  let key = domain;
  for (const entry of descriptor.entries) key += '.' + entry.key + '_' + entry.value;
  return key;
}

/** value_to_metric statistics key: configured segments, the request's `key_value` where undefined. */
export function valueToMetricKey(domain: string, segments: ReadonlyArray<string | undefined>, descriptor: RequestDescriptor): string {
  let key = domain;
  const entries = descriptor.entries;
  for (let i = 0; i < segments.length; i++) {
    const segment = segments[i];
    const entry = entries[i];
    key += '.' + (segment ?? (entry === undefined ? '' : entry.key + '_' + entry.value));
  }
  return key;
}
