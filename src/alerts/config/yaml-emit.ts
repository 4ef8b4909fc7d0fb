import { resolvePlain } from '../../yaml/index.js';

/**
 * A YAML writer that prints what Go's gopkg.in/yaml.v2 Marshal prints (Alertmanager's
 * `Config.String()`): block style with two-space indentation, sequences inside mappings not
 * indented, empty collections as `[]`/`{}`, and yaml.v2's choice of scalar style: plain when
 * the text would read back as the same string, else single quotes (indicator characters such
 * as a leading `.` of `...`), else double quotes (text that reads as another type, like `true`
 * or `""`, and anything non-printable, escaped), literal `|` blocks for multi-line text, and
 * lines folded after column 80 at spaces.
 */
export type YamlOut =
  | { readonly t: 'str'; readonly v: string }
  /** Printed as is: booleans and numbers. */
  | { readonly t: 'lit'; readonly v: string }
  | { readonly t: 'map'; readonly entries: ReadonlyArray<readonly [string, YamlOut]> }
  | { readonly t: 'seq'; readonly items: readonly YamlOut[]; readonly flow?: boolean };

export const str = (v: string): YamlOut => ({ t: 'str', v });
export const lit = (v: string | number | boolean | bigint): YamlOut => ({ t: 'lit', v: String(v) });
export const map = (entries: ReadonlyArray<readonly [string, YamlOut]>): YamlOut => ({ t: 'map', entries });
export const seq = (items: readonly YamlOut[], flow = false): YamlOut => ({ t: 'seq', items, flow });

/** yaml.v2's preferred line width. */
const BEST_WIDTH = 80;
const BEST_INDENT = 2;

export function emitYaml(root: YamlOut): string {
  const w = new Writer();
  w.node(root, -1, { mappingContext: false });
  w.endDocument();
  return w.text;
}

interface ScalarAnalysis {
  multiline: boolean;
  flowPlainAllowed: boolean;
  blockPlainAllowed: boolean;
  singleQuotedAllowed: boolean;
  blockAllowed: boolean;
}

const isBreakChar = (c: string): boolean => c === '\n' || c === '\r' || c === '\u0085' || c === '\u2028' || c === '\u2029';
const isBlank = (c: string | undefined): boolean => c === ' ' || c === '\t';
const isBlankOrBreakOrEnd = (c: string | undefined): boolean => c === undefined || c === '\0' || isBlank(c) || isBreakChar(c);

/** libyaml's printable set (as yaml.v2 has it): no tabs or controls, no astral code points. */
function isPrintable(c: string): boolean {
  const cp = c.codePointAt(0) ?? 0;
  if (cp === 0x0a) return true;
  if (cp >= 0x20 && cp <= 0x7e) return true;
  if (cp >= 0xa0 && cp <= 0xd7ff) return true;
  return cp >= 0xe000 && cp <= 0xfffd && cp !== 0xfeff;
}

