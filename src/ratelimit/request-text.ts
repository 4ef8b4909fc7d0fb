import { unitName, type RateLimitRequest } from '../engine/index.js';

/**
 * A request in the protobuf text format upstream puts in its `request string` span attribute
 * (Go's `request.String()`): `domain:"d" descriptors:{entries:{key:"k" value:"v"}} hits_addend:1`,
 * fields at their default left out.
 */
export function requestText(request: RateLimitRequest): string {
  const parts: string[] = [];
  if (request.domain !== '') parts.push(`domain:${JSON.stringify(request.domain)}`);
  for (const descriptor of request.descriptors) {
    const fields = descriptor.entries.map((entry) => {
      const kv = [entry.key === '' ? '' : `key:${JSON.stringify(entry.key)}`, entry.value === '' ? '' : `value:${JSON.stringify(entry.value)}`];
      return `entries:{${kv.filter((f) => f !== '').join(' ')}}`;
    });
    if (descriptor.limit !== undefined) fields.push(`limit:{requests_per_unit:${descriptor.limit.requestsPerUnit} unit:${unitName(descriptor.limit.unit)}}`);
    if (descriptor.hitsAddend !== undefined) fields.push(`hits_addend:{value:${descriptor.hitsAddend}}`);
    parts.push(`descriptors:{${fields.join(' ')}}`);
  }
  if (request.hitsAddend !== 0) parts.push(`hits_addend:${request.hitsAddend}`);
  return parts.join(' ');
}
