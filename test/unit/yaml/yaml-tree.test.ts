/**
 * YAML documents read into the tree gopkg.in/yaml.v2 decodes (v2.4.0, as envoyproxy/ratelimit and
 * Alertmanager use it). Expected error texts are yaml.v2's own, as `amtool check-config` prints
 * them for the same input.
 */
import t, { type Test } from 'tap';
import {
  describe,
  MAX_YAML_DEPTH,
  MAX_YAML_NODES,
  parseYaml,
  type YamlMap,
  type YamlNode,
  type YamlScalar,
} from '../../../src/yaml/index.js';

/** The document's root; fails the test when it does not parse. */
function rootOf(t: Test, text: string): YamlNode | null {
  const result = parseYaml(text);
  if (!result.ok) t.fail(`${JSON.stringify(text.slice(0, 60))} did not parse: ${result.error}`);
  return result.ok ? result.root : null;
}

function errorOf(text: string): string {
  const result = parseYaml(text);
  return result.ok ? 'parsed' : result.error;
}

/** Plain values for comparing whole trees: maps as `[key, value]` pairs in order, so duplicates and order show. */
function plain(node: YamlNode | null | undefined): unknown {
  if (node === null || node === undefined) return null;
  switch (node.kind) {
    case 'scalar':
      return node.value;
    case 'seq':
      return node.items.map(plain);
    case 'map':
      return node.entries.map((e) => [plain(e.key), plain(e.value)]);
  }
}

function mapOf(t: Test, text: string): YamlMap {
  const root = rootOf(t, text);
  if (root?.kind !== 'map') throw new Error(`${JSON.stringify(text)} is not a map`);
  return root;
}

function entry(map: YamlMap, key: string): YamlNode | undefined {
  return map.entries.find((e) => e.key.kind === 'scalar' && e.key.text === key)?.value;
}

/** "Billion laughs": `levels` lists of 10, each level's items aliases of the level before. */
function laughs(levels: number): string {
  let text = 'l0: &l0 [k, k, k, k, k, k, k, k, k, k]\n';
  for (let i = 1; i < levels; i++) text += `l${i}: &l${i} [${Array.from({ length: 10 }, () => `*l${i - 1}`).join(', ')}]\n`;
  return text;
}

t.test('maps and sequences keep their order, and every node its 1-based line', async (t) => {
  const root = mapOf(t, '# rules\na: 1\nb:\n  - x\n  - [w, {z: 2}]\nc: {d: e}\n');
  t.same(plain(root), [
    ['a', 1n],
    ['b', ['x', ['w', [['z', 2n]]]]],
    ['c', [['d', 'e']]],
  ]);
  t.equal(root.line, 2, 'the map starts at its first key');
  t.same(
    root.entries.map((e) => [e.key.line, e.value.line]),
    [
      [2, 2],
      [3, 4],
      [6, 6],
    ],
  );
  const b = entry(root, 'b');
  t.same(b?.kind === 'seq' ? b.items.map((item) => item.line) : [], [4, 5]);
});

t.test('plain scalars are typed by yaml.v2 rules; quoted and block scalars stay strings', async (t) => {
  const root = mapOf(t, "p: 5\nq: '5'\nr: \"yes\"\ns: yes\nu: |\n  5\nv: >-\n  on\n");
  const scalars = root.entries.map((e) => e.value as YamlScalar);
  t.same(
    scalars.map((s) => [s.tag, s.value, s.text]),
    [
      ['!!int', 5n, '5'],
      ['!!str', '5', '5'],
      ['!!str', 'yes', 'yes'],
      ['!!bool', true, 'yes'],
      ['!!str', '5\n', '5\n'],
      ['!!str', 'on', 'on'],
    ],
  );
});

t.test('a document with nothing in it, or only a null, has no root', async (t) => {
  for (const text of ['', '\n', '# only a comment\n', '~\n', 'null\n', '---\n', '--- ~\n...\n']) {
    t.same(parseYaml(text), { ok: true, root: null }, JSON.stringify(text));
  }
});

t.test('only the first document is read, as yaml.v2 Unmarshal reads it', async (t) => {
  t.same(plain(rootOf(t, 'a: 1\n---\nb: 2\n')), [['a', 1n]]);
  t.same(plain(rootOf(t, '--- [x]\n--- {broken\n')), ['x'], 'a broken later document is not read');
});

