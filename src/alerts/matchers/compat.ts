import { parseClassicMatcher, parseClassicMatchers } from './classic-parser.js';
import type { Matcher } from './matcher.js';
import { sameMatcher } from './new-matcher.js';
import { failed, type Parsed } from './result.js';
import { parseUtf8Matcher, parseUtf8Matchers } from './utf8-parser.js';

/**
 * Alertmanager's fallback mode (matcher/compat, the default since 0.27): every input goes to
 * both the UTF-8 and the classic parser. Both fail: the classic error. Only the UTF-8 one
 * fails: the classic result (upstream logs a warning). Both succeed but disagree: the classic
 * result. Otherwise the UTF-8 result.
 */
function fallback<T>(utf8: Parsed<T>, classic: Parsed<T>, same: (a: T, b: T) => boolean): Parsed<T> {
  if (!utf8.ok) return classic;
  if (classic.ok && !same(utf8.value, classic.value)) return classic;
  return utf8;
}

function sameMatchers(a: readonly Matcher[], b: readonly Matcher[]): boolean {
  if (a.length !== b.length) return false;
  return a.every((m, i) => {
    const other = b[i];
    return other !== undefined && sameMatcher(m, other);
  });
}

/**
 * One `filter` (GET /alerts, /alerts/groups, /silences) or `receiver_matchers` value:
 * exactly one matcher, no braces (`unexpected open or close brace: <input>`).
 *
 * One deviation from Alertmanager >= 0.27: a value that only ends in a brace is accepted when
 * the classic parser reads it. amtool 0.25 sends `alertname={alertname=test3}` unquoted for
 * `amtool alert query '{alertname=test3}'`, which Alertmanager 0.25 (classic only) answered;
 * the brace check would refuse it. A leading brace (`{a="b"}`) is still refused.
 */
export function parseFilterMatcher(input: string): Parsed<Matcher> {
  if (input.startsWith('{')) return failed(`unexpected open or close brace: ${input}`);
  if (input.endsWith('}')) {
    const classic = parseClassicMatcher(input);
    return classic.ok ? classic : failed(`unexpected open or close brace: ${input}`);
  }
  return fallback(parseUtf8Matcher(input), parseClassicMatcher(input), sameMatcher);
}

/**
 * One entry of a configuration `matchers:` list (routes, inhibition rules): any number of
 * comma-separated matchers, braces allowed (compat.Matchers).
 */
export function parseMatchersList(input: string): Parsed<Matcher[]> {
  return fallback(parseUtf8Matchers(input), parseClassicMatchers(input), sameMatchers);
}

