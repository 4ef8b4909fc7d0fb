/**
 * Plain scalars typed as gopkg.in/yaml.v2 types them (resolve.go: its lookup table, then Go's
 * strconv.ParseInt / ParseUint / ParseFloat), and their text as Go's `%v` prints it.
 */
import t, { type Test } from 'tap';
import { formatGoFloat, formatGoScalar, isGoInt, resolvePlain, type ScalarValue } from '../../../src/yaml/index.js';

type Case = [text: string, tag: string, value: ScalarValue];

function resolvesAs(t: Test, cases: readonly Case[]): void {
  for (const [text, tag, value] of cases) t.same(resolvePlain(text), { tag, value }, JSON.stringify(text));
}

t.test('YAML 1.1 booleans: y/yes/on and n/no/off in yaml.v2 three spellings, not mixed case', async (t) => {
  const truthy = ['y', 'Y', 'yes', 'Yes', 'YES', 'true', 'True', 'TRUE', 'on', 'On', 'ON'];
  const falsy = ['n', 'N', 'no', 'No', 'NO', 'false', 'False', 'FALSE', 'off', 'Off', 'OFF'];
  resolvesAs(t, truthy.map((text): Case => [text, '!!bool', true]));
  resolvesAs(t, falsy.map((text): Case => [text, '!!bool', false]));
  resolvesAs(t, ['yEs', 'tRUE', 'oN', 'nO', 'oFF', 'yes!', 'offline', 't', 'f'].map((text): Case => [text, '!!str', text]));
});

t.test('null: empty, ~ and null in three spellings', async (t) => {
  resolvesAs(t, ['', '~', 'null', 'Null', 'NULL'].map((text): Case => [text, '!!null', null]));
  resolvesAs(t, [['nULL', '!!str', 'nULL'], ['~~', '!!str', '~~'], ['nil', '!!str', 'nil']]);
});

t.test('integers: decimal, sign, 0x hex, 0o and leading-0 octal, 0b binary, _ separators', async (t) => {
  resolvesAs(t, [
    ['0', '!!int', 0n],
    ['-0', '!!int', 0n],
    ['42', '!!int', 42n],
    ['+42', '!!int', 42n],
    ['-42', '!!int', -42n],
    ['0x1f', '!!int', 31n],
    ['0X1F', '!!int', 31n],
    ['-0x10', '!!int', -16n],
    ['0o17', '!!int', 15n],
    ['0O17', '!!int', 15n],
    ['017', '!!int', 15n],
    ['-017', '!!int', -15n],
    ['00', '!!int', 0n],
    ['0b1010', '!!int', 10n],
    ['-0b11', '!!int', -3n],
    ['1_000_000', '!!int', 1_000_000n],
    ['0x_ff', '!!int', 255n],
    ['1__0', '!!int', 10n],
  ]);
});

t.test('what is not a Go integer falls through to a float, then to a string', async (t) => {
  resolvesAs(t, [
    // An octal with an 8 or 9 is not an integer, but is a decimal float.
    ['08', '!!float', 8],
    ['019', '!!float', 19],
    ['0x', '!!str', '0x'],
    ['0xg', '!!str', '0xg'],
    ['0o8', '!!str', '0o8'],
    ['0b2', '!!str', '0b2'],
    ['+', '!!str', '+'],
    ['-', '!!str', '-'],
    ['1-2', '!!str', '1-2'],
    ['12abc', '!!str', '12abc'],
    ['_1', '!!str', '_1'],
  ]);
});

t.test('integers past int64 are uint64 up to its end, then floats; a sign rules out uint64', async (t) => {
  resolvesAs(t, [
    ['9223372036854775807', '!!int', 2n ** 63n - 1n],
    ['-9223372036854775808', '!!int', -(2n ** 63n)],
    ['9223372036854775808', '!!int', 2n ** 63n],
    ['18446744073709551615', '!!int', 2n ** 64n - 1n],
    ['0xffffffffffffffff', '!!int', 2n ** 64n - 1n],
    // ParseUint takes no sign: these end as yaml-style floats.
    ['+9223372036854775808', '!!float', 9223372036854775808],
    ['-9223372036854775809', '!!float', -9223372036854775809],
    ['18446744073709551616', '!!float', 18446744073709551616],
    // Hex is no float form: past uint64 it stays text.
    ['0x10000000000000000', '!!str', '0x10000000000000000'],
  ]);
});

t.test('floats: yaml-style decimals and exponents, .inf and .nan in three spellings', async (t) => {
  resolvesAs(t, [
    ['1.5', '!!float', 1.5],
    ['-1.5', '!!float', -1.5],
    ['1.', '!!float', 1],
    ['.5', '!!float', 0.5],
    ['+.5', '!!float', 0.5],
    ['-.5e-3', '!!float', -0.0005],
    ['1e3', '!!float', 1000],
    ['1E+3', '!!float', 1000],
    ['1.e2', '!!float', 100],
    ['1_000.5', '!!float', 1000.5],
    ['1e-400', '!!float', 0],
    ['.inf', '!!float', Infinity],
    ['.Inf', '!!float', Infinity],
    ['+.INF', '!!float', Infinity],
    ['-.inf', '!!float', -Infinity],
    ['-.Inf', '!!float', -Infinity],
    ['-.INF', '!!float', -Infinity],
  ]);
  for (const text of ['.nan', '.NaN', '.NAN']) {
    const resolved = resolvePlain(text);
    t.equal(resolved.tag, '!!float', text);
    t.ok(Number.isNaN(resolved.value), `${text} is NaN`);
  }
  // Not in the table, and not something ParseFloat reads.
  resolvesAs(t, ['.Nan', '.iNF', '+.nan', 'inf', 'NaN', '.', '.e3', '1e', '0x1p3', '1.5.5'].map((text): Case => [text, '!!str', text]));
});

