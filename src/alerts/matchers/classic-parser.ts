import { isGoSpace, isRegexpSpace, isWellFormed } from './go-text.js';
import type { Matcher, MatchType } from './matcher.js';
import { newMatcher } from './new-matcher.js';
import { failed, parsed, type Parsed } from './result.js';

/**
 * The classic matcher parser (Alertmanager's pkg/labels.ParseMatcher, the only one before
 * 0.27 and the fallback since). The input must match
 * `^\s*([a-zA-Z_:][a-zA-Z0-9_:]*)\s*(=~|=|!=|!~)\s*((?s).*?)\s*$`, read here by hand (the
 * regex is deterministic, so no backtracking is lost). The value may be double-quoted; `\n`,
 * `\"` and `\\` are unescaped, any other backslash is literal.
 */
export function parseClassicMatcher(input: string): Parsed<Matcher> {
  const split = splitMatcher(input);
  if (split === undefined) return failed(`bad matcher format: ${input}`);
  const { name, type, raw } = split;

  let rawValue = raw;
  let expectTrailingQuote = false;
  if (rawValue.startsWith('"')) {
    rawValue = rawValue.slice(1);
    expectTrailingQuote = true;
  }
  if (!isWellFormed(rawValue)) return failed(`matcher value not valid UTF-8: ${raw}`);

  let value = '';
  let escaped = false;
  const last = rawValue.length - 1;
  for (let i = 0; i < rawValue.length; i++) {
    const char = rawValue[i] ?? '';
    if (escaped) {
      escaped = false;
      if (char === 'n') value += '\n';
      else if (char === '"' || char === '\\') value += char;
      else value += '\\' + char; // a spurious escape keeps its backslash
      continue;
    }
    if (char === '\\') {
      if (i < last) escaped = true;
      else value += '\\'; // a trailing backslash is literal
    } else if (char === '"') {
      if (!expectTrailingQuote || i < last) return failed(`matcher value contains unescaped double quote: ${raw}`);
      expectTrailingQuote = false;
    } else {
      value += char;
    }
  }
  if (expectTrailingQuote) return failed(`matcher value contains unescaped double quote: ${raw}`);
  return newMatcher(name, type, value);
}

interface SplitMatcher {
  name: string;
  type: MatchType;
  /** Everything after the operator, leading and trailing `\s` removed. */
  raw: string;
}

function isNameStart(c: number): boolean {
  return (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a) || c === 0x5f || c === 0x3a;
}

function isNameChar(c: number): boolean {
  return isNameStart(c) || (c >= 0x30 && c <= 0x39);
}

function splitMatcher(input: string): SplitMatcher | undefined {
  let i = 0;
  const skipSpace = (): void => {
    while (i < input.length && isRegexpSpace(input.charCodeAt(i))) i++;
  };
  skipSpace();
  const nameStart = i;
  if (!isNameStart(input.charCodeAt(i))) return undefined;
  while (i < input.length && isNameChar(input.charCodeAt(i))) i++;
  const name = input.slice(nameStart, i);
  skipSpace();
  let type: MatchType;
  if (input.startsWith('=~', i)) type = '=~';
  else if (input.startsWith('=', i)) type = '=';
  else if (input.startsWith('!=', i)) type = '!=';
  else if (input.startsWith('!~', i)) type = '!~';
  else return undefined;
  i += type.length;
  skipSpace();
  let end = input.length;
  while (end > i && isRegexpSpace(input.charCodeAt(end - 1))) end--;
  return { name, type, raw: input.slice(i, end) };
}

/**
 * The classic list parser (pkg/labels.ParseMatchers): an optional `{` and `}` trimmed, then
 * comma-separated matchers, commas inside double quotes (not `\"`) not separating, a final
 * empty element dropped.
 */
export function parseClassicMatchers(input: string): Parsed<Matcher[]> {
  let s = input.startsWith('{') ? input.slice(1) : input;
  if (s.endsWith('}')) s = s.slice(0, -1);

  const tokens: string[] = [];
  let token = '';
  let insideQuotes = false;
  let escaped = false;
  for (const char of s) {
    if (char === ',') {
      if (!insideQuotes) {
        tokens.push(token);
        token = '';
        continue;
      }
    } else if (char === '"') {
      if (!escaped) insideQuotes = !insideQuotes;
      else escaped = false;
    } else if (char === '\\') {
      escaped = !escaped;
    } else {
      escaped = false;
    }
    token += char;
  }
  const lastToken = trimGoSpace(token);
  if (lastToken !== '') tokens.push(lastToken);

  const matchers: Matcher[] = [];
  for (const t of tokens) {
    const m = parseClassicMatcher(t);
    if (!m.ok) return m;
    matchers.push(m.value);
  }
  return parsed(matchers);
}

/** Go's strings.TrimSpace (unicode.IsSpace at both ends). */
function trimGoSpace(s: string): string {
  let start = 0;
  let end = s.length;
  while (start < end && isGoSpace(s.charCodeAt(start))) start++;
  while (end > start && isGoSpace(s.charCodeAt(end - 1))) end--;
  return s.slice(start, end);
}
