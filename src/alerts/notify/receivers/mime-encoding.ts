/**
 * The MIME encodings Alertmanager's email notifier writes with, ported from Go's standard
 * library so a message reads byte for byte as Alertmanager's: header values through
 * mime.QEncoding (RFC 2047), bodies through mime/quotedprintable's Writer (RFC 2045).
 */

const HEX = '0123456789ABCDEF';
const hexByte = (b: number): string => `=${HEX[b >> 4]}${HEX[b & 0x0f]}`;

/** Go's limit on an encoded word (`=?utf-8?q?…?=`), and what is left of it for the text. */
const MAX_ENCODED_WORD = 75;
const MAX_WORD_CONTENT = MAX_ENCODED_WORD - '=?UTF-8?q?'.length - '?='.length;

function needsEncoding(text: string): boolean {
  for (const c of text) {
    const code = c.codePointAt(0) ?? 0;
    if ((code < 0x20 || code > 0x7e) && c !== '\t') return true;
  }
  return false;
}

function qByte(b: number): string {
  if (b === 0x20) return '_';
  if (b >= 0x21 && b <= 0x7e && b !== 0x3d && b !== 0x3f && b !== 0x5f) return String.fromCharCode(b);
  return hexByte(b);
}

/**
 * mime.QEncoding.Encode("utf-8", text): the text itself when it is printable ASCII, else
 * encoded words of at most 75 characters, a character never split across two.
 */
export function qEncodeHeader(text: string): string {
  if (!needsEncoding(text)) return text;
  const words: string[] = [];
  let word = '';
  let length = 0;
  for (const c of text) {
    const bytes = Buffer.from(c, 'utf8');
    const first = bytes[0] ?? 0;
    const plain = bytes.length === 1 && first >= 0x20 && first <= 0x7e && first !== 0x3d && first !== 0x3f && first !== 0x5f;
    const encodedLength = plain ? 1 : 3 * bytes.length;
    if (length + encodedLength > MAX_WORD_CONTENT) {
      words.push(word);
      word = '';
      length = 0;
    }
    for (const b of bytes) word += qByte(b);
    length += encodedLength;
  }
  words.push(word);
  return words.map((w) => `=?utf-8?q?${w}?=`).join(' ');
}

const LINE_MAX = 76;

/**
 * Go's quotedprintable.Writer over the whole of `text`: lines of at most 76 characters with
 * soft breaks (`=` CRLF), line breaks written as CRLF, `=` and non-printable bytes and a
 * space or tab before a line break encoded.
 */
export function quotedPrintable(text: string): string {
  const bytes = Buffer.from(text, 'utf8');
  let out = '';
  let line: string[] = [];
  let lastWasCr = false;
  const flush = (): void => {
    out += line.join('');
    line = [];
  };
  const lineLength = (): number => line.reduce((n, part) => n + part.length, 0);
  const crlf = (): void => {
    line.push('\r\n');
    flush();
  };
  const softBreak = (): void => {
    line.push('=');
    crlf();
  };
  const encode = (b: number): void => {
    if (LINE_MAX - 1 - lineLength() < 3) softBreak();
    line.push(hexByte(b));
  };
  // A space or tab that ends a line would be lost in transport: it is encoded.
  const encodeTrailingWhitespace = (): void => {
    const last = line[line.length - 1];
    if (last === ' ' || last === '\t') {
      line.pop();
      encode(last.charCodeAt(0));
    }
  };
  for (const b of bytes) {
    const literal = (b >= 0x21 && b <= 0x7e && b !== 0x3d) || b === 0x20 || b === 0x09;
    if (b === 0x0a || b === 0x0d) {
      if (lastWasCr && b === 0x0a) {
        lastWasCr = false;
        continue;
      }
      lastWasCr = b === 0x0d;
      encodeTrailingWhitespace();
      crlf();
      continue;
    }
    lastWasCr = false;
    if (literal) {
      if (lineLength() === LINE_MAX - 1) softBreak();
      line.push(String.fromCharCode(b));
    } else {
      encode(b);
    }
  }
  encodeTrailingWhitespace();
  flush();
  return out;
}
