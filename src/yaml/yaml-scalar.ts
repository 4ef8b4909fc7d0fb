/**
 * Plain YAML scalars resolved the way upstream's parser (Go gopkg.in/yaml.v2, YAML 1.1 rules)
 * resolves them, and Go's `%v` text of the results.
 *
 * Why not the `yaml` package's own schemas: upstream's validation depends on the Go type of
 * every value (`int` and `bool` pass, `float64`/`uint64` give "error checking config"), and
 * yaml.v2 has its own rules (`yes`/`on`/`y` are booleans, `017` is octal, `08` is a float,
 * `1_000` is an int, a date stays a string). So `yaml` only parses (failsafe schema, every
 * scalar a string) and this module decides the types.
 */

/** A resolved scalar: `bigint` for integers (the full uint64 range), `number` for floats. */
export type ScalarValue = string | bigint | number | boolean | null;

export interface ResolvedScalar {
  /** yaml.v2's short tag: `!!str`, `!!int`, `!!float`, `!!bool`, `!!null`. */
  tag: string;
  value: ScalarValue;
}

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;
const UINT64_MAX = 2n ** 64n - 1n;

/** yaml.v2's lookup table (YAML 1.1 booleans included); consulted for hint characters only. */
const SPECIAL: ReadonlyMap<string, ResolvedScalar> = new Map<string, ResolvedScalar>([
  ...['y', 'Y', 'yes', 'Yes', 'YES', 'true', 'True', 'TRUE', 'on', 'On', 'ON'].map(
    (s): [string, ResolvedScalar] => [s, { tag: '!!bool', value: true }],
  ),
  ...['n', 'N', 'no', 'No', 'NO', 'false', 'False', 'FALSE', 'off', 'Off', 'OFF'].map(
    (s): [string, ResolvedScalar] => [s, { tag: '!!bool', value: false }],
  ),
  ...['', '~', 'null', 'Null', 'NULL'].map((s): [string, ResolvedScalar] => [s, { tag: '!!null', value: null }]),
  ...['.nan', '.NaN', '.NAN'].map((s): [string, ResolvedScalar] => [s, { tag: '!!float', value: NaN }]),
  ...['.inf', '.Inf', '.INF', '+.inf', '+.Inf', '+.INF'].map(
    (s): [string, ResolvedScalar] => [s, { tag: '!!float', value: Infinity }],
  ),
  ...['-.inf', '-.Inf', '-.INF'].map((s): [string, ResolvedScalar] => [s, { tag: '!!float', value: -Infinity }]),
]);

/** yaml.v2 only resolves scalars whose first character is one of these; others are strings. */
const HINT_CHARS = /^[-+0-9.yYnNtTfFoO~]/;
const STYLE_FLOAT = /^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$/;
const GO_DOT_FLOAT = /^\.[0-9]+(_[0-9]+)*([eE][-+]?[0-9]+(_[0-9]+)*)?$/;

/** Resolves an untagged plain scalar as yaml.v2 does. */
export function resolvePlain(text: string): ResolvedScalar {
  if (text !== '' && !HINT_CHARS.test(text)) return { tag: '!!str', value: text };
  const special = SPECIAL.get(text);
  if (special !== undefined) return special;
  const first = text[0];
  if (first === '.') {
    // yaml.v2 hands the text to Go's ParseFloat as written: after a leading dot only a decimal
    // fraction, with `_` between digits as Go's literals allow.
    return GO_DOT_FLOAT.test(text) ? goFloat(text) : str(text);
  }
  if (first === '-' || first === '+' || (first !== undefined && first >= '0' && first <= '9')) {
    const plain = text.replace(/_/g, '');
    const int = parseGoInt(plain);
    if (int !== undefined) return { tag: '!!int', value: int };
    if (STYLE_FLOAT.test(plain)) return goFloat(text);
  }
  return str(text);
}

/**
 * Go's ParseFloat of well-formed text, `_` separators dropped: an out-of-range value is its error,
 * and the text then stays a string as written.
 */
function goFloat(text: string): ResolvedScalar {
  const float = Number(text.replace(/_/g, ''));
  return Number.isFinite(float) ? { tag: '!!float', value: float } : str(text);
}

function str(text: string): ResolvedScalar {
  return { tag: '!!str', value: text };
}

/**
 * Go's strconv.ParseInt(s, 0, 64), falling back to ParseUint(s, 0, 64) as yaml.v2 does:
 * optional sign, then `0x`/`0o`/`0b` prefixes or a leading `0` for octal.
 */
function parseGoInt(s: string): bigint | undefined {
  const sign = s[0] === '-' || s[0] === '+' ? s[0] : '';
  const magnitude = parseGoUint(s.slice(sign.length));
  if (magnitude === undefined) return undefined;
  if (sign === '-') return -magnitude >= INT64_MIN ? -magnitude : undefined;
  if (sign === '+') return magnitude <= INT64_MAX ? magnitude : undefined;
  return magnitude <= UINT64_MAX ? magnitude : undefined;
}

function parseGoUint(s: string): bigint | undefined {
  let digits: string | undefined;
  if (/^(0|[1-9][0-9]*)$/.test(s)) digits = s;
  else if (/^0[0-7]+$/.test(s)) digits = '0o' + s.slice(1);
  else if (/^0[xX][0-9a-fA-F]+$|^0[oO][0-7]+$|^0[bB][01]+$/.test(s)) digits = '0' + s.slice(1).toLowerCase();
  return digits === undefined ? undefined : BigInt(digits);
}

/** True for integers Go decodes as `int` (int64 range); larger ones become `uint64`. */
export function isGoInt(value: ScalarValue): value is bigint {
  return typeof value === 'bigint' && value >= INT64_MIN && value <= INT64_MAX;
}

/** Go's `%v` text of a float64: shortest digits, exponent form outside [1e-4, 1e6) (strconv 'g'). */
export function formatGoFloat(value: number): string {
  if (Number.isNaN(value)) return 'NaN';
  if (!Number.isFinite(value)) return value > 0 ? '+Inf' : '-Inf';
  if (value === 0) return Object.is(value, -0) ? '-0' : '0';
  const [mantissa = '', exponentText = '0'] = value.toExponential().split('e');
  const exponent = Number(exponentText);
  if (exponent >= -4 && exponent < 6) return String(value);
  const abs = Math.abs(exponent);
  return `${mantissa}e${exponent < 0 ? '-' : '+'}${abs < 10 ? '0' : ''}${abs}`;
}

/** Go's `%v` text of a resolved scalar, as in upstream's validation messages. */
export function formatGoScalar(value: ScalarValue): string {
  if (value === null) return '<nil>';
  if (typeof value === 'number') return formatGoFloat(value);
  return String(value);
}