/** libyaml's yaml_emitter_analyze_scalar, over code points. */
function analyzeScalar(value: string): ScalarAnalysis {
  const chars = [...value];
  if (chars.length === 0) {
    return { multiline: false, flowPlainAllowed: false, blockPlainAllowed: true, singleQuotedAllowed: true, blockAllowed: false };
  }
  let blockIndicators = false;
  let flowIndicators = false;
  let lineBreaks = false;
  let specialCharacters = false;
  let leadingSpace = false;
  let leadingBreak = false;
  let trailingSpace = false;
  let trailingBreak = false;
  let breakSpace = false;
  let spaceBreak = false;
  let previousSpace = false;
  let previousBreak = false;
  if (value.startsWith('---') || value.startsWith('...')) {
    blockIndicators = true;
    flowIndicators = true;
  }
  let precededByWhitespace = true;
  for (let i = 0; i < chars.length; i++) {
    const c = chars[i] ?? '';
    const next = chars[i + 1];
    const followedByWhitespace = next === undefined || isBlank(next);
    if (i === 0) {
      if ('#,[]{}&*!|>\'"%@`'.includes(c)) {
        flowIndicators = true;
        blockIndicators = true;
      } else if (c === '?' || c === ':') {
        flowIndicators = true;
        if (followedByWhitespace) blockIndicators = true;
      } else if (c === '-' && followedByWhitespace) {
        flowIndicators = true;
        blockIndicators = true;
      }
    } else if (',?[]{}'.includes(c)) {
      flowIndicators = true;
    } else if (c === ':') {
      flowIndicators = true;
      if (followedByWhitespace) blockIndicators = true;
    } else if (c === '#' && precededByWhitespace) {
      flowIndicators = true;
      blockIndicators = true;
    }
    if (!isPrintable(c)) specialCharacters = true;
    if (c === ' ') {
      if (i === 0) leadingSpace = true;
      if (i === chars.length - 1) trailingSpace = true;
      if (previousBreak) breakSpace = true;
      previousSpace = true;
      previousBreak = false;
    } else if (isBreakChar(c)) {
      lineBreaks = true;
      if (i === 0) leadingBreak = true;
      if (i === chars.length - 1) trailingBreak = true;
      if (previousSpace) spaceBreak = true;
      previousSpace = false;
      previousBreak = true;
    } else {
      previousSpace = false;
      previousBreak = false;
    }
    precededByWhitespace = isBlankOrBreakOrEnd(c);
  }
  const a: ScalarAnalysis = { multiline: lineBreaks, flowPlainAllowed: true, blockPlainAllowed: true, singleQuotedAllowed: true, blockAllowed: true };
  if (leadingSpace || leadingBreak || trailingSpace || trailingBreak) {
    a.flowPlainAllowed = false;
    a.blockPlainAllowed = false;
  }
  if (trailingSpace) a.blockAllowed = false;
  if (breakSpace) {
    a.flowPlainAllowed = false;
    a.blockPlainAllowed = false;
    a.singleQuotedAllowed = false;
  }
  if (spaceBreak || specialCharacters) {
    a.flowPlainAllowed = false;
    a.blockPlainAllowed = false;
    a.singleQuotedAllowed = false;
    a.blockAllowed = false;
  }
  if (lineBreaks) {
    a.flowPlainAllowed = false;
    a.blockPlainAllowed = false;
  }
  if (flowIndicators) a.flowPlainAllowed = false;
  if (blockIndicators) a.blockPlainAllowed = false;
  return a;
}