t.test('float overflow is a ParseFloat error, so the text stays a string as written', async (t) => {
  resolvesAs(t, [
    ['1e400', '!!str', '1e400'],
    ['-1e400', '!!str', '-1e400'],
    ['1_0e400', '!!str', '1_0e400'],
  ]);
});

t.test('regression: a leading-dot float past float64 stays a string, not +Inf', async (t) => {
  resolvesAs(t, [
    ['.5e400', '!!str', '.5e400'],
    ['.5E+309', '!!str', '.5E+309'],
    ['.5e308', '!!float', 0.5e308],
  ]);
});

t.test('regression: a leading-dot float takes _ between digits, as Go ParseFloat does, and nowhere else', async (t) => {
  resolvesAs(t, [
    ['.5_5', '!!float', 0.55],
    ['.1e1_0', '!!float', 1e9],
    ['._5', '!!str', '._5'],
    ['.5_', '!!str', '.5_'],
    ['.5__5', '!!str', '.5__5'],
    ['.5_e3', '!!str', '.5_e3'],
    ['.5e_3', '!!str', '.5e_3'],
  ]);
});

t.test('no sexagesimal numbers; dates stay text, as yaml.v2 decodes them into interface{}', async (t) => {
  resolvesAs(t, ['1:30', '190:20:30', '-1:30', '2024-01-02', '2001-12-14t21:59:43.10-05:00'].map((text): Case => [text, '!!str', text]));
});

t.test('only scalars starting with a hint character are typed; others are strings at once', async (t) => {
  resolvesAs(t, ['abc', 'Yes please', '<<', '*', '@1', ' 1', 'x1'].map((text): Case => [text, '!!str', text]));
});

t.test('isGoInt: a bigint in int64 range (Go int); larger ones are uint64, numbers are floats', async (t) => {
  t.equal(isGoInt(0n), true);
  t.equal(isGoInt(2n ** 63n - 1n), true);
  t.equal(isGoInt(-(2n ** 63n)), true);
  t.equal(isGoInt(2n ** 63n), false);
  t.equal(isGoInt(-(2n ** 63n) - 1n), false);
  t.equal(isGoInt(5), false, 'a float64, even when whole');
  t.equal(isGoInt('5'), false);
  t.equal(isGoInt(null), false);
});

t.test("formatGoFloat: strconv 'g' shortest, exponent outside [1e-4, 1e6), two exponent digits at least", async (t) => {
  const cases: Array<[number, string]> = [
    [0, '0'],
    [-0, '-0'],
    [1, '1'],
    [3.0, '3'],
    [-2.5, '-2.5'],
    [0.1, '0.1'],
    [0.0001, '0.0001'],
    [0.00012345, '0.00012345'],
    [0.00001, '1e-05'],
    [-0.000015, '-1.5e-05'],
    [123456.7, '123456.7'],
    [999999, '999999'],
    [1e6, '1e+06'],
    [-1234567, '-1.234567e+06'],
    [1e21, '1e+21'],
    [1.5e300, '1.5e+300'],
    [5e-324, '5e-324'],
    [Number.MAX_VALUE, '1.7976931348623157e+308'],
    [0.1 + 0.2, '0.30000000000000004'],
    [Infinity, '+Inf'],
    [-Infinity, '-Inf'],
    [NaN, 'NaN'],
  ];
  for (const [value, text] of cases) t.equal(formatGoFloat(value), text, String(value));
});

t.test('formatGoScalar: Go %v of each resolved kind', async (t) => {
  t.equal(formatGoScalar(null), '<nil>');
  t.equal(formatGoScalar(true), 'true');
  t.equal(formatGoScalar(false), 'false');
  t.equal(formatGoScalar(2n ** 64n - 1n), '18446744073709551615');
  t.equal(formatGoScalar(-7n), '-7');
  t.equal(formatGoScalar(1e6), '1e+06');
  t.equal(formatGoScalar(-Infinity), '-Inf');
  t.equal(formatGoScalar('text as is'), 'text as is');
  t.equal(formatGoScalar(''), '');
});

t.test('resolve then print gives what upstream prints for the same text', async (t) => {
  const printed = (text: string) => formatGoScalar(resolvePlain(text).value);
  t.equal(printed('~'), '<nil>');
  t.equal(printed('yes'), 'true');
  t.equal(printed('0x10'), '16');
  t.equal(printed('1000000.0'), '1e+06');
  t.equal(printed('.inf'), '+Inf');
  t.equal(printed('08'), '8');
  t.equal(printed('1:30'), '1:30');
});
