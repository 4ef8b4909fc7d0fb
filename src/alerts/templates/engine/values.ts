/**
 * Go values as templates see them. A JS string is a Go string, a JS number an int, `GoFloat` a
 * float64, a boolean a bool, `null` an untyped nil and `undefined` Go's invalid value (what a
 * missing map entry of an interface map gives, printed `<no value>`). Typed values (slices,
 * maps, structs, times) carry their Go type: its name, for errors and `%T`, and its methods,
 * which templates call by name before looking at fields or map keys, as Go does.
 */

export class GoFloat {
  constructor(readonly value: number) {}
}

/** A string of a named string type (html/template's HTML from `safeHtml`, time.Month's name...). */
export class GoTypedString {
  constructor(
    readonly type: GoType,
    readonly value: string,
  ) {}
}

export class GoSlice {
  constructor(
    readonly type: GoType,
    readonly items: readonly GoValue[],
  ) {}
}

/** A map with string keys (Alertmanager's KV, or a plain `map[string]string`). */
export class GoMap {
  constructor(
    readonly type: GoType,
    readonly entries: ReadonlyMap<string, GoValue>,
  ) {}
}

export class GoStruct {
  constructor(
    readonly type: GoType,
    /** Field values in declaration order. */
    readonly fields: ReadonlyMap<string, GoValue>,
  ) {}
}

/** A value of a type defined elsewhere with its own printing (time.Time, time.Duration). */
export abstract class GoOpaque {
  abstract readonly type: GoType;
  /** Go's template truth of the value: a struct is always true, a number when not zero. */
  abstract truth(): boolean;
}

export type GoValue = string | number | boolean | null | undefined | GoFloat | GoTypedString | GoSlice | GoMap | GoStruct | GoOpaque;

/** What a function or method parameter accepts: a Go type name, or `any` (interface{}). */
export type ParamType = string;

export interface GoMethod {
  params: readonly ParamType[];
  /** Variadic methods take their last param any number of times. */
  variadic?: boolean;
  call(receiver: GoValue, args: readonly GoValue[]): GoValue;
}

export interface GoType {
  /** As Go prints it: `template.KV`, `[]string`, `time.Time`. */
  name: string;
  kind: 'string' | 'slice' | 'map' | 'struct' | 'opaque';
  methods: Readonly<Record<string, GoMethod>>;
  /** The method fmt prints the value with (`String`), when the type has one. */
  stringer?: (value: GoValue) => string;
  /** A struct's JSON field names (encoding/json tags), by Go field name. */
  jsonNames?: Readonly<Record<string, string>>;
}

export const STRING_SLICE: GoType = { name: '[]string', kind: 'slice', methods: {} };
export const ANY_SLICE: GoType = { name: '[]interface {}', kind: 'slice', methods: {} };
export const STRING_MAP: GoType = { name: 'map[string]string', kind: 'map', methods: {} };

/** An error raised while executing, with Go's message (without the location prefix). */
export class ExecError extends Error {}

/** The Go type name of a value, as `%T` and error messages print it. */
export function typeName(value: GoValue): string {
  if (value === undefined) return '<invalid reflect.Value>';
  if (value === null) return '<nil>';
  if (typeof value === 'string') return 'string';
  if (typeof value === 'number') return 'int';
  if (typeof value === 'boolean') return 'bool';
  if (value instanceof GoFloat) return 'float64';
  return value.type.name;
}

/** Whether a Go value is of a string kind (fmt's Sprint spacing, comparisons). */
export function stringOf(value: GoValue): string | undefined {
  if (typeof value === 'string') return value;
  if (value instanceof GoTypedString) return value.value;
  return undefined;
}

/** Go's template truth: empty strings, collections, zero numbers, false and nil are false. */
export function isTrue(value: GoValue): boolean {
  if (value === undefined) throw new ExecError('if/with can\'t use <invalid reflect.Value>');
  if (value === null) return false;
  if (typeof value === 'string') return value !== '';
  if (typeof value === 'number') return value !== 0;
  if (typeof value === 'boolean') return value;
  if (value instanceof GoFloat) return value.value !== 0;
  if (value instanceof GoTypedString) return value.value !== '';
  if (value instanceof GoSlice) return value.items.length > 0;
  if (value instanceof GoMap) return value.entries.size > 0;
  if (value instanceof GoStruct) return true;
  return value.truth();
}

