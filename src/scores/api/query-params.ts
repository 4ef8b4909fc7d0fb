import { ServiceError } from '../../errors/index.js';

/** A boolean query parameter: `true` or `false` (any case), the default when absent, else 400 naming it. */
export function booleanParam(query: URLSearchParams, name: string, fallback: boolean): boolean | ServiceError {
  const value = query.get(name);
  if (value === null || value === '') return fallback;
  const lower = value.toLowerCase();
  if (lower === 'true' || lower === '1') return true;
  if (lower === 'false' || lower === '0') return false;
  return new ServiceError('SC_BAD_REQUEST', `${name} must be true or false, not ${JSON.stringify(value)}`, { param: name });
}
