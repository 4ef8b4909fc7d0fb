import { dynamicMetadataOf } from './dynamic-metadata.js';
import { firedByStruct, limitPolicyHeader, type NamedLimit } from './limit-policy.js';
import { firedIndexOf } from './overall-code.js';
import type { RateLimitRequest } from './request.js';
import { headerStatusIndex } from './response-headers.js';
import type { RateLimitResponse } from './response.js';
import type { RateLimitRule } from './rule.js';

export interface ResponseExtras {
  /** RESPONSE_DYNAMIC_METADATA. */
  dynamicMetadata: boolean;
  /** RESPONSE_LIMIT_POLICY (extension): `firedBy` in the dynamic metadata, `RateLimit-Policy` on /json. */
  limitPolicy: boolean;
}

/**
 * Adds the parts of an answer that settings switch on, once its statuses and overall code are
 * known (before global shadow mode turns an OVER_LIMIT answer OK: the limit that would have fired
 * is still named). `limits[i]` is the rule that counted descriptor i; `quota[i]` marks quota
 * descriptors.
 */
export function addResponseExtras(
  response: RateLimitResponse,
  request: RateLimitRequest,
  limits: ReadonlyArray<RateLimitRule | undefined>,
  quota: readonly boolean[] | undefined,
  extras: ResponseExtras,
): void {
  const statuses = response.statuses;
  const fired = extras.limitPolicy ? namedLimit(firedIndexOf(statuses, quota), limits) : undefined;
  if (extras.dynamicMetadata) {
    const metadata = dynamicMetadataOf(request, statuses, limits);
    if (fired !== undefined) metadata['firedBy'] = firedByStruct(fired);
    response.dynamicMetadata = metadata;
  }
  if (extras.limitPolicy) {
    const described = fired ?? namedLimit(headerStatusIndex(statuses, quota), limits);
    if (described !== undefined) response.limitPolicy = limitPolicyHeader(described);
  }
}

function namedLimit(index: number, limits: ReadonlyArray<RateLimitRule | undefined>): NamedLimit | undefined {
  const rule = index < 0 ? undefined : limits[index];
  if (rule === undefined) return undefined;
  return { name: rule.limit.name === '' ? rule.fullKey : rule.limit.name, limit: rule.limit, descriptorIndex: index };
}
