import { mergeFirstWins, newStruct, type MetadataStruct, type MetadataValue } from './metadata.js';
import type { RateLimitRequest, RequestDescriptor } from './request.js';
import { Code, type DescriptorStatus } from './response.js';
import type { RateLimitRule } from './rule.js';
import { Unit } from './units.js';

/**
 * The response's dynamic_metadata (RESPONSE_DYNAMIC_METADATA), as upstream builds it:
 *   domain       the request's domain
 *   descriptors  per descriptor {entries: ["k=v", …], limit?: its override in protobuf text form,
 *                hitsAddend?: its own hits_addend when set, 0 included}
 *   hitsAddend   the request's hits_addend, when not 0
 *   metadata     the `metadata` of the rules of the descriptors not OVER_LIMIT, merged in
 *                descriptor order (first value wins, structs merged)
 * `limits[i]` is the rule that counted descriptor i (undefined: no match, unlimited or replaced).
 */
export function dynamicMetadataOf(
  request: RateLimitRequest,
  statuses: readonly DescriptorStatus[],
  limits: ReadonlyArray<RateLimitRule | undefined>,
): MetadataStruct {
  const struct = newStruct();
  struct['domain'] = request.domain;
  struct['descriptors'] = request.descriptors.map(descriptorStruct);
  if (request.hitsAddend !== 0) struct['hitsAddend'] = request.hitsAddend;
  let merged: MetadataStruct | undefined;
  for (let i = 0; i < statuses.length; i++) {
    const metadata = limits[i]?.metadata;
    if (metadata === undefined || (statuses[i] as DescriptorStatus).code === Code.OVER_LIMIT) continue;
    mergeFirstWins((merged ??= newStruct()), metadata);
  }
  if (merged !== undefined && Object.keys(merged).length > 0) struct['metadata'] = merged;
  return struct;
}

function descriptorStruct(descriptor: RequestDescriptor): MetadataValue {
  const struct = newStruct();
  struct['entries'] = descriptor.entries.map((entry) => `${entry.key}=${entry.value}`);
  if (descriptor.limit !== undefined) struct['limit'] = overrideText(descriptor.limit.requestsPerUnit, descriptor.limit.unit);
  if (descriptor.hitsAddend !== undefined) struct['hitsAddend'] = descriptor.hitsAddend;
  return struct;
}

/**
 * RateLimitOverride in protobuf text form (`requests_per_unit:10 unit:MINUTE`), zero fields left
 * out. Its unit is envoy.type.v3.RateLimitUnit, which has no WEEK: a unit it lacks shows as its number.
 */
function overrideText(requestsPerUnit: number, unit: Unit): string {
  const parts: string[] = [];
  if (requestsPerUnit !== 0) parts.push(`requests_per_unit:${requestsPerUnit}`);
  if (unit !== Unit.UNKNOWN) parts.push(`unit:${unit === Unit.WEEK ? String(unit) : Unit[unit]}`);
  return parts.join(' ');
}
