import t from 'tap';
import { parseClassicMatcher, parseClassicMatchers, type Matcher, type MatchType } from '../../../src/alerts/matchers/index.js';

type Plain = [string, MatchType, string];
const plain = (m: Matcher): Plain => [m.name, m.type, m.value];

t.test('Alertmanager pkg/labels.ParseMatcher: accepted forms', async (t) => {
  const cases: Array<[string, Plain]> = [
    ['foo=bar', ['foo', '=', 'bar']],
    ['  foo  !=  bar  ', ['foo', '!=', 'bar']],
    ['foo=~bar.*', ['foo', '=~', 'bar.*']],
    ['foo!~"bar"', ['foo', '!~', 'bar']],
    ['foo:bar=baz', ['foo:bar', '=', 'baz']],
    ['foo=', ['foo', '=', '']],
    ['foo=""', ['foo', '=', '']],
    ['a=b,c=d', ['a', '=', 'b,c=d']],
    ['foo="ba\\"r"', ['foo', '=', 'ba"r']],
    ['foo="a\\nb"', ['foo', '=', 'a\nb']],
    ['foo="a\\\\b"', ['foo', '=', 'a\\b']],
    ['foo=a\\db', ['foo', '=', 'a\\db']],
    ['foo=bar\\', ['foo', '=', 'bar\\']],
    ['foo=~"\\d+"', ['foo', '=~', '\\d+']],
    ['alertname="{alertname=test3}"', ['alertname', '=', '{alertname=test3}']],
  ];
  for (const [input, expected] of cases) {
    const r = parseClassicMatcher(input);
    t.same(r.ok && plain(r.value), expected, JSON.stringify(input));
  }
});

t.test('Alertmanager pkg/labels.ParseMatcher: error texts', async (t) => {
  const cases: Array<[string, string]> = [
    ['team', 'bad matcher format: team'],
    ['', 'bad matcher format: '],
    ['{a="b"}', 'bad matcher format: {a="b"}'],
    ['"foo"=bar', 'bad matcher format: "foo"=bar'],
    ['00=b', 'bad matcher format: 00=b'],
    ['fooΣ=bar', 'bad matcher format: fooΣ=bar'],
    ['foo="bar', 'matcher value contains unescaped double quote: "bar'],
    ['foo=bar"', 'matcher value contains unescaped double quote: bar"'],
    ['foo="b"ar"', 'matcher value contains unescaped double quote: "b"ar"'],
    ['foo=\ud800', 'matcher value not valid UTF-8: \ud800'],
    ['foo=~(', 'error parsing regexp: missing closing ): `^(?:()$`'],
  ];
  for (const [input, error] of cases) t.same(parseClassicMatcher(input), { ok: false, error }, JSON.stringify(input));
});

t.test('Alertmanager pkg/labels.ParseMatchers: lists', async (t) => {
  const list = (input: string): Plain[] | string => {
    const r = parseClassicMatchers(input);
    return r.ok ? r.value.map(plain) : r.error;
  };
  t.same(list('{foo = "bar", dings != "bums", }'), [
    ['foo', '=', 'bar'],
    ['dings', '!=', 'bums'],
  ]);
  t.same(list('foo=bar,dings!=bums'), [
    ['foo', '=', 'bar'],
    ['dings', '!=', 'bums'],
  ]);
  t.same(list('{quote="She said: \\"Hi, ladies! That\'s gender-neutral…\\""}'), [['quote', '=', 'She said: "Hi, ladies! That\'s gender-neutral…"']]);
  t.same(list('statuscode=~"5.."'), [['statuscode', '=~', '5..']]);
  t.same(list('{}'), []);
  t.same(list('a=b,,c=d'), 'bad matcher format: ');
});
