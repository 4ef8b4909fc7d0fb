/**
 * Go text/template's builtin functions (text/template/funcs.go), except `and` and `or`, which the
 * executor runs itself because they stop at the first deciding argument, and `call`, which this
 * engine refuses at parse time.
 */
import { compareBytes, CallError, formatValue, GoFloat, GoMap, GoSlice, GoTypedString, sprint, sprintln, stringOf, typeName, utf8Length, isTrue, type GoFunction, type GoValue } from './values.js';
import { sprintf } from './fmt.js';
import { GoEnum } from './time-values.js';

type Kind = 'bool' | 'int' | 'float' | 'string' | 'invalid';

function basicKind(value: GoValue): Kind {
  if (typeof value === 'boolean') return 'bool';
  if (typeof value === 'number' || value instanceof GoEnum) return 'int';
  if (value instanceof GoFloat) return 'float';
  if (stringOf(value) !== undefined) return 'string';
  return 'invalid';
}

function primitive(value: GoValue): string | number | boolean {
  if (value instanceof GoEnum) return value.n;
  if (value instanceof GoFloat) return value.value;
  const text = stringOf(value);
  if (text !== undefined) return text;
  return value as number | boolean;
}

const BAD_COMPARISON_TYPE = 'invalid type for comparison';
const BAD_COMPARISON = 'incompatible types for comparison';

function eq(args: readonly GoValue[]): boolean {
  const [first, ...rest] = args;
  if (rest.length === 0) throw new CallError('missing argument for comparison');
  const k1 = basicKind(first);
  for (const arg of rest) {
    const k2 = basicKind(arg);
    let truth: boolean;
    if (k1 !== k2) {
      if (first !== undefined && arg !== undefined) throw new CallError(BAD_COMPARISON);
      truth = false;
    } else if (k1 === 'invalid') {
      const nil1 = first === null || first === undefined;
      const nil2 = arg === null || arg === undefined;
      if (nil1 || nil2) truth = nil1 === nil2;
      else if (first instanceof GoSlice || first instanceof GoMap) throw new CallError(`non-comparable type ${formatValue(first, true)}: ${typeName(first)}`);
      else truth = first === arg;
    } else {
      truth = primitive(first) === primitive(arg);
    }
    if (truth) return true;
  }
  return false;
}

function lt(a: GoValue, b: GoValue): boolean {
  const k1 = basicKind(a);
  const k2 = basicKind(b);
  if (k1 === 'invalid' || k1 === 'bool' || k2 === 'invalid' || k2 === 'bool') throw new CallError(BAD_COMPARISON_TYPE);
  if (k1 !== k2) throw new CallError(BAD_COMPARISON);
  const x = primitive(a);
  const y = primitive(b);
  if (typeof x === 'string' && typeof y === 'string') return compareBytes(x, y) < 0;
  return x < y;
}

function length(value: GoValue): number {
  if (value === undefined || value === null) throw new CallError('len of untyped nil');
  const text = stringOf(value);
  if (text !== undefined) return utf8Length(text);
  if (value instanceof GoSlice) return value.items.length;
  if (value instanceof GoMap) return value.entries.size;
  throw new CallError(`len of type ${typeName(value)}`);
}

function indexOf(value: GoValue, at: GoValue, cap: number): number {
  if (typeof at !== 'number') throw new CallError(`cannot index slice/array with type ${typeName(at)}`);
  if (at < 0 || at >= cap) throw new CallError(`index out of range: ${at}`);
  return at;
}

function index(item: GoValue, keys: readonly GoValue[]): GoValue {
  let value = item;
  if (value === undefined || value === null) throw new CallError('index of untyped nil');
  for (const key of keys) {
    if (value instanceof GoSlice) {
      value = value.items[indexOf(value, key, value.items.length)];
    } else if (stringOf(value) !== undefined) {
      const bytes = Buffer.from(stringOf(value) as string, 'utf8');
      value = bytes[indexOf(value, key, bytes.length)] as number;
    } else if (value instanceof GoMap) {
      if (typeof key !== 'string') throw new CallError(`value has type ${typeName(key)}; should be string`);
      // A missing key gives the element type's zero value; every map here holds strings.
      value = value.entries.get(key) ?? '';
    } else if (value === null || value === undefined) {
      throw new CallError('index of untyped nil');
    } else {
      throw new CallError(`can't index item of type ${typeName(value)}`);
    }
  }
  return value;
}