/** yaml.v2 quotes strings a YAML 1.1 reader would take for sexagesimal floats (`1:30`). */
function isBase60Float(s: string): boolean {
  return /^[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+(?:\.[0-9_]*)?$/.test(s);
}

type Style = 'plain' | 'single' | 'double' | 'literal';

interface ScalarContext {
  simpleKey: boolean;
  flow: boolean;
}

/** yaml.v2's requested style for a Go string, then libyaml's fallbacks. */
function scalarStyle(value: string, ctx: ScalarContext): Style {
  let style: Style;
  if (value.includes('\n')) style = 'literal';
  else if (resolvePlain(value).tag === '!!str' && !isBase60Float(value)) style = 'plain';
  else style = 'double';
  const a = analyzeScalar(value);
  if (style === 'plain') {
    if ((ctx.flow && !a.flowPlainAllowed) || (!ctx.flow && !a.blockPlainAllowed)) style = 'single';
    if (value.length === 0 && (ctx.flow || ctx.simpleKey)) style = 'single';
  }
  if (style === 'single' && !a.singleQuotedAllowed) style = 'double';
  if (style === 'literal' && (!a.blockAllowed || ctx.flow || ctx.simpleKey)) style = 'double';
  return style;
}

function doubleQuotedEscape(c: string): string {
  const cp = c.codePointAt(0) ?? 0;
  switch (cp) {
    case 0x00:
      return '\\0';
    case 0x07:
      return '\\a';
    case 0x08:
      return '\\b';
    case 0x09:
      return '\\t';
    case 0x0a:
      return '\\n';
    case 0x0b:
      return '\\v';
    case 0x0c:
      return '\\f';
    case 0x0d:
      return '\\r';
    case 0x1b:
      return '\\e';
    case 0x22:
      return '\\"';
    case 0x5c:
      return '\\\\';
    case 0x85:
      return '\\N';
    case 0xa0:
      return '\\_';
    case 0x2028:
      return '\\L';
    case 0x2029:
      return '\\P';
    default: {
      const hex = cp.toString(16).toUpperCase();
      if (cp <= 0xff) return '\\x' + hex.padStart(2, '0');
      if (cp <= 0xffff) return '\\u' + hex.padStart(4, '0');
      return '\\U' + hex.padStart(8, '0');
    }
  }
}

class Writer {
  text = '';
  private column = 0;
  /** At the start of a line, only indentation written so far. */
  private indention = true;
  /** The last character written was whitespace (or nothing yet). */
  private whitespace = true;

  private put(s: string): void {
    for (const c of s) {
      this.text += c;
      this.column++;
    }
  }

  private putBreak(): void {
    this.text += '\n';
    this.column = 0;
  }

  /** Starts a line at `indent` unless the cursor already stands there. */
  private writeIndent(indent: number): void {
    const target = Math.max(indent, 0);
    if (!this.indention || this.column > target || (this.column === target && !this.whitespace)) this.putBreak();
    while (this.column < target) this.put(' ');
    this.whitespace = true;
    this.indention = true;
  }

  /** An indicator (`-`, `:`, `[`...): a space before it unless at whitespace. */
  private indicator(s: string, needWhitespace: boolean, isWhitespace: boolean, isIndention: boolean): void {
    if (needWhitespace && !this.whitespace) this.put(' ');
    this.put(s);
    this.whitespace = isWhitespace;
    this.indention = this.indention && isIndention;
  }

  endDocument(): void {
    if (this.column > 0 || !this.indention) this.putBreak();
  }

  /**
   * Writes a node in block context. `indent` is the indentation of the collection holding it
   * (-1 for the document); `mappingContext` marks a mapping value (its sequence is not indented).
   */
  node(n: YamlOut, indent: number, ctx: { mappingContext: boolean }): void {
    if (n.t === 'str' || n.t === 'lit') {
      this.scalar(n, indent < 0 ? 0 : indent + BEST_INDENT, { simpleKey: false, flow: false });
      return;
    }
    if (n.t === 'map') {
      if (n.entries.length === 0) {
        this.indicator('{}', true, false, false);
        return;
      }
      this.blockMapping(n.entries, indent < 0 ? 0 : indent + BEST_INDENT);
      return;
    }
    if (n.items.length === 0) {
      this.indicator('[]', true, false, false);
      return;
    }
    if (n.flow === true) {
      this.flowSequence(n.items, indent < 0 ? 0 : indent + BEST_INDENT);
      return;
    }
    // A sequence that is a mapping value keeps the mapping's indentation ("indentless").
    const seqIndent = indent < 0 ? 0 : ctx.mappingContext && !this.indention ? indent : indent + BEST_INDENT;
    this.blockSequence(n.items, seqIndent);
  }

  private blockMapping(entries: ReadonlyArray<readonly [string, YamlOut]>, indent: number): void {
    for (const [key, value] of entries) {
      this.writeIndent(indent);
      this.scalar({ t: 'str', v: key }, indent + BEST_INDENT, { simpleKey: true, flow: false });
      this.indicator(':', false, false, false);
      this.node(value, indent, { mappingContext: true });
    }
  }

  private blockSequence(items: readonly YamlOut[], indent: number): void {
    for (const item of items) {
      this.writeIndent(indent);
      this.indicator('-', true, false, true);
      this.node(item, indent, { mappingContext: false });
    }
  }

  private flowSequence(items: readonly YamlOut[], indent: number): void {
    this.indicator('[', true, true, false);
    items.forEach((item, i) => {
      if (i > 0) this.indicator(',', false, false, false);
      if (this.column > BEST_WIDTH) this.writeIndent(indent);
      if (item.t === 'str' || item.t === 'lit') this.scalar(item, indent, { simpleKey: false, flow: true });
      else this.node(item, indent, { mappingContext: false });
    });
    this.indicator(']', false, false, false);
  }

  /** A scalar; `indent` is where folded or block lines continue. */
  private scalar(n: { t: 'str' | 'lit'; v: string }, indent: number, ctx: ScalarContext): void {
    if (n.t === 'lit') {
      this.indicator(n.v, true, false, false);
      return;
    }
    const allowBreaks = !ctx.simpleKey;
    switch (scalarStyle(n.v, ctx)) {
      case 'plain':
        return this.plain(n.v, indent, allowBreaks);
      case 'single':
        return this.singleQuoted(n.v, indent, allowBreaks);
      case 'double':
        return this.doubleQuoted(n.v, indent, allowBreaks);
      case 'literal':
        return this.literal(n.v, indent);
    }
  }

  private plain(value: string, indent: number, allowBreaks: boolean): void {
    if (!this.whitespace) this.put(' ');
    const chars = [...value];
    let spaces = false;
    chars.forEach((c, i) => {
      if (c === ' ') {
        if (allowBreaks && !spaces && this.column > BEST_WIDTH && chars[i + 1] !== ' ') this.writeIndent(indent);
        else this.put(c);
        spaces = true;
      } else {
        this.put(c);
        spaces = false;
      }
      this.indention = false;
    });
    this.whitespace = false;
  }

  private singleQuoted(value: string, indent: number, allowBreaks: boolean): void {
    this.indicator("'", true, false, false);
    const chars = [...value];
    let spaces = false;
    chars.forEach((c, i) => {
      if (c === ' ') {
        if (allowBreaks && !spaces && this.column > BEST_WIDTH && i !== 0 && i !== chars.length - 1 && chars[i + 1] !== ' ') {
          this.writeIndent(indent);
        } else {
          this.put(c);
        }
        spaces = true;
      } else {
        this.put(c === "'" ? "''" : c);
        spaces = false;
      }
      this.indention = false;
    });
    this.indicator("'", false, false, false);
  }

  private doubleQuoted(value: string, indent: number, allowBreaks: boolean): void {
    this.indicator('"', true, false, false);
    const chars = [...value];
    let spaces = false;
    chars.forEach((c, i) => {
      if (!isPrintable(c) || c === '\ufeff' || isBreakChar(c) || c === '"' || c === '\\') {
        this.put(doubleQuotedEscape(c));
        spaces = false;
      } else if (c === ' ') {
        if (allowBreaks && !spaces && this.column > BEST_WIDTH && i > 0 && i < chars.length - 1) {
          this.writeIndent(indent);
          if (chars[i + 1] === ' ') this.put('\\');
        } else {
          this.put(c);
        }
        spaces = true;
      } else {
        this.put(c);
        spaces = false;
      }
      this.indention = false;
    });
    this.indicator('"', false, false, false);
  }

  private literal(value: string, indent: number): void {
    this.indicator('|', true, false, false);
    const chars = [...value];
    const first = chars[0] ?? '';
    if (first === ' ' || isBreakChar(first)) this.put(String(BEST_INDENT));
    const last = chars[chars.length - 1] ?? '';
    if (!isBreakChar(last)) this.put('-');
    else if (chars.length === 1 || isBreakChar(chars[chars.length - 2] ?? '')) this.put('+');
    this.putBreak();
    this.indention = true;
    this.whitespace = true;
    let breaks = true;
    for (const c of chars) {
      if (isBreakChar(c)) {
        this.putBreak();
        this.indention = true;
        breaks = true;
      } else {
        if (breaks) {
          this.writeIndent(indent);
          breaks = false;
        }
        this.put(c);
        this.indention = false;
      }
    }
    // libyaml leaves `whitespace` set after a block scalar: a final line break then needs none.
  }
}

/**
 * yaml.v2's order for map keys (Go maps have none of their own): code point by code point,
 * runs of digits compared as numbers, a non-letter before a letter.
 */
export function compareYamlKeys(a: string, b: string): number {
  const ar = [...a];
  const br = [...b];
  const isLetter = (c: string): boolean => /^\p{L}$/u.test(c);
  const isDigit = (c: string | undefined): boolean => c !== undefined && c >= '0' && c <= '9';
  for (let i = 0; i < ar.length && i < br.length; i++) {
    const x = ar[i] ?? '';
    const y = br[i] ?? '';
    if (x === y) continue;
    const xl = isLetter(x);
    const yl = isLetter(y);
    if (xl && yl) return (x.codePointAt(0) ?? 0) - (y.codePointAt(0) ?? 0);
    if (xl || yl) return yl ? -1 : 1;
    let an = 0;
    let bn = 0;
    if (x === '0' || y === '0') {
      for (let j = i - 1; j >= 0 && isDigit(ar[j]); j--) {
        if (ar[j] !== '0') {
          an = 1;
          bn = 1;
          break;
        }
      }
    }
    let ai = i;
    for (; ai < ar.length && isDigit(ar[ai]); ai++) an = an * 10 + Number(ar[ai]);
    let bi = i;
    for (; bi < br.length && isDigit(br[bi]); bi++) bn = bn * 10 + Number(br[bi]);
    if (an !== bn) return an - bn;
    if (ai !== bi) return ai - bi;
    return (x.codePointAt(0) ?? 0) - (y.codePointAt(0) ?? 0);
  }
  return ar.length - br.length;
}

/** A Go map's entries in yaml.v2's key order. */
export function sortedMap(entries: ReadonlyArray<readonly [string, YamlOut]>): YamlOut {
  return map([...entries].sort(([a], [b]) => compareYamlKeys(a, b)));
}
