import { goUnquote } from './go-text.js';
import type { Matcher, MatchType } from './matcher.js';
import { newMatcher } from './new-matcher.js';
import { failed, parsed, type Parsed } from './result.js';
import { MatcherLexer, type Token, type TokenKind } from './utf8-lexer.js';

/**
 * Alertmanager's UTF-8 matcher parser (matcher/parse): `[ "{" ] matcher ("," matcher)* [","]
 * [ "}" ]`, names and values quoted (Go string literals) or unquoted, with the upstream error
 * texts and `columnStart:columnEnd` positions. A state machine like upstream's, each state
 * returning the next one, so errors come out in the same order.
 */
const END_OF_INPUT = 'end of input';
const EXPECTED_EOF = 'expected end of input';
const NO_OPEN_BRACE = 'expected opening brace';
const NO_CLOSE_BRACE = 'expected close brace';
const NO_LABEL_NAME = 'expected label name';
const NO_LABEL_VALUE = 'expected label value';
const NO_OPERATOR = "expected an operator such as '=', '!=', '=~' or '!~'";
const EXPECTED_COMMA = 'expected a comma';
const EXPECTED_COMMA_OR_CLOSE_BRACE = 'expected a comma or close brace';
const EXPECTED_MATCHER_OR_CLOSE_BRACE = 'expected a matcher or close brace after comma';

const OPERATORS: readonly TokenKind[] = ['=', '!=', '=~', '!~'];

/** A peeked or expected token: the token, the end of input, or an error text. */
type Next = { kind: 'token'; token: Token } | { kind: 'eof' } | { kind: 'error'; error: string };

/** A state: the next state, `done`, or an error. */
type Step = State | 'done' | { error: string };
type State = (p: Parser) => Step;

class Parser {
  readonly matchers: Matcher[] = [];
  hasOpenBrace = false;

  constructor(readonly lexer: MatcherLexer) {}

  /** The next token if it is one of `kinds` (not consumed). */
  expectPeek(kinds: readonly TokenKind[]): Next {
    const scanned = this.lexer.peek();
    if (!scanned.ok) return { kind: 'error', error: scanned.error };
    const t = scanned.token;
    if (t.kind === 'eof') return { kind: 'eof' };
    if (!kinds.includes(t.kind)) return { kind: 'error', error: `${t.columnStart}:${t.columnEnd}: unexpected ${t.value}` };
    return { kind: 'token', token: t };
  }

  /** The next token if it is one of `kinds`, consumed. */
  expect(kinds: readonly TokenKind[]): Next {
    const next = this.expectPeek(kinds);
    if (next.kind === 'token') this.lexer.scan();
    return next;
  }
}

function wrap(next: Exclude<Next, { kind: 'token' }>, sentinel: string): { error: string } {
  return { error: `${next.kind === 'eof' ? END_OF_INPUT : next.error}: ${sentinel}` };
}

const parseOpenBrace: State = (p) => {
  const first = p.lexer.peek();
  if (!first.ok) return { error: first.error };
  if (first.token.kind === 'eof') return parseEOF;
  if (first.token.kind === '{') {
    p.hasOpenBrace = true;
    p.lexer.scan();
  }
  const second = p.lexer.peek();
  if (!second.ok) return { error: second.error };
  // With nothing after the open brace, the close brace check reports the missing brace.
  if (second.token.kind === 'eof' || second.token.kind === '}') return parseCloseBrace;
  return parseMatcher;
};

const parseCloseBrace: State = (p) => {
  const next = p.expect(['}']);
  if (p.hasOpenBrace) {
    if (next.kind !== 'token') return { error: `0:${p.lexer.position().columnEnd}: ${wrap(next, NO_CLOSE_BRACE).error}` };
  } else if (next.kind === 'token') {
    return { error: `0:${p.lexer.position().columnEnd}: }: ${NO_OPEN_BRACE}` };
  }
  return parseEOF;
};

const parseMatcher: State = (p) => {
  const nameToken = p.expect(['quoted', 'unquoted']);
  if (nameToken.kind !== 'token') return wrap(nameToken, NO_LABEL_NAME);
  const name = unquote(nameToken.token);
  if (name === undefined) return invalidInput(nameToken.token);

  const operator = p.expect(OPERATORS);
  if (operator.kind !== 'token') return wrap(operator, NO_OPERATOR);
  const type = operator.token.kind as MatchType;

  const valueToken = p.expect(['unquoted', 'quoted']);
  if (valueToken.kind !== 'token') return wrap(valueToken, NO_LABEL_VALUE);
  const value = unquote(valueToken.token);
  if (value === undefined) return invalidInput(valueToken.token);

  const m = newMatcher(name, type, value);
  if (!m.ok) return { error: `failed to create matcher: ${m.error}` };
  p.matchers.push(m.value);
  return parseEndOfMatcher;
};

const parseEndOfMatcher: State = (p) => {
  const next = p.expectPeek([',', '}']);
  if (next.kind === 'eof') return parseCloseBrace;
  if (next.kind === 'error') return wrap(next, EXPECTED_COMMA_OR_CLOSE_BRACE);
  return next.token.kind === ',' ? parseComma : parseCloseBrace;
};

const parseComma: State = (p) => {
  const comma = p.expect([',']);
  if (comma.kind !== 'token') return wrap(comma, EXPECTED_COMMA);
  const next = p.expectPeek(['}', 'unquoted', 'quoted']);
  if (next.kind === 'eof') return parseCloseBrace;
  if (next.kind === 'error') return wrap(next, EXPECTED_MATCHER_OR_CLOSE_BRACE);
  return next.token.kind === '}' ? parseCloseBrace : parseMatcher;
};

const parseEOF: State = (p) => {
  const scanned = p.lexer.scan();
  if (!scanned.ok) return { error: `${scanned.error}: ${EXPECTED_EOF}` };
  const t = scanned.token;
  if (t.kind !== 'eof') return { error: `${t.columnStart}:${t.columnEnd}: ${t.value}: ${EXPECTED_EOF}` };
  return 'done';
};

function unquote(t: Token): string | undefined {
  return t.kind === 'quoted' ? goUnquote(t.value) : t.value;
}

function invalidInput(t: Token): { error: string } {
  return { error: `${t.columnStart}:${t.columnEnd}: ${t.value}: invalid input` };
}

/** Zero or more matchers (an empty input, `{}` or `{,}`-free list); errors as upstream. */
export function parseUtf8Matchers(input: string): Parsed<Matcher[]> {
  const p = new Parser(new MatcherLexer(input));
  let state: State = parseOpenBrace;
  for (;;) {
    const step = state(p);
    if (step === 'done') return parsed(p.matchers);
    if (typeof step !== 'function') return failed(step.error);
    state = step;
  }
}

/** Exactly one matcher: `no matchers` and `expected 1 matcher, found N` otherwise. */
export function parseUtf8Matcher(input: string): Parsed<Matcher> {
  const ms = parseUtf8Matchers(input);
  if (!ms.ok) return ms;
  const [first] = ms.value;
  if (ms.value.length === 1 && first !== undefined) return parsed(first);
  if (ms.value.length === 0) return failed('no matchers');
  return failed(`expected 1 matcher, found ${ms.value.length}`);
}
