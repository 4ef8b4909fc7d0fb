/**
 * Go's string rules where matcher parsing and printing depend on them: `strconv.Quote`,
 * `strconv.Unquote` of a double-quoted literal, `unicode.IsSpace` and UTF-8 validity.
 *
 * Go strings are bytes; here they are UTF-16. A string is "valid UTF-8" when it is well formed
 * (no lone surrogate), which is what it would be had it been decoded from bytes strictly.
 */

/** Whether `s` has no lone surrogate, i.e. converts to valid UTF-8. */
export function isWellFormed(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const unit = s.charCodeAt(i);
    if (unit >= 0xd800 && unit <= 0xdbff) {
      const next = s.charCodeAt(i + 1);
      if (!(next >= 0xdc00 && next <= 0xdfff)) return false;
      i++;
    } else if (unit >= 0xdc00 && unit <= 0xdfff) {
      return false;
    }
  }
  return true;
}

/** Go's unicode.IsSpace: ASCII and Latin-1 spaces plus Unicode's White_Space (not U+FEFF). */
export function isGoSpace(codePoint: number): boolean {
  switch (codePoint) {
    case 0x09:
    case 0x0a:
    case 0x0b:
    case 0x0c:
    case 0x0d:
    case 0x20:
    case 0x85:
    case 0xa0:
    case 0x1680:
    case 0x2028:
    case 0x2029:
    case 0x202f:
    case 0x205f:
    case 0x3000:
      return true;
    default:
      return codePoint >= 0x2000 && codePoint <= 0x200a;
  }
}

/** The `\s` of Go's regexp syntax: ASCII only, and without `\v`. */
export function isRegexpSpace(unit: number): boolean {
  return unit === 0x20 || unit === 0x09 || unit === 0x0a || unit === 0x0c || unit === 0x0d;
}

// Fixed patterns over single characters (never user patterns): Go's unicode.IsPrint classes.
const GRAPHIC = /^[\p{L}\p{M}\p{N}\p{P}\p{S}]$/u;

function isGoPrint(char: string, codePoint: number): boolean {
  if (codePoint < 0x80) return codePoint >= 0x20 && codePoint < 0x7f;
  return GRAPHIC.test(char);
}

function hex(value: number, digits: number): string {
  return value.toString(16).padStart(digits, '0');
}

/** Go's strconv.Quote: `"`-quoted, `\` and `"` escaped, non-printable runes as escapes. */
export function goQuote(s: string): string {
  let out = '"';
  for (const char of s) {
    const cp = char.codePointAt(0) ?? 0;
    if (char === '"' || char === '\\') {
      out += '\\' + char;
    } else if (cp >= 0xd800 && cp <= 0xdfff) {
      // A lone surrogate: Go would see an invalid byte and print the replacement's escape.
      out += '\\ufffd';
    } else if (isGoPrint(char, cp)) {
      out += char;
    } else {
      out += controlEscape(cp);
    }
  }
  return out + '"';
}

function controlEscape(cp: number): string {
  switch (cp) {
    case 0x07:
      return '\\a';
    case 0x08:
      return '\\b';
    case 0x0c:
      return '\\f';
    case 0x0a:
      return '\\n';
    case 0x0d:
      return '\\r';
    case 0x09:
      return '\\t';
    case 0x0b:
      return '\\v';
    default:
      if (cp < 0x20 || cp === 0x7f) return '\\x' + hex(cp, 2);
      if (cp < 0x10000) return '\\u' + hex(cp, 4);
      return '\\U' + hex(cp, 8);
  }
}

const SIMPLE_ESCAPES: Readonly<Record<string, number>> = { a: 7, b: 8, f: 12, n: 10, r: 13, t: 9, v: 11, '\\': 0x5c, '"': 0x22 };

function hexValue(text: string): number | undefined {
  return /^[0-9a-fA-F]+$/.test(text) ? parseInt(text, 16) : undefined;
}

function pushCodePoint(bytes: number[], cp: number): void {
  if (cp < 0x80) bytes.push(cp);
  else if (cp < 0x800) bytes.push(0xc0 | (cp >> 6), 0x80 | (cp & 0x3f));
  else if (cp < 0x10000) bytes.push(0xe0 | (cp >> 12), 0x80 | ((cp >> 6) & 0x3f), 0x80 | (cp & 0x3f));
  else bytes.push(0xf0 | (cp >> 18), 0x80 | ((cp >> 12) & 0x3f), 0x80 | ((cp >> 6) & 0x3f), 0x80 | (cp & 0x3f));
}

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * Go's strconv.Unquote for a double-quoted literal, then a UTF-8 check (`\x` and octal escapes
 * give raw bytes, so `"\xf0\x9f\x99\x82"` is 🙂 and `"\xff"` is invalid). Undefined when Go
 * would report an error.
 */
export function goUnquote(literal: string): string | undefined {
  if (literal.length < 2 || literal[0] !== '"' || literal[literal.length - 1] !== '"') return undefined;
  const body = literal.slice(1, -1);
  const bytes: number[] = [];
  let i = 0;
  while (i < body.length) {
    const cp = body.codePointAt(i) ?? 0;
    const char = String.fromCodePoint(cp);
    // An unescaped quote or newline cannot appear inside a Go literal.
    if (char === '"' || char === '\n') return undefined;
    if (cp >= 0xd800 && cp <= 0xdfff) return undefined;
    if (char !== '\\') {
      pushCodePoint(bytes, cp);
      i += char.length;
      continue;
    }
    const kind = body[i + 1];
    if (kind === undefined) return undefined;
    const simple = SIMPLE_ESCAPES[kind];
    if (simple !== undefined) {
      bytes.push(simple);
      i += 2;
    } else if (kind === 'x' || kind === 'u' || kind === 'U') {
      const digits = kind === 'x' ? 2 : kind === 'u' ? 4 : 8;
      const value = hexValue(body.slice(i + 2, i + 2 + digits));
      if (value === undefined || body.slice(i + 2, i + 2 + digits).length !== digits) return undefined;
      if (kind === 'x') bytes.push(value);
      else if (value > 0x10ffff || (value >= 0xd800 && value <= 0xdfff)) return undefined;
      else pushCodePoint(bytes, value);
      i += 2 + digits;
    } else if (kind >= '0' && kind <= '7') {
      const octal = body.slice(i + 1, i + 4);
      if (!/^[0-7]{3}$/.test(octal)) return undefined;
      const value = parseInt(octal, 8);
      if (value > 255) return undefined;
      bytes.push(value);
      i += 4;
    } else {
      return undefined;
    }
  }
  try {
    return strictUtf8.decode(new Uint8Array(bytes));
  } catch {
    return undefined;
  }
}

/** Go's string ordering (bytewise UTF-8), which is code point order, not UTF-16 unit order. */
export function compareGoStrings(a: string, b: string): number {
  if (a === b) return 0;
  const length = Math.min(a.length, b.length);
  for (let i = 0; i < length; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x === y) continue;
    // Surrogates (astral code points) sort after every BMP unit in UTF-8.
    const xs = x >= 0xd800 && x <= 0xdfff;
    const ys = y >= 0xd800 && y <= 0xdfff;
    if (xs !== ys) return xs ? 1 : -1;
    return x < y ? -1 : 1;
  }
  return a.length - b.length;
}
