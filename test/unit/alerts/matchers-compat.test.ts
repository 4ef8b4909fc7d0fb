import t from 'tap';
import {
  compareMatchers,
  formatMatcher,
  formatMatchers,
  newMatcher,
  parseFilterMatcher,
  parseMatchersList,
  type Matcher,
  type MatchType,
} from '../../../src/alerts/matchers/index.js';

type Plain = [string, MatchType, string];
const plain = (m: Matcher): Plain => [m.name, m.type, m.value];

function filter(input: string): Plain | string {
  const r = parseFilterMatcher(input);
  return r.ok ? plain(r.value) : r.error;
}

t.test('fallback mode: filters the UTF-8 parser accepts', async (t) => {
  t.same(filter('00=b'), ['00', '=', 'b']);
  t.same(filter('Σ=c'), ['Σ', '=', 'c']);
  t.same(filter('"\\xf0\\x9f\\x99\\x82"=dΘ'), ['🙂', '=', 'dΘ']);
  t.same(filter('fooΣ=bar🙂'), ['fooΣ', '=', 'bar🙂']);
  t.same(filter('alertname="{alertname=test3}"'), ['alertname', '=', '{alertname=test3}']);
  t.same(filter('"alertname"="x"'), ['alertname', '=', 'x']);
});

t.test('fallback mode: the classic parser where the UTF-8 one fails or disagrees', async (t) => {
  t.same(filter('a=b,c=d'), ['a', '=', 'b,c=d'], 'two UTF-8 matchers: the classic single matcher');
  t.same(filter('test='), ['test', '=', ''], 'an empty value: classic only');
  t.same(filter('foo=bar baz'), ['foo', '=', 'bar baz']);
  t.same(filter('team=~"a|b"'), ['team', '=~', 'a|b']);
  // Both parse, differently: `\n` unquoted is two characters for the classic parser, so it
  // never reaches the UTF-8 one; a quoted `\t` is a tab for UTF-8 and `\t` for classic.
  t.same(filter('foo="a\\tb"'), ['foo', '=', 'a\\tb'], 'disagreement: the classic result');
});

t.test("Alertmanager's fallback parser cases", async (t) => {
  t.same(filter('foo=bar'), ['foo', '=', 'bar']);
  t.same(filter('foo!bar'), 'bad matcher format: foo!bar', 'accepted by neither: the classic error');
  t.same(filter('foo🙂=bar'), ['foo🙂', '=', 'bar'], 'UTF-8 only');
  t.same(filter('foo=!bar\\n'), ['foo', '=', '!bar\n'], 'classic only');
  t.same(filter('foo="\\xf0\\x9f\\x99\\x82"'), ['foo', '=', '\\xf0\\x9f\\x99\\x82'], 'disagreement: the classic result');
  const list = (input: string): Plain[] | string => {
    const r = parseMatchersList(input);
    return r.ok ? r.value.map(plain) : r.error;
  };
  t.same(list('{foo=bar,bar=baz}'), [
    ['foo', '=', 'bar'],
    ['bar', '=', 'baz'],
  ]);
  t.same(list('{foo!bar}'), 'bad matcher format: foo!bar');
  t.same(list('{foo🙂=bar,bar=baz🙂}'), [
    ['foo🙂', '=', 'bar'],
    ['bar', '=', 'baz🙂'],
  ]);
  t.same(list('{foo=!bar,bar=$baz\\n}'), [
    ['foo', '=', '!bar'],
    ['bar', '=', '$baz\n'],
  ]);
  t.same(list('{foo="\\xf0\\x9f\\x99\\x82"}'), [['foo', '=', '\\xf0\\x9f\\x99\\x82']]);
});

