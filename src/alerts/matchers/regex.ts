import { RE2JS, RE2JSSyntaxException } from 're2js';
import { isWellFormed } from './go-text.js';
import { classEnd, patternLiterals } from './regex-literals.js';
import { failed, parsed, type Parsed } from './result.js';

/** Whether a whole value matches: the pattern is anchored at both ends. */
export type RegexTest = (value: string) => boolean;

/**
 * Compiles `pattern` as Alertmanager does (Go RE2 on `^(?:pattern)$`), with the RE2 port re2js:
 * linear-time matching, no look-around or back-references, ASCII `\d`/`\w`, `.` not matching
 * `\n` without `(?s)`. JavaScript's RegExp never sees user patterns: its syntax and semantics
 * differ (look-ahead, back-references, Unicode classes), so it would accept what Go rejects.
 * Errors carry Go's text: `error parsing regexp: missing closing ): `^(?:()$``.
 *
 * An alternation of plain literals (`a|b|c`) is always valid and is tested as a set, never
 * compiled: a silence listing thousands of instances costs a lookup per value, not a regex
 * run. Other patterns are compiled, and a value without the pattern's literal prefix is refused
 * before the regex runs.
 */
export function compileAnchoredRegex(pattern: string): Parsed<RegexTest> {
  const anchored = `^(?:${pattern})$`;
  if (!isWellFormed(anchored)) return failed(`error parsing regexp: invalid UTF-8: \`${anchored}\``);
  const literals = patternLiterals(pattern);
  const exact = literals.exact;
  if (exact !== undefined) return parsed((value) => exact.has(value));
  let compiled = compile(anchored);
  // Go allows a group name twice (`(?P<x>a)|(?P<x>b)`); re2js does not. Names never change
  // what matches, so compile again without them.
  if (!compiled.ok && compiled.duplicateName) {
    const retry = compile(withoutGroupNames(anchored));
    compiled = retry.ok ? retry : compiled;
  }
  if (!compiled.ok) return failed(compiled.error);
  const { test } = compiled;
  const prefix = literals.prefix;
  return parsed(prefix === '' ? test : (value) => value.startsWith(prefix) && test(value));
}

type Compiled = { ok: true; test: RegexTest } | { ok: false; error: string; duplicateName: boolean };

function compile(anchored: string): Compiled {
  try {
    const re = RE2JS.compile(anchored);
    return { ok: true, test: (value) => re.testExact(value) };
  } catch (error) {
    if (error instanceof RE2JSSyntaxException) {
      // re2js reports Go's error codes; Go always names the expression (the whole one when
      // the error is about its size or depth).
      const expr = error.input ?? anchored;
      return {
        ok: false,
        error: `error parsing regexp: ${error.error}: \`${expr}\``,
        duplicateName: error.error === 'duplicate capture group name',
      };
    }
    const message = error instanceof Error ? error.message : String(error);
    return { ok: false, error: `error parsing regexp: ${message}`, duplicateName: false };
  }
}

/**
 * `(?P<name>` and `(?<name>` turned into `(`, outside character classes, escapes and `\Q...\E`
 * literals. Used only after re2js refused a duplicate name, so the pattern is otherwise valid.
 */
export function withoutGroupNames(pattern: string): string {
  let out = '';
  let i = 0;
  while (i < pattern.length) {
    const char = pattern[i] ?? '';
    if (char === '\\') {
      if (pattern[i + 1] === 'Q') {
        const end = pattern.indexOf('\\E', i + 2);
        const stop = end < 0 ? pattern.length : end + 2;
        out += pattern.slice(i, stop);
        i = stop;
      } else {
        out += pattern.slice(i, i + 2);
        i += 2;
      }
    } else if (char === '[') {
      const end = classEnd(pattern, i);
      out += pattern.slice(i, end);
      i = end;
    } else if (char === '(' && (pattern.startsWith('(?P<', i) || (pattern.startsWith('(?<', i) && !/^\(\?<[=!]/.test(pattern.slice(i, i + 4))))) {
      const close = pattern.indexOf('>', i);
      out += '(';
      i = close < 0 ? pattern.length : close + 1;
    } else {
      out += char;
      i++;
    }
  }
  return out;
}
