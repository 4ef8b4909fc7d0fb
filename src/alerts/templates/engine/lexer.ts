/**
 * Go text/template's lexer (text/template/parse/lex.go): the template text cut into items,
 * with `{{-` / `-}}` trimming and comments applied. Positions are UTF-16 offsets into the text;
 * errors report Go's line numbers, and columns are turned into Go's byte columns where they are
 * printed.
 */

export type ItemType =
  | 'text'
  | 'leftDelim'
  | 'rightDelim'
  | 'space'
  | 'identifier'
  | 'keyword'
  | 'field'
  | 'variable'
  | 'string'
  | 'rawString'
  | 'char'
  | 'number'
  | 'bool'
  | 'nil'
  | 'dot'
  | 'pipe'
  | 'leftParen'
  | 'rightParen'
  | 'declare'
  | 'assign'
  | 'comma'
  | 'eof'
  | 'error';

export interface Item {
  type: ItemType;
  /** The item's text (for `error`, the message). */
  value: string;
  /** Offset of the item in the template text. */
  pos: number;
  /** Line of the item (1-based), as Go counts it. */
  line: number;
}

export const KEYWORDS = new Set(['block', 'break', 'continue', 'define', 'else', 'end', 'if', 'range', 'template', 'with']);

const LEFT = '{{';
const RIGHT = '}}';
const TRIM_MARKER = '-';
const COMMENT_OPEN = '/*';
const COMMENT_CLOSE = '*/';

const isSpace = (c: string | undefined): boolean => c === ' ' || c === '\t' || c === '\r' || c === '\n';
const isAlphaNumeric = (c: string | undefined): boolean => c !== undefined && (c === '_' || /^[\p{L}\p{Nd}]$/u.test(c));

/** Cuts `text` into items; the last is `eof` or `error`. */
export function lex(text: string): Item[] {
  return new Lexer(text).run();
}

class Lexer {
  private readonly items: Item[] = [];
  private pos = 0;
  private start = 0;
  private line = 1;
  private startLine = 1;
  private parenDepth = 0;
  private trimNextText = false;

  constructor(private readonly input: string) {}

  run(): Item[] {
    while (this.lexText()) {
      if (!this.lexAction()) break;
    }
    return this.items;
  }

  private emit(type: ItemType, value = this.input.slice(this.start, this.pos)): void {
    this.items.push({ type, value, pos: this.start, line: this.startLine });
    this.start = this.pos;
    this.startLine = this.line;
  }

  private ignore(): void {
    this.line += countNewlines(this.input.slice(this.start, this.pos));
    this.start = this.pos;
    this.startLine = this.line;
  }

  private advance(n: number): void {
    this.line += countNewlines(this.input.slice(this.pos, this.pos + n));
    this.pos += n;
  }

  private fail(message: string): false {
    this.items.push({ type: 'error', value: message, pos: this.start, line: this.startLine });
    return false;
  }

  /** Text up to the next `{{`; false at the end of the input. */
  private lexText(): boolean {
    const at = this.input.indexOf(LEFT, this.pos);
    const end = at < 0 ? this.input.length : at;
    if (this.trimNextText) {
      while (this.pos < end && isSpace(this.input[this.pos])) this.advance(1);
      this.ignore();
      this.trimNextText = false;
    }
    let textEnd = end;
    const trimLeft = at >= 0 && this.input[at + LEFT.length] === TRIM_MARKER && isSpace(this.input[at + LEFT.length + 1]);
    if (trimLeft) while (textEnd > this.pos && isSpace(this.input[textEnd - 1])) textEnd--;
    if (textEnd > this.pos) {
      this.advance(textEnd - this.pos);
      this.emit('text');
    }
    this.advance(end - this.pos);
    this.ignore();
    if (at < 0) {
      this.emit('eof', '');
      return false;
    }
    return true;
  }

  /** One action from its `{{` to its `}}`; false when the input ended or was in error. */
  private lexAction(): boolean {
    let skip = LEFT.length;
    const trimLeft = this.input[this.pos + LEFT.length] === TRIM_MARKER && isSpace(this.input[this.pos + LEFT.length + 1]);
    if (trimLeft) skip += 2;
    const afterDelim = this.pos + skip;
    if (this.input.startsWith(COMMENT_OPEN, afterDelim)) return this.lexComment(afterDelim);
    this.advance(LEFT.length);
    this.emit('leftDelim');
    if (trimLeft) {
      this.advance(2);
      this.ignore();
    }
    this.parenDepth = 0;
    return this.lexInsideAction();
  }

  private lexComment(at: number): boolean {
    const close = this.input.indexOf(COMMENT_CLOSE, at + COMMENT_OPEN.length);
    if (close < 0) return this.fail('unclosed comment');
    let after = close + COMMENT_CLOSE.length;
    const trimRight = this.input.startsWith(' ' + TRIM_MARKER + RIGHT, after) || this.input.startsWith('\t' + TRIM_MARKER + RIGHT, after);
    if (trimRight) after += 2;
    if (!this.input.startsWith(RIGHT, after)) return this.fail('comment ends before closing delimiter');
    this.advance(after + RIGHT.length - this.pos);
    this.ignore();
    this.trimNextText = trimRight;
    return true;
  }

  private atRightDelim(): { trim: boolean } | undefined {
    if (isSpace(this.input[this.pos]) && this.input[this.pos + 1] === TRIM_MARKER && this.input.startsWith(RIGHT, this.pos + 2)) return { trim: true };
    if (this.input.startsWith(RIGHT, this.pos)) return { trim: false };
    return undefined;
  }

