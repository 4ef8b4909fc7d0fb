import { Code, type DescriptorStatus } from './response.js';

/**
 * The answer's overall code from its statuses (after per-rule shadow mode). Without quota
 * descriptors: OVER_LIMIT iff any status is. With them (quota_mode on the rule, or QUOTA_MODE for
 * every descriptor that is not unlimited): OVER_LIMIT iff a non-quota descriptor is over, or there
 * is a quota descriptor and every quota descriptor is over, as upstream. `quota[i]` marks
 * descriptor i; undefined means none is.
 */
export function overallCodeOf(statuses: readonly DescriptorStatus[], quota: readonly boolean[] | undefined): Code {
  let quotaSeen = false;
  let quotaAllOver = true;
  for (let i = 0; i < statuses.length; i++) {
    const over = (statuses[i] as DescriptorStatus).code === Code.OVER_LIMIT;
    if (quota?.[i] === true) {
      quotaSeen = true;
      if (!over) quotaAllOver = false;
    } else if (over) {
      return Code.OVER_LIMIT;
    }
  }
  return quotaSeen && quotaAllOver ? Code.OVER_LIMIT : Code.OK;
}

/**
 * The descriptor whose limit made the answer OVER_LIMIT: the first non-quota descriptor over its
 * limit, or, when only quota descriptors are (all of them), the first of those. -1 when the
 * statuses make the answer OK.
 */
export function firedIndexOf(statuses: readonly DescriptorStatus[], quota: readonly boolean[] | undefined): number {
  let firstQuotaOver = -1;
  for (let i = 0; i < statuses.length; i++) {
    if ((statuses[i] as DescriptorStatus).code !== Code.OVER_LIMIT) continue;
    if (quota?.[i] !== true) return i;
    if (firstQuotaOver < 0) firstQuotaOver = i;
  }
  return overallCodeOf(statuses, quota) === Code.OVER_LIMIT ? firstQuotaOver : -1;
}
