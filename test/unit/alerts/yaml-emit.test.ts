import t from 'tap';
import { compareYamlKeys, emitYaml, lit, map, seq, str } from '../../../src/alerts/config/yaml-emit.js';

t.test("scalar styles as Go's yaml.v2 chooses them", async (t) => {
  const one = (value: string): string => emitYaml(map([['k', str(value)]]));
  t.equal(one('plain text'), 'k: plain text\n');
  t.equal(one(''), 'k: ""\n');
  t.equal(one('true'), 'k: "true"\n');
  t.equal(one('yes'), 'k: "yes"\n');
  t.equal(one('10'), 'k: "10"\n');
  t.equal(one('1:30'), 'k: "1:30"\n', 'sexagesimal-looking');
  t.equal(one('~'), 'k: "~"\n');
  t.equal(one('...'), "k: '...'\n");
  t.equal(one('-'), "k: '-'\n");
  t.equal(one('a: b'), "k: 'a: b'\n");
  t.equal(one('a #b'), "k: 'a #b'\n");
  t.equal(one('#alerts'), "k: '#alerts'\n");
  t.equal(one("it's"), "k: it's\n");
  t.equal(one("'quoted'"), "k: '''quoted'''\n");
  t.equal(one(' lead'), "k: ' lead'\n");
  t.equal(one('tab\there'), 'k: "tab\\there"\n');
  t.equal(one('smile 🙂'), 'k: "smile \\U0001F642"\n', 'astral characters are escaped');
  t.equal(one('Σ é'), 'k: Σ é\n');
  t.equal(one('team="a"'), 'k: team="a"\n');
  t.equal(emitYaml(map([['y', str('n')]])), '"y": "n"\n', 'YAML 1.1 booleans are quoted, keys too');
  t.equal(one('a\nb'), 'k: |-\n  a\n  b\n');
  t.equal(one('a\nb\n'), 'k: |\n  a\n  b\n');
  t.equal(one('a\n\n'), 'k: |+\n  a\n\n');
  t.equal(one(' a\nb'), 'k: |2-\n   a\n  b\n');
  t.equal(one('trailing \nspace'), 'k: "trailing \\nspace"\n');
});

t.test('long lines fold at spaces after column 80', async (t) => {
  const words = Array(30).fill('word').join(' ');
  t.equal(
    emitYaml(map([['long', str(words)]])),
    'long: word word word word word word word word word word word word word word word word\n  word word word word word word word word word word word word word word\n',
  );
  t.equal(emitYaml(map([['url', str('x'.repeat(120))]])), `url: ${'x'.repeat(120)}\n`, 'no space, no fold');
});

t.test('collections', async (t) => {
  t.equal(
    emitYaml(
      map([
        ['list', seq([str('a'), map([['k', str('v')], ['num', lit(1)], ['n', lit(true)]]), seq([str('x'), str('y')]), map([]), seq([])])],
        ['flow', seq([str('monday:friday'), str('sunday')], true)],
        ['empty', seq([])],
        ['nested', map([['deeper', map([['b', lit(true)]])]])],
      ]),
    ),
    `list:
- a
- k: v
  num: 1
  "n": true
- - x
  - "y"
- {}
- []
flow: ['monday:friday', sunday]
empty: []
nested:
  deeper:
    b: true
`,
  );
});

t.test("map keys in yaml.v2's order", async (t) => {
  // Runs of digits compare as numbers (a missing run as 0), other characters before letters.
  t.same(['b', 'a10', 'a9', 'A', '_x', 'a', '1'].sort(compareYamlKeys), ['_x', '1', 'A', 'a', 'a9', 'a10', 'b']);
});
