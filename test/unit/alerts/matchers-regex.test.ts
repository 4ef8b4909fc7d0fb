import t from 'tap';
import { compileAnchoredRegex } from '../../../src/alerts/matchers/index.js';
import { withoutGroupNames } from '../../../src/alerts/matchers/regex.js';

function test(pattern: string, value: string): boolean | string {
  const r = compileAnchoredRegex(pattern);
  return r.ok ? r.value(value) : r.error;
}

t.test('patterns are anchored at both ends', async (t) => {
  t.equal(test('b|c', 'b'), true);
  t.equal(test('b|c', 'abc'), false, 'not a substring search');
  t.equal(test('a.*', 'abc'), true);
  t.equal(test('bc', 'abc'), false);
  t.equal(test('', ''), true);
  t.equal(test('a|', ''), true);
});

t.test("Go's messages for common errors", async (t) => {
  const cases: Array<[string, string]> = [
    ['(', 'error parsing regexp: missing closing ): `^(?:()$`'],
    ['[a', 'error parsing regexp: missing closing ]: `[a)$`'],
    ['a)', 'error parsing regexp: unexpected ): `^(?:a))$`'],
    ['\\8', 'error parsing regexp: invalid escape sequence: `\\8`'],
    ['a**', 'error parsing regexp: invalid nested repetition operator: `**`'],
    ['*', 'error parsing regexp: missing argument to repetition operator: `*`'],
    ['x{2,1}', 'error parsing regexp: invalid repeat count: `{2,1}`'],
    ['x{1001}', 'error parsing regexp: invalid repeat count: `{1001}`'],
    ['[z-a]', 'error parsing regexp: invalid character class range: `z-a`'],
    ['[[:foo:]]', 'error parsing regexp: invalid character class range: `[:foo:]`'],
  ];
  for (const [pattern, error] of cases) t.equal(test(pattern, ''), error, pattern);
});

t.test('RE2, not JavaScript', async (t) => {
  t.equal(test('a(?=b)b', 'ab'), 'error parsing regexp: invalid or unsupported Perl syntax: `(?=`', 'no look-ahead');
  t.equal(test('a(?!b)', 'a'), 'error parsing regexp: invalid or unsupported Perl syntax: `(?!`');
  t.equal(test('(a)\\1', 'aa'), 'error parsing regexp: invalid escape sequence: `\\1`', 'no back-references');
  t.equal(test('\\d', '٣'), false, '\\d is ASCII only');
  t.equal(test('\\d', '7'), true);
  t.equal(test('\\w+', 'é'), false, '\\w is ASCII only');
  t.equal(test('.', '\n'), false, '. does not match a newline');
  t.equal(test('(?s).', '\n'), true);
  t.equal(test('.', '🙂'), true, '. is one code point');
  t.equal(test('(?i)abc', 'ABC'), true);
  t.equal(test('[[:alpha:]]+', 'abc'), true);
  t.equal(test('\\pL+', 'Σé'), true);
  t.equal(test('\\Q.*\\E', '.*'), true);
  t.equal(test('\\Q.*\\E', 'ab'), false);
  t.equal(test('(?P<x>a)', 'a'), true);
  t.equal(test('(?P<x>a)|(?P<x>b)', 'b'), true, 'Go allows a group name twice');
});

t.test('group names removed only where they are group names', async (t) => {
  t.equal(withoutGroupNames('(?P<x>a)[(?P<y>]\\(?P<z>(?<w>b)'), '(a)[(?P<y>]\\(?P<z>(b)');
  t.equal(withoutGroupNames('\\Q(?P<x>\\E(?P<x>c)'), '\\Q(?P<x>\\E(c)');
});