  private lexInsideAction(): boolean {
    for (;;) {
      const delim = this.atRightDelim();
      if (delim !== undefined && this.parenDepth === 0) {
        if (delim.trim) {
          this.advance(2);
          this.ignore();
        }
        this.advance(RIGHT.length);
        this.emit('rightDelim');
        this.trimNextText = delim.trim;
        return true;
      }
      const c = this.input[this.pos];
      if (c === undefined) return this.fail('unclosed action');
      if (isSpace(c)) {
        let end = this.pos;
        while (isSpace(this.input[end]) && !(this.input[end + 1] === TRIM_MARKER && this.input.startsWith(RIGHT, end + 2))) end++;
        if (end === this.pos) end++;
        const spaces = this.input.slice(this.pos, end);
        // A newline inside an action is allowed since Go 1.16 (only inside the action itself).
        this.advance(spaces.length);
        this.emit('space');
        continue;
      }
      if (!this.lexToken(c)) return false;
    }
  }

  private lexToken(c: string): boolean {
    const next = this.input[this.pos + 1];
    if (c === '=') return this.single('assign');
    if (c === ':') {
      if (next !== '=') return this.fail('expected :=');
      this.advance(2);
      this.emit('declare');
      return true;
    }
    if (c === '|') return this.single('pipe');
    if (c === ',') return this.single('comma');
    if (c === '"') return this.lexQuoted('"', 'string', 'unterminated quoted string');
    if (c === '`') return this.lexRawQuote();
    if (c === "'") return this.lexQuoted("'", 'char', 'unterminated character constant');
    if (c === '$') return this.lexWord('variable', 1);
    if (c === '.') {
      if (next !== undefined && next >= '0' && next <= '9') return this.lexNumber();
      if (isAlphaNumeric(next)) return this.lexWord('field', 1);
      return this.single('dot');
    }
    if (c === '+' || c === '-' || (c >= '0' && c <= '9')) return this.lexNumber();
    if (isAlphaNumeric(c)) return this.lexWord('identifier', 0);
    if (c === '(') {
      this.parenDepth++;
      return this.single('leftParen');
    }
    if (c === ')') {
      this.parenDepth--;
      if (this.parenDepth < 0) return this.fail('unexpected right paren');
      return this.single('rightParen');
    }
    if (c === '}' || c === '{') return this.fail(`unexpected "${c}" in command`);
    return this.fail(`unrecognized character in action: ${goCharQuote(c)}`);
  }

  private single(type: ItemType): boolean {
    this.advance(1);
    this.emit(type);
    return true;
  }

  /** An identifier, `.field` or `$variable`: `prefix` characters, then letters, digits and `_`. */
  private lexWord(type: 'identifier' | 'field' | 'variable', prefix: number): boolean {
    let end = this.pos + prefix;
    while (end < this.input.length) {
      const cp = this.input.codePointAt(end) ?? 0;
      const char = String.fromCodePoint(cp);
      if (!isAlphaNumeric(char)) break;
      end += char.length;
    }
    const word = this.input.slice(this.pos, end);
    this.advance(end - this.pos);
    if (!this.atTerminator()) return this.fail(`bad character ${goCharQuote(this.input[this.pos] ?? '')}`);
    if (type !== 'identifier') {
      this.emit(type, word);
      return true;
    }
    if (KEYWORDS.has(word)) this.emit('keyword', word);
    else if (word === 'true' || word === 'false') this.emit('bool', word);
    else if (word === 'nil') this.emit('nil', word);
    else this.emit('identifier', word);
    return true;
  }

  /** Go's atTerminator: what may follow a word. */
  private atTerminator(): boolean {
    const c = this.input[this.pos];
    if (c === undefined || isSpace(c) || c === '.' || c === ',' || c === '|' || c === ':' || c === ')' || c === '(' || c === '=') return true;
    return this.input.startsWith(RIGHT, this.pos);
  }

  /** A `"` string or `'` character constant, with backslash escapes, on one line. */
  private lexQuoted(quote: string, type: 'string' | 'char', unterminated: string): boolean {
    let i = this.pos + 1;
    for (;;) {
      const c = this.input[i];
      if (c === '\\') {
        i += 2;
        continue;
      }
      if (c === undefined || c === '\n') return this.fail(unterminated);
      if (c === quote) break;
      i++;
    }
    this.advance(i + 1 - this.pos);
    this.emit(type);
    return true;
  }

  private lexRawQuote(): boolean {
    const close = this.input.indexOf('`', this.pos + 1);
    if (close < 0) return this.fail('unterminated raw quoted string');
    this.advance(close + 1 - this.pos);
    this.emit('rawString');
    return true;
  }

  private lexNumber(): boolean {
    const match = /^[+-]?(0[xX][0-9a-fA-F_]*(\.[0-9a-fA-F_]*)?([pP][+-]?[0-9_]+)?|0[bB][01_]+|0[oO][0-7_]+|[0-9_]*(\.[0-9_]*)?([eE][+-]?[0-9_]+)?)i?/.exec(this.input.slice(this.pos));
    const text = match?.[0] ?? '';
    const after = this.input[this.pos + text.length];
    if (text === '' || text === '+' || text === '-' || isAlphaNumeric(after)) {
      let end = this.pos + Math.max(text.length, 1);
      while (isAlphaNumeric(this.input[end])) end++;
      return this.fail(`bad number syntax: "${this.input.slice(this.pos, end)}"`);
    }
    this.advance(text.length);
    this.emit('number');
    return true;
  }
}

function countNewlines(text: string): number {
  let n = 0;
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) n++;
  return n;
}

/** Go's %#U-free quoting of one rune as lex errors print it (`'x'`). */
function goCharQuote(c: string): string {
  return c === "'" ? "'\\''" : `'${c}'`;
}