t.test('fallback mode: errors', async (t) => {
  t.same(filter('team'), 'bad matcher format: team');
  t.same(filter('{alertname="MyAlert"}'), 'unexpected open or close brace: {alertname="MyAlert"}');
  // A trailing brace the classic parser can read is a value, as amtool 0.25 sends `alertname={alertname=test3}`.
  t.same(filter('foo=bar}'), ['foo', '=', 'bar}']);
  t.same(filter('alertname={alertname=test3}'), ['alertname', '=', '{alertname=test3}']);
  t.same(filter('foo}'), 'unexpected open or close brace: foo}', 'a trailing brace on something that is no matcher');
  t.same(filter('foo=~('), 'error parsing regexp: missing closing ): `^(?:()$`');
  t.same(filter('foo="bar'), 'matcher value contains unescaped double quote: "bar');
});

t.test('configuration matchers entries: several per entry, braces allowed', async (t) => {
  const list = (input: string): Plain[] | string => {
    const r = parseMatchersList(input);
    return r.ok ? r.value.map(plain) : r.error;
  };
  t.same(list('a=b,c=~"d.*"'), [
    ['a', '=', 'b'],
    ['c', '=~', 'd.*'],
  ]);
  t.same(list('{a="b", c!="d"}'), [
    ['a', '=', 'b'],
    ['c', '!=', 'd'],
  ]);
  t.same(list('team=a'), [['team', '=', 'a']]);
  t.same(list('fooΣ=bar'), [['fooΣ', '=', 'bar']]);
  t.same(list('team'), 'bad matcher format: team');
});

t.test('matchFilterLabels semantics: a missing label is the empty string', async (t) => {
  const labels = { foo: 'bar' };
  const cases: Array<[string, boolean]> = [
    ['baz=""', true],
    ['baz=~"qux|"', true],
    ['baz!=""', false],
    ['baz!~"qux|"', false],
    ['baz!="qux"', true],
    ['baz!~"qux"', true],
    ['foo="bar"', true],
    ['foo!=""', true],
    ['foo=~"b.."', true],
    ['foo=~"b"', false],
  ];
  for (const [input, expected] of cases) {
    const m = parseFilterMatcher(input);
    t.equal(m.ok && m.value.matches(labels), expected, input);
  }
});

t.test('printing as Alertmanager does', async (t) => {
  const make = (name: string, type: MatchType, value: string): Matcher => {
    const m = newMatcher(name, type, value);
    if (!m.ok) throw new Error(m.error);
    return m.value;
  };
  t.equal(formatMatcher(make('team', '=', 'a')), 'team="a"');
  t.equal(formatMatcher(make('team', '=~', 'b|c')), 'team=~"b|c"');
  t.equal(formatMatcher(make('a', '!~', 'x')), 'a!~"x"');
  t.equal(formatMatcher(make('a', '!=', 'q"u\\o\nte')), 'a!="q\\"u\\\\o\\nte"');
  t.equal(formatMatcher(make('a', '=', 'tab\there Σ🙂')), 'a="tab\there Σ🙂"', 'only \\, newline and " escaped');
  t.equal(formatMatcher(make('with space', '=', 'tab\tΣ🙂\u00a0')), '"with space"="tab\\tΣ🙂\\u00a0"', 'a name needing quotes: Go quoting for both');
  t.equal(formatMatcher(make('Σ', '=', 'c')), 'Σ="c"');
  const sorted = [make('b', '=', 'x'), make('a', '!=', 'y'), make('a', '=', 'y'), make('a', '=', 'x')].sort(compareMatchers);
  t.equal(formatMatchers(sorted), '{a="x",a="y",a!="y",b="x"}');
  t.equal(formatMatchers([]), '{}');
});

t.test('newMatcher validates regexes and nothing else', async (t) => {
  t.same(newMatcher('a', '=~', '('), { ok: false, error: 'error parsing regexp: missing closing ): `^(?:()$`' });
  t.ok(newMatcher('', '=', '').ok, 'names are checked by callers');
  const m = newMatcher('a', '=~', 'x');
  t.equal(m.ok && m.value.matchesValue(''), false);
  t.equal(m.ok && String(m.value), 'a=~"x"');
});
