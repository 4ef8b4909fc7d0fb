import type { DescriptorStatus, HeaderValue } from './response.js';
import { Code } from './response.js';
import { secondsUntilReset } from './units.js';

export interface HeaderNames {
  limit: string;
  remaining: string;
  reset: string;
}

const MAX_UINT32 = 4294967295;

/**
 * RateLimit-* headers from the most restrictive status: the lowest remaining among statuses
 * with a limit, where an OVER_LIMIT status always wins, so the last over-limit one is used
 * (as upstream). No limited status, no headers.
 */
export function limitHeaders(statuses: readonly DescriptorStatus[], names: HeaderNames, nowSeconds: number): HeaderValue[] {
  let chosen: DescriptorStatus | undefined;
  let min = MAX_UINT32;
  for (const status of statuses) {
    if (status.currentLimit === undefined) continue;
    if (status.code === Code.OVER_LIMIT) {
      chosen = status;
      min = 0;
    } else if (status.limitRemaining < min) {
      chosen = status;
      min = status.limitRemaining;
    }
  }
  if (chosen?.currentLimit === undefined) return [];
  return [
    { key: names.limit, value: String(chosen.currentLimit.requestsPerUnit) },
    { key: names.remaining, value: String(chosen.limitRemaining) },
    { key: names.reset, value: String(chosen.durationUntilResetSeconds ?? secondsUntilReset(nowSeconds, chosen.currentLimit.unit)) },
  ];
}