/** Go's strconv.FormatFloat(f, 'g', -1, 64), which fmt's %v uses for floats. */
export function formatFloatShortest(value: number): string {
  if (Number.isNaN(value)) return 'NaN';
  if (value === Infinity) return '+Inf';
  if (value === -Infinity) return '-Inf';
  if (value === 0) return Object.is(value, -0) ? '-0' : '0';
  const [mantissa, exponentText] = value.toExponential().split('e') as [string, string];
  const exponent = Number(exponentText);
  // Shortest 'g' switches to an exponent below 1e-4 and from 1e6 on (strconv's eprec of 6).
  if (exponent < -4 || exponent >= 6) return goExponent(mantissa, exponent);
  return String(value);
}

function goExponent(mantissa: string, exponent: number): string {
  const sign = exponent < 0 ? '-' : '+';
  const abs = Math.abs(exponent);
  return `${mantissa}e${sign}${abs < 10 ? '0' + abs : abs}`;
}

/** fmt's %v of a value (fmt.Sprint of one operand). */
export function formatValue(value: GoValue, nested = false): string {
  if (value === undefined) return nested ? '<invalid reflect.Value>' : '<no value>';
  if (value === null) return '<nil>';
  if (typeof value === 'string') return value;
  if (typeof value === 'number') return String(value);
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (value instanceof GoFloat) return formatFloatShortest(value.value);
  const stringer = value.type.stringer;
  if (stringer !== undefined) return stringer(value);
  if (value instanceof GoTypedString) return value.value;
  if (value instanceof GoSlice) return `[${value.items.map((item) => formatValue(item, true)).join(' ')}]`;
  if (value instanceof GoMap) {
    const keys = [...value.entries.keys()].sort(compareBytes);
    return `map[${keys.map((key) => `${key}:${formatValue(value.entries.get(key), true)}`).join(' ')}]`;
  }
  if (value instanceof GoStruct) {
    const fields = `{${[...value.fields.values()].map((field) => formatValue(field, true)).join(' ')}}`;
    // The data a template starts with is a pointer (*template.Data), which fmt prints as &{...}.
    return !nested && value.type.name.startsWith('*') ? '&' + fields : fields;
  }
  return value.type.name;
}

/** Go's string order (bytewise UTF-8), which is code point order. */
export function compareBytes(a: string, b: string): number {
  if (a === b) return 0;
  const x = [...a];
  const y = [...b];
  for (let i = 0; i < Math.min(x.length, y.length); i++) {
    const cx = x[i]?.codePointAt(0) ?? 0;
    const cy = y[i]?.codePointAt(0) ?? 0;
    if (cx !== cy) return cx < cy ? -1 : 1;
  }
  return x.length - y.length;
}

/** fmt.Sprint: operands side by side, a space between two when neither is a string. */
export function sprint(args: readonly GoValue[]): string {
  let out = '';
  args.forEach((arg, i) => {
    const isString = stringOf(arg) !== undefined;
    const prevString = i > 0 && stringOf(args[i - 1]) !== undefined;
    if (i > 0 && !isString && !prevString) out += ' ';
    out += formatValue(arg, true);
  });
  return out;
}

/** fmt.Sprintln: operands always separated by spaces, and a newline. */
export function sprintln(args: readonly GoValue[]): string {
  return args.map((arg) => formatValue(arg, true)).join(' ') + '\n';
}

/** The length of a string in UTF-8 bytes, as Go's len counts. */
export function utf8Length(text: string): number {
  return Buffer.byteLength(text, 'utf8');
}

/** A function's own failure (Go's returned error): the executor reports `error calling <name>: <message>`. */
export class CallError extends Error {}

/** A template function: its parameter types (the last repeated when variadic) and its body. */
export interface GoFunction {
  params: readonly ParamType[];
  variadic?: boolean;
  call(args: readonly GoValue[]): GoValue;
}

/** Whether `value` may be passed where Go expects `param`. */
export function assignable(value: GoValue, param: ParamType): boolean {
  switch (param) {
    case 'any':
      return true;
    case 'string':
      return typeof value === 'string';
    case 'int':
      return typeof value === 'number';
    case 'float64':
      return value instanceof GoFloat;
    case 'bool':
      return typeof value === 'boolean';
    default:
      return value !== null && value !== undefined && typeof value === 'object' && !(value instanceof GoFloat) && value.type.name === param;
  }
}
