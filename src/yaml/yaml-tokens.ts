import { CST, Lexer } from 'yaml';

/** Whether a token is the content of a plain or a block scalar: the two libyaml reads on past a line break. */
export type TokenKind = 'plain' | 'block' | 'other';

interface Token {
  kind: TokenKind;
  /** The `yaml` package's token type (`map-value-ind`, `space`, `comment`...); null for scalar contents. */
  type: string | null;
  offset: number;
}

/** The `yaml` package's lexical tokens of `text`, with their offsets in it. */
function* tokens(text: string): Generator<Token> {
  let offset = 0;
  let scalarNext = false;
  let afterBlockHeader = false;
  for (const token of new Lexer().lex(text)) {
    const type = CST.tokenType(token);
    // Control tokens the lexer adds: not in the text.
    if (type === 'doc-mode' || type === 'flow-error-end' || type === 'scalar') {
      scalarNext = type === 'scalar';
      continue;
    }
    const kind: TokenKind = !scalarNext ? 'other' : afterBlockHeader ? 'block' : 'plain';
    yield { kind, type: scalarNext ? null : type, offset };
    if (type !== 'space' && type !== 'newline') afterBlockHeader = type === 'block-scalar-header';
    scalarNext = false;
    offset += token.length;
  }
}

/** Which kind of token is the last before `offset`, past spaces and line breaks. */
export function lastTokenBefore(text: string, offset: number): TokenKind {
  let last: TokenKind = 'other';
  for (const token of tokens(text)) {
    if (token.offset >= offset) break;
    if (token.kind !== 'other' || (token.type !== 'space' && token.type !== 'newline')) last = token.kind;
  }
  return last;
}

/** The offset of the first `:` value indicator at or after `offset` (`offset` itself if there is none). */
export function nextValueIndicator(text: string, offset: number): number {
  for (const token of tokens(text)) if (token.offset >= offset && token.type === 'map-value-ind') return token.offset;
  return offset;
}
