import type { DescriptorEntry } from '../../engine/index.js';
import { ServiceError } from '../../errors/index.js';

/** The counter a `/counters` request names. */
export interface CounterQuery {
  domain: string;
  entries: DescriptorEntry[];
}

const bad = (param: string, message: string) => new ServiceError('DBG_COUNTER_BAD_REQUEST', message, { param });

/**
 * `domain=<d>&descriptor=<k1>=<v1>,<k2>=<v2>`: each entry splits at its first `=`, so a value may
 * hold `=` but not `,`. A descriptor that starts with `[` is JSON instead, the entries as /json
 * takes them (`[{"key":"k1","value":"v,1"}]`), for keys and values that hold anything.
 */
export function parseCounterQuery(query: URLSearchParams): CounterQuery | ServiceError {
  const domains = query.getAll('domain');
  if (domains.length !== 1) return bad('domain', domains.length === 0 ? 'domain is required' : 'domain must be given once');
  const domain = domains[0] as string;
  if (domain === '') return bad('domain', 'domain must not be empty');
  const descriptors = query.getAll('descriptor');
  if (descriptors.length !== 1) {
    return bad('descriptor', descriptors.length === 0 ? 'descriptor is required, as k1=v1,k2=v2 or as JSON entries' : 'descriptor must be given once');
  }
  const text = descriptors[0] as string;
  const entries = text.startsWith('[') ? jsonEntries(text) : commaEntries(text);
  return entries instanceof ServiceError ? entries : { domain, entries };
}

function commaEntries(text: string): DescriptorEntry[] | ServiceError {
  if (text === '') return bad('descriptor', 'descriptor must not be empty: give it as k1=v1,k2=v2');
  const entries: DescriptorEntry[] = [];
  for (const [i, part] of text.split(',').entries()) {
    const at = part.indexOf('=');
    if (at <= 0) return bad('descriptor', `descriptor entry ${i + 1} (${JSON.stringify(part)}) is not key=value`);
    entries.push({ key: part.slice(0, at), value: part.slice(at + 1) });
  }
  return entries;
}

function jsonEntries(text: string): DescriptorEntry[] | ServiceError {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    return bad('descriptor', `descriptor is not JSON: ${(error as Error).message}`);
  }
  if (!Array.isArray(parsed) || parsed.length === 0) return bad('descriptor', 'descriptor JSON must be a non-empty array of {"key","value"} entries');
  const entries: DescriptorEntry[] = [];
  for (const [i, entry] of (parsed as unknown[]).entries()) {
    const { key, value } = (typeof entry === 'object' && entry !== null ? entry : {}) as Record<string, unknown>;
    if (typeof key !== 'string' || key === '') return bad('descriptor', `descriptor[${i}].key must be a non-empty string`);
    if (value !== undefined && typeof value !== 'string') return bad('descriptor', `descriptor[${i}].value must be a string`);
    entries.push({ key, value: value ?? '' });
  }
  return entries;
}