t.test('a key with nothing after it has a null value, on the key line', async (t) => {
  const root = mapOf(t, 'a:\nb: 1\n');
  t.same(entry(root, 'a'), { kind: 'scalar', line: 1, tag: '!!null', text: '', value: null });
});

t.test('aliases stand for their anchor node; a redefined anchor means its latest node', async (t) => {
  t.same(plain(rootOf(t, 'a: &x {k: v}\nb: *x\nc: [*x, *x]\n')), [
    ['a', [['k', 'v']]],
    ['b', [['k', 'v']]],
    ['c', [[['k', 'v']], [['k', 'v']]]],
  ]);
  t.same(plain(rootOf(t, 'a: &x 1\nb: *x\nc: &x 2\nd: *x\n')), [
    ['a', 1n],
    ['b', 1n],
    ['c', 2n],
    ['d', 2n],
  ]);
});

t.test('unknown anchors and anchors inside themselves are errors in yaml.v2 words', async (t) => {
  t.equal(errorOf('a: *nope\n'), "yaml: unknown anchor 'nope' referenced");
  t.equal(errorOf('a: &x [1, *x]\n'), "yaml: anchor 'x' value contains itself");
  t.equal(errorOf('a: &x {b: {c: *x}}\n'), "yaml: anchor 'x' value contains itself");
});

t.test('a merge key puts the merged entries where it stands, so keys written after it win', async (t) => {
  const root = mapOf(t, 'base: &base {a: 1, b: 2}\nm: {x: 0, <<: *base, b: 3}\n');
  t.same(plain(entry(root, 'm')), [
    ['x', 0n],
    ['a', 1n],
    ['b', 2n],
    ['b', 3n],
  ]);
});

t.test('a merged list of maps puts the earlier maps last, so they win as yaml.v2 says', async (t) => {
  const root = mapOf(t, 'one: &one {k: 1}\ntwo: &two {k: 2, j: 2}\nm:\n  <<: [*one, *two]\n');
  t.same(plain(entry(root, 'm')), [
    ['k', 2n],
    ['j', 2n],
    ['k', 1n],
  ]);
});

t.test('a merge of anything but a map or a list of maps is refused in yaml.v2 words', async (t) => {
  for (const value of ['5', '[a, b]', '[{a: 1}, x]', '*s']) {
    t.equal(errorOf(`s: &s text\nm:\n  <<: ${value}\n`), 'yaml: map merge requires map or sequence of maps as the value', value);
  }
});

t.test('regression: only a plain untagged << or one tagged !!merge merges', async (t) => {
  t.same(plain(rootOf(t, '!!merge <<: {a: 1}\nb: 2\n')), [
    ['a', 1n],
    ['b', 2n],
  ]);
  t.same(plain(rootOf(t, '"<<": {a: 1}\n')), [['<<', [['a', 1n]]]]);
  t.same(plain(rootOf(t, '!!str <<: {a: 1}\n')), [['<<', [['a', 1n]]]]);
});

t.test('regression: the non-specific tag ! keeps a scalar unresolved, under tag !', async (t) => {
  const root = mapOf(t, 'a: ! 5\nb: ! true\n');
  t.same(
    root.entries.map((e) => e.value),
    [
      { kind: 'scalar', line: 1, tag: '!', text: '5', value: '5' },
      { kind: 'scalar', line: 2, tag: '!', text: 'true', value: 'true' },
    ],
  );
});

t.test('explicit core tags must agree with the text; !!float takes an integer; other tags are kept', async (t) => {
  t.equal(errorOf('a: !!int 1.5\n'), 'yaml: cannot decode !!float `1.5` as a !!int');
  t.equal(errorOf('a: !!bool 1\n'), 'yaml: cannot decode !!int `1` as a !!bool');
  t.equal(errorOf('a: !!null x\n'), 'yaml: cannot decode !!str `x` as a !!null');
  const root = mapOf(t, 'f: !!float 1\ns: !!str 1\nc: !custom x\nl: !<tag:yaml.org,2002:int> 7\n');
  t.same(
    root.entries.map((e) => [(e.value as YamlScalar).tag, (e.value as YamlScalar).value]),
    [
      ['!!float', 1],
      ['!!str', '1'],
      ['!custom', 'x'],
      ['!!int', 7n],
    ],
  );
});

