/**
 * Label matchers as Alertmanager parses, prints and evaluates them (filters, silences, routes,
 * inhibition rules). Regexes are Go RE2 (re2js), fully anchored.
 */
export type { LabelSet, Matcher, MatchType } from './matcher.js';
export type { Parsed } from './result.js';
export { parseFilterMatcher, parseMatchersList } from './compat.js';
export { parseClassicMatcher, parseClassicMatchers } from './classic-parser.js';
export { parseUtf8Matcher, parseUtf8Matchers } from './utf8-parser.js';
export { compareMatchers, formatMatcher, formatMatchers, matchesAll, newMatcher, sameMatcher, sortMatchers } from './new-matcher.js';
export { compileAnchoredRegex, type RegexTest } from './regex.js';
export { patternLiterals, type PatternLiterals } from './regex-literals.js';
export { isLegacyLabelName, isUtf8LabelName } from './label-name.js';
export { compareGoStrings, goQuote, goUnquote, isWellFormed } from './go-text.js';
