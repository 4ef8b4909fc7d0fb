import t from 'tap';
import { parseUtf8Matcher, parseUtf8Matchers, type Matcher, type MatchType } from '../../../src/alerts/matchers/index.js';
import { MatcherLexer } from '../../../src/alerts/matchers/utf8-lexer.js';

type Plain = [string, MatchType, string];
const plain = (ms: readonly Matcher[]): Plain[] => ms.map((m) => [m.name, m.type, m.value]);

t.test('Alertmanager matcher/parse: lists that parse', async (t) => {
  const cases: Array<[string, Plain[]]> = [
    ['', []],
    ['{}', []],
    ['{foo=bar}', [['foo', '=', 'bar']]],
    ['{foo=bar,}', [['foo', '=', 'bar']]],
    ['{foo!=bar}', [['foo', '!=', 'bar']]],
    ['{foo=~[a-z]+}', [['foo', '=~', '[a-z]+']]],
    ['{foo!~[a-z]+}', [['foo', '!~', '[a-z]+']]],
    ['{foo=🙂}', [['foo', '=', '🙂']]],
    ['{foo=🙂bar}', [['foo', '=', '🙂bar']]],
    ['foo=bar,', [['foo', '=', 'bar']]],
    ['{"foo"="bar"}', [['foo', '=', 'bar']]],
    ['{"foo"="bar",}', [['foo', '=', 'bar']]],
    ['{"foo"="\\xf0\\x9f\\x99\\x82"}', [['foo', '=', '🙂']]],
    ['{"foo"="\\U0001f642"}', [['foo', '=', '🙂']]],
    ['{"foo"="bar\\n"}', [['foo', '=', 'bar\n']]],
    ['{"foo"="bar\\t"}', [['foo', '=', 'bar\t']]],
    ['{"foo"="\\"bar\\""}', [['foo', '=', '"bar"']]],
    ['{"foo"="bar\\\\"}', [['foo', '=', 'bar\\']]],
    ['"foo"="bar",', [['foo', '=', 'bar']]],
    ['{foo=bar,bar!=baz}', [['foo', '=', 'bar'], ['bar', '!=', 'baz']]],
    ['foo="bar",bar!="baz"', [['foo', '=', 'bar'], ['bar', '!=', 'baz']]],
    [' { foo = bar , baz =~ "q.*" } ', [['foo', '=', 'bar'], ['baz', '=~', 'q.*']]],
  ];
  for (const [input, expected] of cases) {
    const r = parseUtf8Matchers(input);
    t.ok(r.ok, `${JSON.stringify(input)} parses`);
    if (r.ok) t.same(plain(r.value), expected, JSON.stringify(input));
  }
});

t.test('Alertmanager matcher/parse: error texts and column positions', async (t) => {
  const cases: Array<[string, string]> = [
    [',', '0:1: unexpected ,: expected label name'],
    ['{,}', '1:2: unexpected ,: expected label name'],
    ['{', '0:1: end of input: expected close brace'],
    ['}', '0:1: }: expected opening brace'],
    ['foo=bar}', '0:8: }: expected opening brace'],
    ['{foo=bar', '0:8: end of input: expected close brace'],
    ['{foo=:"bar"}', '6:11: unexpected "bar": expected a comma or close brace'],
    ['{foo="bar\\w"}', '5:12: "bar\\w": invalid input'],
    ['{foo=bar\\n}', '8:9: \\: invalid input: expected a comma or close brace'],
    ['{"foo"="\\xf0\\x9f"}', '7:17: "\\xf0\\x9f": invalid input'],
    ['foo=', 'end of input: expected label value'],
    ['foo', "end of input: expected an operator such as '=', '!=', '=~' or '!~'"],
    ['foo!bar', "3:4: !: expected one of '=~': expected an operator such as '=', '!=', '=~' or '!~'"],
    ['foo="bar', '4:8: "bar: missing end ": expected label value'],
    ['foo=bar baz', '8:11: unexpected baz: expected a comma or close brace'],
    ['foo=~(', 'failed to create matcher: error parsing regexp: missing closing ): `^(?:()$`'],
  ];
  for (const [input, error] of cases) {
    t.same(parseUtf8Matchers(input), { ok: false, error }, JSON.stringify(input));
  }
});

t.test('exactly one matcher', async (t) => {
  t.same(parseUtf8Matcher(''), { ok: false, error: 'no matchers' });
  t.same(parseUtf8Matcher('{}'), { ok: false, error: 'no matchers' });
  t.same(parseUtf8Matcher('foo=bar,bar=baz'), { ok: false, error: 'expected 1 matcher, found 2' });
  t.same(parseUtf8Matcher('foo="\\xf0\\x9f"'), { ok: false, error: '4:14: "\\xf0\\x9f": invalid input' });
  const one = parseUtf8Matcher('{foo=bar,}');
  t.ok(one.ok && one.value.name === 'foo' && one.value.value === 'bar');
});

t.test('the lexer counts columns in code points and keeps its first error', async (t) => {
  const l = new MatcherLexer('hello🙂Σ world');
  const first = l.scan();
  t.same(first.ok && [first.token.value, first.token.columnStart, first.token.columnEnd], ['hello🙂Σ', 0, 7]);
  const second = l.scan();
  t.same(second.ok && [second.token.value, second.token.columnStart, second.token.columnEnd], ['world', 8, 13]);
  const broken = new MatcherLexer('"hello');
  for (let i = 0; i < 3; i++) t.same(broken.scan(), { ok: false, error: '0:6: "hello: missing end "' });
  t.same(new MatcherLexer('!').scan(), { ok: false, error: "0:1: unexpected end of input, expected one of '=~'" });
  t.same(new MatcherLexer('~').scan(), { ok: false, error: '0:1: ~: invalid input' });
  const bang = new MatcherLexer('!=!!');
  bang.scan();
  t.same(bang.scan(), { ok: false, error: "2:3: !: expected one of '=~'" });
});