t.test('duplicate keys are all kept in order with their lines: decoding decides which counts', async (t) => {
  // yaml.v2's Unmarshal lets the last one win; UnmarshalStrict says "key ... already set in map".
  const root = mapOf(t, 'a: 1\nb: 2\na: 3\n');
  t.same(
    root.entries.map((e) => [plain(e.key), plain(e.value), e.key.line]),
    [
      ['a', 1n, 1],
      ['b', 2n, 2],
      ['a', 3n, 3],
    ],
  );
});

t.test('a collection as a map key is refused', async (t) => {
  t.match(errorOf('? [a, b]\n: 1\n'), /^yaml: invalid map key: /);
  t.match(errorOf('{a: 1}: x\n'), /^yaml: invalid map key: /);
});

t.test('a small billion-laughs document is refused with yaml.v2 message', async (t) => {
  const started = performance.now();
  t.equal(errorOf(laughs(9)), 'yaml: document contains excessive aliasing');
  t.ok(performance.now() - started < 1000, 'without expanding it');
});

t.test('regression: aliases inside an anchor are counted once, so nesting yaml.v2 takes passes', async (t) => {
  // Decoded as yaml.v2 decodes it, three levels are 1,358 nodes of which 1,320 come from aliases
  // (97.2%, under its 99%); four levels are 13,580 and 13,530 (99.6%, over).
  t.equal(rootOf(t, laughs(3))?.kind, 'map');
  t.equal(errorOf(laughs(4)), 'yaml: document contains excessive aliasing');
});

t.test('aliases are not counted against a document of few nodes, however many there are', async (t) => {
  // yaml.v2 only refuses past 100 alias nodes and 1,000 nodes in all.
  const manyAliases = 'x: &x [k, k, k, k]\n' + Array.from({ length: 150 }, (_, i) => `a${i}: *x\n`).join('');
  t.equal(rootOf(t, manyAliases)?.kind, 'map');
});

t.test('merge keys that double the entries at every level stop at the node bound', async (t) => {
  let text = 'm0: &m0 {a: 1, b: 2}\n';
  for (let i = 1; i < 40; i++) text += `m${i}: &m${i} {<<: [*m${i - 1}, *m${i - 1}]}\n`;
  // A bound of 100,000 here: reaching MAX_YAML_NODES (20 million) takes seconds, by the same code.
  const result = parseYaml(text, 100_000);
  t.same(result, { ok: false, error: 'yaml: document has more than 100000 nodes' });
  const withinBound = 'm0: &m0 {a: 1, b: 2}\n' + Array.from({ length: 3 }, (_, i) => `m${i + 1}: &m${i + 1} {<<: [*m${i}, *m${i}]}\n`).join('');
  t.ok(parseYaml(withinBound, 100_000).ok, 'three doublings are within it');
});

t.test('nesting: MAX_YAML_DEPTH levels are read, one more is refused', async (t) => {
  const nested = (levels: number) => '['.repeat(levels) + ']'.repeat(levels);
  t.equal(rootOf(t, nested(MAX_YAML_DEPTH))?.kind, 'seq');
  t.equal(errorOf(nested(MAX_YAML_DEPTH + 1)), `yaml: document nests more than ${MAX_YAML_DEPTH} levels`);
  const blockLevels = (levels: number) => Array.from({ length: levels }, (_, i) => `${' '.repeat(i)}k:`).join('\n') + ' v\n';
  t.equal(errorOf(blockLevels(MAX_YAML_DEPTH)), `yaml: document nests more than ${MAX_YAML_DEPTH} levels`, 'a scalar at the bottom is a level too');
  t.equal(rootOf(t, blockLevels(MAX_YAML_DEPTH - 1))?.kind, 'map');
});

t.test('regression: a document nested far past the bound is refused again and again, without ending the process', async (t) => {
  // Running the parser out of stack once could make a later parse abort the whole process.
  const documents = ['['.repeat(20_000) + ']'.repeat(20_000), '{a: '.repeat(5000) + '1' + '}'.repeat(5000), '- '.repeat(5000) + 'x\n'];
  for (let round = 0; round < 3; round++) {
    for (const text of documents) t.equal(errorOf(text), `yaml: document nests more than ${MAX_YAML_DEPTH} levels`);
  }
});

