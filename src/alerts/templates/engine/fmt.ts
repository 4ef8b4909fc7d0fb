/**
 * Go's fmt.Sprintf for the verbs templates use (%v %s %q %d %x %X %o %b %c %f %e %g %t %T %%),
 * with flags, width and precision, and Go's error forms (`%!d(string=x)`, `%!s(MISSING)`,
 * `%!(EXTRA int=1)`).
 */
import { goQuote } from '../../matchers/index.js';
import { formatValue, GoFloat, GoSlice, stringOf, typeName, type GoValue } from './values.js';

interface Spec {
  minus: boolean;
  plus: boolean;
  sharp: boolean;
  space: boolean;
  zero: boolean;
  width: number | undefined;
  precision: number | undefined;
}

/** The decimal digits of |v| (no trailing zeros) and the decimal point's place, for `digits` significant digits (-1: shortest). */
function decimalDigits(v: number, digits: number): { digits: string; dp: number } {
  const text = digits < 0 ? Math.abs(v).toExponential() : Math.abs(v).toExponential(Math.min(Math.max(digits - 1, 0), 100));
  const [mantissa, exponent] = text.split('e') as [string, string];
  const all = mantissa.replace('.', '').replace(/0+$/, '') || '0';
  return { digits: all, dp: Number(exponent) + 1 };
}

function fmtE(digits: string, dp: number, precision: number, e: string): string {
  const padded = digits.padEnd(precision + 1, '0');
  const exp = digits === '0' ? 0 : dp - 1;
  const mantissa = padded[0] + (precision > 0 ? '.' + padded.slice(1, precision + 1) : '');
  const abs = Math.abs(exp);
  return `${mantissa}${e}${exp < 0 ? '-' : '+'}${abs < 10 ? '0' + abs : abs}`;
}

function fmtF(digits: string, dp: number, precision: number): string {
  const integer = dp <= 0 ? '0' : digits.slice(0, dp).padEnd(dp, '0');
  if (precision <= 0) return integer;
  let fraction = '';
  for (let i = 0; i < precision; i++) {
    const at = dp + i;
    fraction += at >= 0 && at < digits.length ? digits[at] : '0';
  }
  return `${integer}.${fraction}`;
}

/** Go's strconv.FormatFloat(v, verb, precision, 64) for 'e', 'f' and 'g' (precision -1: shortest). */
export function formatFloat(v: number, verb: 'e' | 'E' | 'f' | 'F' | 'g' | 'G', precision: number): string {
  if (Number.isNaN(v)) return 'NaN';
  if (!Number.isFinite(v)) return v > 0 ? '+Inf' : '-Inf';
  const sign = v < 0 || Object.is(v, -0) ? '-' : '';
  const lower = verb.toLowerCase();
  if (lower === 'f') {
    if (precision < 0) {
      const d = decimalDigits(v, -1);
      return sign + fmtF(d.digits, d.dp, Math.max(d.digits.length - d.dp, 0));
    }
    return sign + Math.abs(v).toFixed(precision);
  }
  if (lower === 'e') {
    const d = decimalDigits(v, precision < 0 ? -1 : precision + 1);
    return sign + fmtE(d.digits, d.dp, precision < 0 ? d.digits.length - 1 : precision, verb === 'E' ? 'E' : 'e');
  }
  const shortest = precision < 0;
  let prec = shortest ? -1 : precision === 0 ? 1 : precision;
  const d = decimalDigits(v, prec);
  const nd = v === 0 ? 1 : d.digits.length;
  const dp = v === 0 ? 1 : d.dp;
  if (shortest) prec = nd;
  let eprec = prec;
  if (eprec > nd && nd >= dp) eprec = nd;
  if (shortest) eprec = 6;
  const exp = dp - 1;
  if (exp < -4 || exp >= eprec) return sign + fmtE(d.digits, dp, Math.min(prec, nd) - 1, verb === 'G' ? 'E' : 'e');
  return sign + fmtF(d.digits, dp, Math.max((prec > dp ? nd : prec) - dp, 0));
}

function pad(text: string, spec: Spec, numeric: boolean): string {
  const width = spec.width ?? 0;
  const length = [...text].length;
  if (length >= width) return text;
  if (spec.minus) return text + ' '.repeat(width - length);
  if (spec.zero && numeric) {
    const signed = /^[+-]/.test(text);
    return (signed ? text[0] : '') + '0'.repeat(width - length) + (signed ? text.slice(1) : text);
  }
  return ' '.repeat(width - length) + text;
}

function badVerb(verb: string, arg: GoValue): string {
  if (arg === null) return `%!${verb}(<nil>)`;
  return `%!${verb}(${typeName(arg)}=${formatValue(arg, true)})`;
}

function signed(text: string, negative: boolean, spec: Spec): string {
  if (negative) return '-' + text;
  if (spec.plus) return '+' + text;
  if (spec.space) return ' ' + text;
  return text;
}

