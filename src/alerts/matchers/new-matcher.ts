import { compareGoStrings, goQuote, isGoSpace } from './go-text.js';
import type { LabelSet, Matcher, MatchType } from './matcher.js';
import { compileAnchoredRegex, type RegexTest } from './regex.js';
import { failed, parsed, type Parsed } from './result.js';

/** Match types in Alertmanager's enum order (MatchEqual, MatchNotEqual, MatchRegexp, MatchNotRegexp). */
const TYPE_ORDER: Readonly<Record<MatchType, number>> = { '=': 0, '!=': 1, '=~': 2, '!~': 3 };

class LabelMatcher implements Matcher {
  constructor(
    readonly name: string,
    readonly type: MatchType,
    readonly value: string,
    private readonly regex: RegexTest | undefined,
  ) {
    Object.freeze(this);
  }

  matches(labels: LabelSet): boolean {
    return this.matchesValue(labels[this.name] ?? '');
  }

  matchesValue(value: string): boolean {
    switch (this.type) {
      case '=':
        return value === this.value;
      case '!=':
        return value !== this.value;
      case '=~':
        return this.regex !== undefined && this.regex(value);
      case '!~':
        return this.regex === undefined || !this.regex(value);
    }
  }

  toString(): string {
    return formatMatcher(this);
  }
}

/**
 * The one way to make a matcher (filters, silences, routes, inhibition rules), as
 * Alertmanager's NewMatcher: regex types compile `^(?:value)$` and fail with Go's message.
 * Names are not checked here: which names are valid depends on where the matcher comes from.
 */
export function newMatcher(name: string, type: MatchType, value: string): Parsed<Matcher> {
  if (type === '=' || type === '!=') return parsed(new LabelMatcher(name, type, value, undefined));
  const regex = compileAnchoredRegex(value);
  if (!regex.ok) return failed(regex.error);
  return parsed(new LabelMatcher(name, type, value, regex.value));
}

/** Whether a character forces a quoted label name when printing (the UTF-8 lexer's reserved set). */
function isReservedInName(char: string): boolean {
  return isGoSpace(char.codePointAt(0) ?? 0) || '{}!=~,\\"\'`'.includes(char);
}

/** OpenMetrics escaping, what Alertmanager prints classic-looking matcher values with. */
function openMetricsEscape(value: string): string {
  return value.replace(/[\\\n"]/g, (c) => (c === '\n' ? '\\n' : '\\' + c));
}

/**
 * A matcher as Alertmanager's Matcher.String() prints it (route keys, `config.original`,
 * fallback suggestions): `name="value"` with `\`, newline and `"` escaped; when the name needs
 * quoting (it holds a space or one of `{}!=~,\"'` and backquote), name and value are both
 * printed with Go's strconv.Quote.
 */
export function formatMatcher(m: Pick<Matcher, 'name' | 'type' | 'value'>): string {
  if ([...m.name].some(isReservedInName)) return `${goQuote(m.name)}${m.type}${goQuote(m.value)}`;
  return `${m.name}${m.type}"${openMetricsEscape(m.value)}"`;
}

/** Alertmanager's Matchers.String(): `{a="b",c=~"d"}`, in the order given. */
export function formatMatchers(ms: readonly Pick<Matcher, 'name' | 'type' | 'value'>[]): string {
  return `{${ms.map(formatMatcher).join(',')}}`;
}

/** Alertmanager's matcher sort order: by name, then value, then type (=, !=, =~, !~). */
export function compareMatchers(a: Pick<Matcher, 'name' | 'type' | 'value'>, b: Pick<Matcher, 'name' | 'type' | 'value'>): number {
  return compareGoStrings(a.name, b.name) || compareGoStrings(a.value, b.value) || TYPE_ORDER[a.type] - TYPE_ORDER[b.type];
}

/** The matchers sorted (a new array), as Alertmanager sorts a route's or a config list's. */
export function sortMatchers<T extends Pick<Matcher, 'name' | 'type' | 'value'>>(ms: readonly T[]): T[] {
  return [...ms].sort(compareMatchers);
}

/** Same name, type and value: what makes two parsed matchers equal. */
export function sameMatcher(a: Pick<Matcher, 'name' | 'type' | 'value'>, b: Pick<Matcher, 'name' | 'type' | 'value'>): boolean {
  return a.name === b.name && a.type === b.type && a.value === b.value;
}

/** Whether every matcher matches the labels (missing labels count as empty). */
export function matchesAll(ms: readonly Matcher[], labels: LabelSet): boolean {
  for (const m of ms) if (!m.matches(labels)) return false;
  return true;
}
