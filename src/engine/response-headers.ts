import type { DescriptorStatus, HeaderValue } from './response.js';
import { Code } from './response.js';
import { decimalText } from './decimal-text.js';
import { secondsUntilReset } from './units.js';

export interface HeaderNames {
  limit: string;
  remaining: string;
  reset: string;
}

const MAX_UINT32 = 4294967295;

/**
 * RateLimit-* headers from the most restrictive status (see headerStatusIndex). No limited status,
 * no headers.
 */
export function limitHeaders(
  statuses: readonly DescriptorStatus[],
  names: HeaderNames,
  nowSeconds: number,
  quota?: readonly boolean[],
): HeaderValue[] {
  const chosen = statuses[headerStatusIndex(statuses, quota)];
  if (chosen?.currentLimit === undefined) return [];
  return [
    { key: names.limit, value: String(chosen.currentLimit.requestsPerUnit) },
    { key: names.remaining, value: decimalText(chosen.limitRemaining) },
    { key: names.reset, value: String(chosen.durationUntilResetSeconds ?? secondsUntilReset(nowSeconds, chosen.currentLimit.unit)) },
  ];
}

/**
 * The status the headers describe: the lowest remaining among statuses with a limit, where an
 * OVER_LIMIT status of a non-quota descriptor always wins, so the last such one is used (as
 * upstream; `quota[i]` marks quota descriptors, whose OVER_LIMIT only competes by its remaining).
 * -1 when no status has a limit.
 */
export function headerStatusIndex(statuses: readonly DescriptorStatus[], quota?: readonly boolean[]): number {
  let chosen = -1;
  let min = MAX_UINT32;
  for (let i = 0; i < statuses.length; i++) {
    const status = statuses[i] as DescriptorStatus;
    if (status.currentLimit === undefined) continue;
    if (status.code === Code.OVER_LIMIT && quota?.[i] !== true) {
      chosen = i;
      min = 0;
    } else if (status.limitRemaining < min) {
      chosen = i;
      min = status.limitRemaining;
    }
  }
  return chosen;
}