t.test('regression: syntax errors read as yaml.v2 reports them, at the line it names', async (t) => {
  // libyaml's scanner errors name their line; its parser errors the line before (0-based); an
  // error on the first line names none.
  const cases: Array<[string, string]> = [
    ["a: 'x\n", 'yaml: line 2: found unexpected end of stream'],
    ["a: 'x", 'yaml: found unexpected end of stream'],
    ['x: "a\n\nb\n', 'yaml: line 4: found unexpected end of stream'],
    ['a: b: c\n', 'yaml: mapping values are not allowed in this context'],
    ['x: 1\na: b: c\n', 'yaml: line 2: mapping values are not allowed in this context'],
    ['a: b\n  c\n d: e\n', 'yaml: line 3: mapping values are not allowed in this context'],
    ['foo\n  bar: 1\n', 'yaml: line 2: mapping values are not allowed in this context'],
    ['a:\n  b: 1\n c: 2\n', 'yaml: line 2: did not find expected key'],
    ['a: b\n- c\n', 'yaml: line 1: did not find expected key'],
    ['key: [a, b]]\n', 'yaml: did not find expected key'],
    ['x: 1\na: [1, 2\n', "yaml: line 2: did not find expected ',' or ']'"],
    ['x: 1\ny: {a: 1\nz: 2\n', "yaml: line 2: did not find expected ',' or '}'"],
    ['a: [1, 2}\n', "yaml: did not find expected ',' or ']'"],
    ['descriptors:\n  - key: a\n    value: b\n  rate_limit: 1\n', "yaml: line 3: did not find expected '-' indicator"],
    ['descriptors:\n  - key: a\n   value: b\n', "yaml: line 2: did not find expected '-' indicator"],
    ['x:\n  - [a]]\n', "yaml: line 1: did not find expected '-' indicator"],
    ['a: 1\nfoo\n', "yaml: line 3: could not find expected ':'"],
    ['a: 1\nfoo', "yaml: line 3: could not find expected ':'"],
    ['route:\n  receiver: team\n  group_by [a, b]\n  routes: []\n', "yaml: line 4: could not find expected ':'"],
    ['route:\n\treceiver: x\n', 'yaml: line 2: found character that cannot start any token'],
    ['a: 1\n\tb: 2\n', 'yaml: line 2: found a tab character that violates indentation'],
    ['a: 1\n\n\tb: 2\n', 'yaml: line 3: found a tab character that violates indentation'],
    ['a: 1 # note\n\tb: 2\n', 'yaml: line 2: found character that cannot start any token'],
    ['x:\n  y: 1\n \t z: 2\n', 'yaml: line 3: found a tab character that violates indentation'],
    ['a: |\n  x\n\tb: 1\n', 'yaml: line 3: found a tab character where an indentation space is expected'],
    ['x: 1\ny: @b\n', 'yaml: line 2: found character that cannot start any token'],
    ['x: 1\ny: "a\\q"\n', 'yaml: line 2: found unknown escape character'],
    ['x: 1\na: - b\n', 'yaml: line 2: block sequence entries are not allowed in this context'],
  ];
  for (const [text, error] of cases) t.equal(errorOf(text), error, JSON.stringify(text));
});

t.test("describe prints Go's %v: sorted map keys, spaced lists, Go scalars", async (t) => {
  const root = rootOf(t, '[1, [2, 3], {b: 1, a: [x]}, ~, 1000000.0, yes, .inf]');
  t.equal(root === null ? '' : describe(root), '[1 [2 3] map[a:[x] b:1] <nil> 1e+06 true +Inf]');
});

t.test('regression: describe cuts a large node off with one ..., whatever its size', async (t) => {
  const list = rootOf(t, `[${Array.from({ length: 10_000 }, (_, i) => i).join(', ')}]`);
  const text = list === null ? '' : describe(list);
  t.ok(text.length < 1000, `${text.length} characters`);
  t.match(text, /^\[0 1 2 .* 198 \.\.\.\]$/);
  const map = rootOf(t, '{d: 4, c: 3, b: 2, a: 1}');
  t.equal(map === null ? '' : describe(map, { left: 4 }), 'map[c:3 d:4 ...]', 'the pairs shown are sorted, the cut comes last');
});
