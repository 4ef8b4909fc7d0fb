import { isGoSpace } from './go-text.js';

/**
 * The lexer of Alertmanager's UTF-8 matcher parser (matcher/parse). Tokens: `{`, `}`, `,`, the
 * four operators, double-quoted Go string literals (unquoted later), and unquoted runs of
 * anything but whitespace and `{}!=~,\"'` and backquote. Positions are kept as offsets into the
 * input (for slicing) and as columns counted in code points (what error messages print).
 */
export type TokenKind = 'eof' | '{' | '}' | ',' | '=' | '!=' | '=~' | '!~' | 'quoted' | 'unquoted';

export interface Position {
  offsetStart: number;
  offsetEnd: number;
  columnStart: number;
  columnEnd: number;
}

export interface Token extends Position {
  kind: TokenKind;
  value: string;
}

const EOF_TOKEN: Token = { kind: 'eof', value: '', offsetStart: 0, offsetEnd: 0, columnStart: 0, columnEnd: 0 };

export type Scanned = { ok: true; token: Token } | { ok: false; error: string };

function isReserved(char: string): boolean {
  return isGoSpace(char.codePointAt(0) ?? 0) || '{}!=~,\\"\'`'.includes(char);
}

interface Cursor {
  /** Offset where the current token starts. */
  start: number;
  /** Offset of the next character. */
  pos: number;
  /** Length of the character `next` returned last (0 at the end of input). */
  width: number;
  /** Column where the current token starts. */
  column: number;
  /** Columns consumed so far. */
  cols: number;
}

export class MatcherLexer {
  private error: string | undefined;
  private c: Cursor = { start: 0, pos: 0, width: 0, column: 0, cols: 0 };

  constructor(private readonly input: string) {}

  /** The next token; the first error repeats on every later call. */
  scan(): Scanned {
    if (this.error !== undefined) return { ok: false, error: this.error };
    const result = this.scanToken();
    if (!result.ok) this.error = result.error;
    return result;
  }

  /** The next token without consuming it (an error is kept, as scan would report it). */
  peek(): Scanned {
    const saved = { ...this.c };
    const result = this.scan();
    this.c = saved;
    return result;
  }

  /** Where the cursor is: the current token's start and what has been consumed. */
  position(): Position {
    return { offsetStart: this.c.start, offsetEnd: this.c.pos, columnStart: this.c.column, columnEnd: this.c.cols };
  }

  private scanToken(): Scanned {
    for (let char = this.next(); char !== undefined; char = this.next()) {
      switch (char) {
        case '{':
        case '}':
        case ',':
          return { ok: true, token: this.emit(char) };
        case '=':
        case '!':
          this.rewind();
          return this.scanOperator();
        case '"':
          this.rewind();
          return this.scanQuoted();
      }
      if (!isReserved(char)) {
        this.rewind();
        return this.scanUnquoted();
      }
      if (isGoSpace(char.codePointAt(0) ?? 0)) {
        this.skip();
        continue;
      }
      return { ok: false, error: this.invalidInput() };
    }
    return { ok: true, token: EOF_TOKEN };
  }

  private scanOperator(): Scanned {
    if (this.accept('!')) {
      if (this.accept('=')) return { ok: true, token: this.emit('!=') };
      if (this.accept('~')) return { ok: true, token: this.emit('!~') };
      return { ok: false, error: this.expected('=~') };
    }
    if (this.accept('=')) {
      if (this.accept('~')) return { ok: true, token: this.emit('=~') };
      return { ok: true, token: this.emit('=') };
    }
    return { ok: false, error: this.expected('!=') };
  }

  private scanQuoted(): Scanned {
    this.accept('"');
    let escaped = false;
    for (let char = this.next(); char !== undefined; char = this.next()) {
      if (escaped) escaped = false;
      else if (char === '\\') escaped = true;
      else if (char === '"') {
        this.rewind();
        break;
      }
    }
    if (!this.accept('"')) {
      const p = this.position();
      return { ok: false, error: `${p.columnStart}:${p.columnEnd}: ${this.input.slice(p.offsetStart, p.offsetEnd)}: missing end "` };
    }
    return { ok: true, token: this.emit('quoted') };
  }

  private scanUnquoted(): Scanned {
    for (let char = this.next(); char !== undefined; char = this.next()) {
      if (isReserved(char)) {
        this.rewind();
        break;
      }
    }
    return { ok: true, token: this.emit('unquoted') };
  }

  private expected(chars: string): string {
    const p = this.position();
    if (p.offsetEnd >= this.input.length) return `${p.columnStart}:${p.columnEnd}: unexpected end of input, expected one of '${chars}'`;
    return `${p.columnStart}:${p.columnEnd}: ${this.input.slice(p.offsetStart, p.offsetEnd)}: expected one of '${chars}'`;
  }

  private invalidInput(): string {
    const p = this.position();
    return `${p.columnStart}:${p.columnEnd}: ${this.input.slice(p.offsetStart, p.offsetEnd)}: invalid input`;
  }

  private accept(char: string): boolean {
    if (this.next() === char) return true;
    this.rewind();
    return false;
  }

  private emit(kind: TokenKind): Token {
    const token: Token = { kind, value: this.input.slice(this.c.start, this.c.pos), ...this.position() };
    this.skip();
    return token;
  }

  /** The next character (a whole code point), or undefined at the end. */
  private next(): string | undefined {
    if (this.c.pos >= this.input.length) {
      this.c.width = 0;
      return undefined;
    }
    const cp = this.input.codePointAt(this.c.pos) ?? 0;
    const char = String.fromCodePoint(cp);
    this.c.width = char.length;
    this.c.pos += char.length;
    this.c.cols++;
    return char;
  }

  /** Steps back over the last character; at the end of input there is nothing to undo. */
  private rewind(): void {
    this.c.pos -= this.c.width;
    if (this.c.width > 0) this.c.cols--;
  }

  private skip(): void {
    this.c.start = this.c.pos;
    this.c.column = this.c.cols;
  }
}