function slice(item: GoValue, bounds: readonly GoValue[]): GoValue {
  if (item === undefined || item === null) throw new CallError('slice of untyped nil');
  if (bounds.length > 3) throw new CallError(`too many slice indexes: ${bounds.length}`);
  const text = stringOf(item);
  const bytes = text === undefined ? undefined : Buffer.from(text, 'utf8');
  const cap = bytes !== undefined ? bytes.length : item instanceof GoSlice ? item.items.length : undefined;
  if (cap === undefined) throw new CallError(`can't slice item of type ${typeName(item)}`);
  if (bytes !== undefined && bounds.length === 3) throw new CallError('cannot 3-index slice a string');
  const idx = bounds.map((b) => {
    if (typeof b !== 'number') throw new CallError(`cannot index slice/array with type ${typeName(b)}`);
    if (b < 0 || b > cap) throw new CallError(`index out of range: ${b}`);
    return b;
  });
  const [start = 0, end = cap] = idx;
  if (start > end) throw new CallError(`invalid slice index: ${start} > ${end}`);
  if (bytes !== undefined) return bytes.subarray(start, end).toString('utf8');
  return new GoSlice((item as GoSlice).type, (item as GoSlice).items.slice(start, end));
}

/** text/template's evalArgs: one string as is, anything else as fmt.Sprint prints it. */
export function argsText(args: readonly GoValue[]): string {
  if (args.length === 1 && typeof args[0] === 'string') return args[0];
  return sprint(args);
}

/** Go's template.HTMLEscapeString. */
export function htmlEscapeString(text: string): string {
  return text.replace(/[\0"'&<>]/g, (c) => HTML_ESCAPES[c] as string);
}
const HTML_ESCAPES: Readonly<Record<string, string>> = { '\0': '\uFFFD', '"': '&#34;', "'": '&#39;', '&': '&amp;', '<': '&lt;', '>': '&gt;' };

/** Go's template.JSEscapeString. */
export function jsEscapeString(text: string): string {
  let out = '';
  for (const char of text) {
    const cp = char.codePointAt(0) ?? 0;
    switch (char) {
      case '\\':
        out += '\\\\';
        break;
      case "'":
        out += "\\'";
        break;
      case '"':
        out += '\\"';
        break;
      case '<':
        out += '\\u003C';
        break;
      case '>':
        out += '\\u003E';
        break;
      case '&':
        out += '\\u0026';
        break;
      case '=':
        out += '\\u003D';
        break;
      default:
        if (cp < 0x20 || (cp >= 0x7f && cp < 0xa0)) out += '\\u' + cp.toString(16).toUpperCase().padStart(4, '0');
        else out += char;
    }
  }
  return out;
}

/** Go's url.QueryEscape. */
export function queryEscape(text: string): string {
  let out = '';
  for (const byte of Buffer.from(text, 'utf8')) {
    const c = String.fromCharCode(byte);
    if (/[A-Za-z0-9\-_.~]/.test(c)) out += c;
    else if (c === ' ') out += '+';
    else out += '%' + byte.toString(16).toUpperCase().padStart(2, '0');
  }
  return out;
}

const any = (call: (args: readonly GoValue[]) => GoValue, min = 0): GoFunction => ({ params: Array(min).fill('any').concat('any'), variadic: true, call });

export const BUILTINS: Readonly<Record<string, GoFunction>> = {
  not: { params: ['any'], call: ([value]) => !isTrue(value === undefined ? null : value) },
  len: { params: ['any'], call: ([value]) => length(value) },
  index: { params: ['any', 'any'], variadic: true, call: ([item, ...keys]) => index(item, keys) },
  slice: { params: ['any', 'any'], variadic: true, call: ([item, ...bounds]) => slice(item, bounds) },
  print: any((args) => sprint(args)),
  println: any((args) => sprintln(args)),
  printf: { params: ['string', 'any'], variadic: true, call: ([format, ...args]) => sprintf(format as string, args) },
  eq: { params: ['any', 'any'], variadic: true, call: (args) => eq(args) },
  ne: { params: ['any', 'any'], call: ([a, b]) => !eq([a, b]) },
  lt: { params: ['any', 'any'], call: ([a, b]) => lt(a, b) },
  le: { params: ['any', 'any'], call: ([a, b]) => lt(a, b) || eq([a, b]) },
  gt: { params: ['any', 'any'], call: ([a, b]) => !lt(a, b) && !eq([a, b]) },
  ge: { params: ['any', 'any'], call: ([a, b]) => !lt(a, b) },
  html: any((args) => htmlEscapeString(argsText(args))),
  js: any((args) => jsEscapeString(argsText(args))),
  urlquery: any((args) => queryEscape(argsText(args))),
};

/** html/template's typed strings, which its escapers trust. */
export const HTML_TYPE = { name: 'template.HTML', kind: 'string', methods: {} } as const;
export const URL_TYPE = { name: 'template.URL', kind: 'string', methods: {} } as const;
export const safeHtml = (text: string): GoTypedString => new GoTypedString(HTML_TYPE, text);
export const safeUrl = (text: string): GoTypedString => new GoTypedString(URL_TYPE, text);
