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

/** A query parameter that is one of `allowed`, undefined when absent, else 400 naming it. */
export function choiceParam<T extends string>(query: URLSearchParams, name: string, allowed: readonly T[]): T | undefined | ServiceError {
  const value = query.get(name);
  if (value === null || value === '') return undefined;
  if (!(allowed as readonly string[]).includes(value)) return new ServiceError('SC_BAD_REQUEST', `${name} must be one of ${allowed.join(', ')}, not ${JSON.stringify(value)}`, { param: name });
  return value as T;
}