function formatInteger(n: number, verb: string, spec: Spec): string | undefined {
  const abs = Math.abs(n);
  let digits: string;
  switch (verb) {
    case 'd':
    case 'v':
      digits = String(abs);
      break;
    case 'x':
      digits = (spec.sharp ? '0x' : '') + abs.toString(16);
      break;
    case 'X':
      digits = (spec.sharp ? '0X' : '') + abs.toString(16).toUpperCase();
      break;
    case 'o':
      digits = (spec.sharp ? '0' : '') + abs.toString(8);
      break;
    case 'b':
      digits = abs.toString(2);
      break;
    case 'c':
      return String.fromCodePoint(n);
    case 'q':
      return `'${String.fromCodePoint(n)}'`;
    case 'f':
    case 'e':
    case 'g':
    case 'F':
    case 'E':
    case 'G':
    case 's':
    case 't':
    default:
      return undefined;
  }
  if (spec.precision !== undefined) digits = digits.padStart(spec.precision, '0');
  return signed(digits, n < 0, spec);
}

/** The String() of a value whose type has one. */
function stringerText(arg: GoValue): string | undefined {
  if (arg === null || arg === undefined || typeof arg !== 'object' || arg instanceof GoFloat) return undefined;
  return arg.type.stringer?.(arg);
}

function formatOne(verb: string, arg: GoValue, spec: Spec): string {
  if (verb === 'T') return pad(arg === undefined ? '<invalid reflect.Value>' : typeName(arg), spec, false);
  if (verb === 'v' && arg instanceof GoFloat) return pad(signed(formatFloat(Math.abs(arg.value), 'g', spec.precision ?? -1), arg.value < 0, spec), spec, true);
  if (typeof arg === 'number') {
    const text = formatInteger(arg, verb, spec);
    return text === undefined ? badVerb(verb, arg) : pad(text, spec, true);
  }
  if (arg instanceof GoFloat) {
    if (!'eEfFgG'.includes(verb)) return badVerb(verb, arg);
    const precision = spec.precision ?? ('gG'.includes(verb) ? -1 : 6);
    const text = formatFloat(Math.abs(arg.value), verb as 'e', precision);
    return pad(signed(text, arg.value < 0 || Object.is(arg.value, -0), spec), spec, true);
  }
  if (typeof arg === 'boolean') return verb === 't' || verb === 'v' ? pad(String(arg), spec, false) : badVerb(verb, arg);
  const text = stringOf(arg) ?? stringerText(arg);
  if (text !== undefined) {
    const cut = spec.precision === undefined ? text : [...text].slice(0, spec.precision).join('');
    switch (verb) {
      case 'v':
      case 's':
        return pad(cut, spec, false);
      case 'q':
        return pad(spec.sharp && !cut.includes('`') ? '`' + cut + '`' : goQuote(cut), spec, false);
      case 'x':
      case 'X': {
        const hex = Buffer.from(cut, 'utf8').toString('hex');
        return pad(verb === 'X' ? hex.toUpperCase() : hex, spec, false);
      }
      default:
        return badVerb(verb, arg);
    }
  }
  if (arg instanceof GoSlice && verb !== 'v') return `[${arg.items.map((item) => formatOne(verb, item, { ...spec, width: undefined })).join(' ')}]`;
  if (verb === 'v') return pad(formatValue(arg, true), spec, false);
  return badVerb(verb, arg);
}

/** Go's fmt.Sprintf. */
export function sprintf(format: string, args: readonly GoValue[]): string {
  let out = '';
  let argIndex = 0;
  let i = 0;
  while (i < format.length) {
    const percent = format.indexOf('%', i);
    if (percent < 0) {
      out += format.slice(i);
      break;
    }
    out += format.slice(i, percent);
    i = percent + 1;
    const spec: Spec = { minus: false, plus: false, sharp: false, space: false, zero: false, width: undefined, precision: undefined };
    for (; i < format.length; i++) {
      const c = format[i];
      if (c === '-') spec.minus = true;
      else if (c === '+') spec.plus = true;
      else if (c === '#') spec.sharp = true;
      else if (c === ' ') spec.space = true;
      else if (c === '0') spec.zero = !spec.minus;
      else break;
    }
    const width = /^\d+/.exec(format.slice(i));
    if (width !== null) {
      spec.width = Number(width[0]);
      i += width[0].length;
    }
    if (format[i] === '.') {
      i++;
      const precision = /^\d+/.exec(format.slice(i));
      spec.precision = precision === null ? 0 : Number(precision[0]);
      i += precision?.[0].length ?? 0;
    }
    const verb = format.codePointAt(i) === undefined ? undefined : String.fromCodePoint(format.codePointAt(i) as number);
    if (verb === undefined) {
      out += '%!(NOVERB)';
      break;
    }
    i += verb.length;
    if (verb === '%') {
      out += '%';
      continue;
    }
    if (argIndex >= args.length) {
      out += `%!${verb}(MISSING)`;
      continue;
    }
    out += formatOne(verb, args[argIndex++], spec);
  }
  if (argIndex < args.length) {
    out += '%!(EXTRA ' + args.slice(argIndex).map((arg) => (arg === null ? '<nil>' : `${typeName(arg)}=${formatValue(arg, true)}`)).join(', ') + ')';
  }
  return out;
}
