import { newMatcher, parseFilterMatcher } from '../matchers/index.js';
import type { Matcher } from '../matchers/matcher.js';

const TRUE_WORDS = new Set(['true', '1', 'yes', 'ok', 'y', 'on', 'selected', 'checked', 't', 'enabled']);

/**
 * A boolean query parameter as go-openapi's swag.ConvertBool reads it: the last occurrence wins,
 * absent or empty gives the default, a true-word is true, anything else is false (never an error).
 */
export function boolParam(query: URLSearchParams, name: string, fallback = true): boolean {
  const values = query.getAll(name);
  const last = values[values.length - 1];
  if (last === undefined || last === '') return fallback;
  return TRUE_WORDS.has(last.toLowerCase());
}

/** Every `filter` (or `receiver_matchers`) value as one matcher; the first parse error as text. */
export function matcherParams(query: URLSearchParams, name: string): Matcher[] | string {
  const matchers: Matcher[] = [];
  for (const raw of query.getAll(name)) {
    const parsed = parseFilterMatcher(raw);
    if (!parsed.ok) return parsed.error;
    matchers.push(parsed.value);
  }
  return matchers;
}

/** `receiver`: a regex matched against whole receiver names (`^(?:re)$`); empty means none given. */
export function receiverParam(query: URLSearchParams): ((name: string) => boolean) | undefined | string {
  const values = query.getAll('receiver');
  const last = values[values.length - 1];
  if (last === undefined || last === '') return undefined;
  const matcher = newMatcher('receiver', '=~', last);
  if (!matcher.ok) return `failed to parse receiver param: ${matcher.error}`;
  return (name) => matcher.value.matchesValue(name);
}
