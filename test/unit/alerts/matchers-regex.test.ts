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

t.test('literal alternations are tested as sets and other patterns behind their literal prefix, with the answers RE2 gives', async (t) => {
  const { RE2JS } = await import('re2js');
  const patterns = [
    'host-1|host-2|host-10', 'a|', '|', 'a.b|c', 'a\\.b|c\\-d', 'a\\|b', 'ab*|ab', 'ab+c', 'ab?', 'a{2}', 'a{,2}', 'abc|abd.*', '(?i)abc',
    'ab(?i)c|de', 'ab(?i:c)', 'x(?:y|z)', '[ab]c', 'a[|]b|c', '\\Qa|b\\E|c', 'é|ü|日本', '🙂x|🙂y', '\\d+', 'host-12.*', '.*-prod', 'a\\ b', 'a_b|\\_c', '^a$|b', 'a\\Qb',
  ];
  const values = ['', 'a', 'b', 'c', 'ab', 'abb', 'abc', 'ABC', 'abC', 'abd', 'abdx', 'aa', 'a.b', 'axb', 'c-d', 'a|b', 'a b', 'a_b', '_c', 'xy', 'xz', 'ac', 'bc', '|c',
    'host-1', 'host-2', 'host-10', 'host-12', 'host-123', 'db-prod', 'é', 'ü', '日本', '🙂x', '🙂y', '42', 'de', 'DE', 'dE', 'a\\b', 'ab\\Qb'];
  for (const pattern of patterns) {
    const ours = compileAnchoredRegex(pattern);
    if (!ours.ok) {
      t.throws(() => RE2JS.compile(`^(?:${pattern})$`), `${pattern}: refused as RE2 refuses it`);
      continue;
    }
    const re2 = RE2JS.compile(`^(?:${pattern})$`);
    const wrong = values.filter((value) => ours.value(value) !== re2.testExact(value));
    t.same(wrong, [], `${pattern}: same answers as RE2 for every value`);
  }
});

t.test('what a pattern says about its values: an exact set for literal alternations, else a prefix', async (t) => {
  const { patternLiterals } = await import('../../../src/alerts/matchers/regex-literals.js');
  const read = (pattern: string) => {
    const { exact, prefix } = patternLiterals(pattern);
    return { exact: exact === undefined ? undefined : [...exact], prefix };
  };
  t.same(read('host-1|host-2'), { exact: ['host-1', 'host-2'], prefix: 'host-' });
  t.same(read('a\\.b|a\\-c'), { exact: ['a.b', 'a-c'], prefix: 'a' }, 'escaped punctuation is literal');
  t.same(read('host-12.*'), { exact: undefined, prefix: 'host-12' });
  t.same(read('ab*'), { exact: undefined, prefix: 'a' }, 'a character a quantifier follows is not required');
  t.same(read('abc|x.*'), { exact: undefined, prefix: '' });
  t.same(read('(?i)abc'), { exact: undefined, prefix: '' }, 'flags change everything');
  t.same(read('ab(?i)c|de'), { exact: undefined, prefix: '' }, 'even in another branch');
  t.same(read('a[|]b|ac'), { exact: undefined, prefix: 'a' }, 'a | inside a class does not split');
  t.same(read('\\d+'), { exact: undefined, prefix: '' });
});
