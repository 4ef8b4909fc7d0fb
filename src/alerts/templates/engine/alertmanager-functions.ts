/**
 * Alertmanager's template functions (template/template.go's DefaultFuncs): those of 0.25
 * (toUpper, toLower, title, trimSpace, join, match, safeHtml, reReplaceAll, stringSlice) and the
 * later ones (safeUrl, urlUnescape, date, tz, since, humanizeDuration, toJson).
 */
import { RE2JS, RE2JSSyntaxException } from 're2js';
import { goQuote } from '../../matchers/index.js';
import { safeHtml, safeUrl } from './builtins.js';
import { formatFloat } from './fmt.js';
import { formatTime, GoDuration, GoTime } from './time-values.js';
import { CallError, GoFloat, GoMap, GoOpaque, GoSlice, GoStruct, STRING_SLICE, stringOf, typeName, type GoFunction, type GoValue } from './values.js';
import { loadLocation } from './zoneinfo.js';

const GO_SPACE = /^[\t\n\v\f\r \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+|[\t\n\v\f\r \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+$/g;

/** Go's per-rune case mapping: a rune whose mapping is not one rune stays as it is. */
function mapRunes(text: string, map: (char: string) => string): string {
  let out = '';
  for (const char of text) {
    const mapped = map(char);
    out += [...mapped].length === 1 ? mapped : char;
  }
  return out;
}

/**
 * x/text's cases.Title: each word's first letter upper-cased (title case) and the rest
 * lower-cased; letters, digits and `_` make words, and `.` `'` `:` between letters join them.
 */
function title(text: string): string {
  const chars = [...text];
  const isWordChar = (c: string | undefined) => c !== undefined && /[\p{L}\p{N}\p{M}_]/u.test(c);
  let out = '';
  let inWord = false;
  for (let i = 0; i < chars.length; i++) {
    const c = chars[i] as string;
    if (isWordChar(c)) {
      out += inWord ? mapRunes(c, (x) => x.toLowerCase()) : mapRunes(c, (x) => x.toUpperCase());
      inWord = true;
    } else if (inWord && /[.'’:·]/.test(c) && /\p{L}/u.test(chars[i - 1] ?? '') && /\p{L}/u.test(chars[i + 1] ?? '')) {
      out += c;
    } else {
      out += c;
      inWord = false;
    }
  }
  return out;
}

function compileRegexp(pattern: string): RE2JS | string {
  try {
    return RE2JS.compile(pattern);
  } catch (error) {
    if (error instanceof RE2JSSyntaxException) return `error parsing regexp: ${error.error}: \`${error.input ?? pattern}\``;
    return `error parsing regexp: ${(error as Error).message}`;
  }
}

/** Go's regexp quote for MustCompile's panic: backquoted when it can be, else strconv.Quote. */
function quoteForPanic(pattern: string): string {
  return /^[^`\p{Cc}]*$/u.test(pattern) || pattern === '' ? '`' + pattern + '`' : goQuote(pattern);
}

/** Go's Regexp.Expand of `template` ($1, ${1}, $name, ${name}, $$) for one match. */
function expand(template: string, group: (name: string) => string): string {
  let out = '';
  let i = 0;
  while (i < template.length) {
    const dollar = template.indexOf('$', i);
    if (dollar < 0) {
      out += template.slice(i);
      break;
    }
    out += template.slice(i, dollar);
    const rest = template.slice(dollar + 1);
    if (rest.startsWith('$')) {
      out += '$';
      i = dollar + 2;
      continue;
    }
    const match = /^\{([A-Za-z0-9_]+)\}/.exec(rest) ?? /^([A-Za-z0-9_]+)/.exec(rest);
    if (match === null) {
      out += '$';
      i = dollar + 1;
      continue;
    }
    out += group(match[1] as string);
    i = dollar + 1 + match[0].length;
  }
  return out;
}

/** Go's Regexp.ReplaceAllString: non-overlapping matches, an empty match right after another skipped. */
function replaceAll(re: RE2JS, text: string, replacement: string): string {
  const matcher = re.matcher(text);
  const names = re.namedGroups();
  let out = '';
  let lastEnd = 0;
  let searchAt = 0;
  while (searchAt <= text.length && matcher.find(searchAt)) {
    const start = matcher.start();
    const end = matcher.end();
    out += text.slice(lastEnd, start);
    if (end > lastEnd || start === 0) {
      out += expand(replacement, (name) => {
        const index = /^\d+$/.test(name) ? Number(name) : names[name];
        if (index === undefined || index > matcher.groupCount()) return '';
        return matcher.group(index) ?? '';
      });
    }
    lastEnd = end;
    const width = (text.codePointAt(searchAt) ?? 0) > 0xffff ? 2 : 1;
    searchAt = searchAt + width > end ? searchAt + width : end;
  }
  return out + text.slice(lastEnd);
}

/** Go's url.QueryUnescape. */
function queryUnescape(text: string): string {
  const bytes: number[] = [];
  for (let i = 0; i < text.length; ) {
    const c = text[i] as string;
    if (c === '%') {
      const hex = text.slice(i + 1, i + 3);
      if (!/^[0-9a-fA-F]{2}$/.test(hex)) throw new CallError(`invalid URL escape ${goQuote(text.slice(i, i + 3))}`);
      bytes.push(parseInt(hex, 16));
      i += 3;
    } else if (c === '+') {
      bytes.push(0x20);
      i++;
    } else {
      const char = String.fromCodePoint(text.codePointAt(i) ?? 0);
      bytes.push(...Buffer.from(char, 'utf8'));
      i += char.length;
    }
  }
  return Buffer.from(bytes).toString('utf8');
}

/** prometheus/common's HumanizeDuration of a number of seconds. */
function humanizeDuration(value: GoValue): string {
  let v: number;
  if (typeof value === 'number') v = value;
  else if (value instanceof GoFloat) v = value.value;
  else if (value instanceof GoDuration) v = Number(value.ns) / 1e9;
  else if (typeof value === 'string') {
    v = Number(value.trim() === '' ? NaN : value);
    if (Number.isNaN(v) && !/^[+-]?nan$/i.test(value)) throw new CallError(`strconv.ParseFloat: parsing ${goQuote(value)}: invalid syntax`);
  } else throw new CallError(`can't convert ${typeName(value)} to float`);
  const g4 = (n: number) => formatFloat(n, 'g', 4);
  if (!Number.isFinite(v)) return g4(v);
  if (v === 0) return `${g4(v)}s`;
  if (Math.abs(v) >= 1) {
    const sign = v < 0 ? '-' : '';
    const abs = Math.abs(v);
    const whole = Math.trunc(abs);
    const seconds = whole % 60;
    const minutes = Math.trunc(whole / 60) % 60;
    const hours = Math.trunc(whole / 3600) % 24;
    const days = Math.trunc(whole / 86400);
    if (days !== 0) return `${sign}${days}d ${hours}h ${minutes}m ${seconds}s`;
    if (hours !== 0) return `${sign}${hours}h ${minutes}m ${seconds}s`;
    if (minutes !== 0) return `${sign}${minutes}m ${seconds}s`;
    return `${sign}${g4(abs)}s`;
  }
  let prefix = '';
  for (const p of ['m', 'u', 'n', 'p', 'f', 'a', 'z', 'y']) {
    if (Math.abs(v) >= 1) break;
    prefix = p;
    v *= 1000;
  }
  return `${g4(v)}${prefix}s`;
}

/** encoding/json's string form: HTML-sensitive characters and line separators escaped. */
function jsonString(text: string): string {
  return JSON.stringify(text).replace(/[<>&\u2028\u2029]/g, (c) => '\\u' + (c.codePointAt(0) ?? 0).toString(16).padStart(4, '0'));
}

/** encoding/json's Marshal of a template value. */
export function toJson(value: GoValue): string {
  if (value === null || value === undefined) return 'null';
  if (typeof value === 'boolean' || typeof value === 'number') return String(value);
  if (value instanceof GoFloat) return Number.isFinite(value.value) ? JSON.stringify(value.value) : fail(`json: unsupported value: ${formatFloat(value.value, 'g', -1)}`);
  const text = stringOf(value);
  if (text !== undefined) return jsonString(text);
  if (value instanceof GoSlice) return `[${value.items.map(toJson).join(',')}]`;
  if (value instanceof GoMap) return `{${[...value.entries.keys()].sort().map((key) => `${jsonString(key)}:${toJson(value.entries.get(key))}`).join(',')}}`;
  if (value instanceof GoStruct) {
    const names = value.type.jsonNames ?? {};
    return `{${[...value.fields].map(([name, field]) => `${jsonString(names[name] ?? name)}:${toJson(field)}`).join(',')}}`;
  }
  if (value instanceof GoTime) return jsonString(formatTime(value, '2006-01-02T15:04:05.999999999Z07:00'));
  if (value instanceof GoDuration) return value.ns.toString();
  return value instanceof GoOpaque ? jsonString(String(value.type.stringer?.(value) ?? '')) : 'null';
}

function fail(message: string): never {
  throw new CallError(message);
}

const str = (value: GoValue) => value as string;

/** The functions, with `now` the clock `since` reads. */
export function alertmanagerFunctions(now: () => number): Record<string, GoFunction> {
  return {
    toUpper: { params: ['string'], call: ([s]) => mapRunes(str(s), (c) => c.toUpperCase()) },
    toLower: { params: ['string'], call: ([s]) => mapRunes(str(s), (c) => c.toLowerCase()) },
    title: { params: ['string'], call: ([s]) => title(str(s)) },
    trimSpace: { params: ['string'], call: ([s]) => str(s).replace(GO_SPACE, '') },
    join: { params: ['string', '[]string'], call: ([sep, list]) => (list as GoSlice).items.join(str(sep)) },
    match: {
      params: ['string', 'string'],
      call: ([pattern, text]) => {
        const re = compileRegexp(str(pattern));
        if (typeof re === 'string') throw new CallError(re);
        return re.matcher(str(text)).find();
      },
    },
    safeHtml: { params: ['string'], call: ([s]) => safeHtml(str(s)) },
    safeUrl: { params: ['string'], call: ([s]) => safeUrl(str(s)) },
    urlUnescape: { params: ['string'], call: ([s]) => queryUnescape(str(s)) },
    reReplaceAll: {
      params: ['string', 'string', 'string'],
      call: ([pattern, replacement, text]) => {
        const re = compileRegexp(str(pattern));
        // Go's MustCompile panics; the template reports the panic as the call's error.
        if (typeof re === 'string') throw new CallError(`regexp: Compile(${quoteForPanic(str(pattern))}): ${re}`);
        return replaceAll(re, str(text), str(replacement));
      },
    },
    stringSlice: { params: ['string'], variadic: true, call: (args) => new GoSlice(STRING_SLICE, args) },
    date: { params: ['string', 'time.Time'], call: ([layout, time]) => formatTime(time as GoTime, str(layout)) },
    tz: {
      params: ['string', 'time.Time'],
      call: ([name, time]) => {
        const location = loadLocation(str(name));
        if (typeof location === 'string') throw new CallError(location);
        return new GoTime((time as GoTime).ms, location);
      },
    },
    since: { params: ['time.Time'], call: ([time]) => new GoDuration(BigInt(now() - (time as GoTime).ms) * 1_000_000n) },
    humanizeDuration: { params: ['any'], call: ([value]) => humanizeDuration(value) },
    toJson: { params: ['any'], call: ([value]) => toJson(value) },
  };
}
