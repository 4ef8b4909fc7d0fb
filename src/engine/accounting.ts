import type { RuleStats } from '../observability/stats.js';
import { Code } from './response.js';

/** Outcome of one descriptor against its limit. */
export interface LimitOutcome {
  code: Code;
  limitRemaining: number;
}

/**
 * Decides one descriptor from the counter value after adding `hits`, and counts
 * over/near/within/shadow statistics exactly as upstream's base limiter, including the
 * partial crossing case where one request both fills and exceeds the limit.
 */
export function decide(
  limit: number,
  nearThreshold: number,
  hits: number,
  after: number,
  shadowMode: boolean,
  stats: RuleStats,
): LimitOutcome {
  const before = after - hits;
  if (after > limit) {
    if (before >= limit) {
      stats.overLimit.value += hits;
    } else {
      stats.overLimit.value += after - limit;
      stats.nearLimit.value += limit - Math.max(nearThreshold, before);
    }
    if (shadowMode) {
      stats.shadowMode.value += before >= limit ? hits : after - limit;
      return { code: Code.OK, limitRemaining: 0 };
    }
    return { code: Code.OVER_LIMIT, limitRemaining: 0 };
  }
  if (after > nearThreshold) {
    stats.nearLimit.value += before >= nearThreshold ? hits : after - nearThreshold;
  }
  stats.withinLimit.value += hits;
  return { code: Code.OK, limitRemaining: limit - after };
}
