import t from 'tap';
import { loadConfig } from '../../../src/config/index.js';
import { formatGoFloat, resolvePlain } from '../../../src/yaml/index.js';
import { parseYaml } from '../../../src/yaml/index.js';
import { Unit } from '../../../src/engine/units.js';

/** Loads one inline file named `f.yaml`; returns the error or the first domain's rules. */
function loadText(text: string) {
  const result = loadConfig([{ name: 'f.yaml', text }], { mergeDomainConfigs: false });
  return result.ok ? result.value.domains[0]?.descriptors : result.error.message;
}

t.test('plain scalars resolve with yaml.v2 (YAML 1.1) rules', async (t) => {
  const cases: Array<[string, string, unknown]> = [
    ['5', '!!int', 5n],
    ['-1', '!!int', -1n],
    ['+7', '!!int', 7n],
    ['1_000', '!!int', 1000n],
    ['0x1F', '!!int', 31n],
    ['017', '!!int', 15n],
    ['0o17', '!!int', 15n],
    ['0b101', '!!int', 5n],
    ['08', '!!float', 8],
    ['9223372036854775808', '!!int', 9223372036854775808n],
    ['1.5', '!!float', 1.5],
    ['.5', '!!float', 0.5],
    ['1e3', '!!float', 1000],
    ['.inf', '!!float', Infinity],
    ['yes', '!!bool', true],
    ['Off', '!!bool', false],
    ['y', '!!bool', true],
    ['true', '!!bool', true],
    ['~', '!!null', null],
    ['', '!!null', null],
    ['2024-01-02', '!!str', '2024-01-02'],
    ['foo*', '!!str', 'foo*'],
    ['0x', '!!str', '0x'],
  ];
  for (const [text, tag, value] of cases) t.same(resolvePlain(text), { tag, value }, JSON.stringify(text));
});

t.test("floats print as Go's %v does", async (t) => {
  t.equal(formatGoFloat(0.25), '0.25');
  t.equal(formatGoFloat(100000), '100000');
  t.equal(formatGoFloat(1000000), '1e+06');
  t.equal(formatGoFloat(1234567.5), '1.2345675e+06');
  t.equal(formatGoFloat(0.0001), '0.0001');
  t.equal(formatGoFloat(0.00001), '1e-05');
  t.equal(formatGoFloat(Infinity), '+Inf');
});

t.test('string fields take any scalar as written; bool fields take YAML 1.1 words', async (t) => {
  const rules = loadText(
    'domain: d\ndescriptors:\n  - key: 017\n    value: yes\n    shadow_mode: on\n    detailed_metric: "Y"\n' +
      '    rate_limit: {unit: minute, requests_per_unit: 0x10}\n',
  );
  t.same(rules, [
    {
      key: '017',
      value: 'yes',
      shadowMode: true,
      detailedMetric: true,
      shareThreshold: false,
      descriptors: [],
      rateLimit: { unit: Unit.MINUTE, requestsPerUnit: 16, unlimited: false, name: '', replaces: [] },
    },
  ]);
});

t.test('leaves that are not string, int, bool or null fail the key walk', async (t) => {
  t.equal(loadText('domain: d\ndescriptors:\n  - key: k\n    value: 08\n'), 'f.yaml: error checking config');
  t.equal(loadText('domain: 18446744073709551615\n'), 'f.yaml: error checking config', 'uint64 is not int');
  t.equal(loadText('domain: .nan\n'), 'f.yaml: error checking config');
});

t.test('non-string keys are printed with Go formatting', async (t) => {
  t.equal(loadText('true: d\n'), 'f.yaml: config error, key is not of type string: true');
  t.equal(loadText('1000000.0: d\n'), 'f.yaml: config error, key is not of type string: 1e+06');
  t.equal(loadText('~: d\n'), 'f.yaml: config error, key is not of type string: <nil>');
  t.equal(
    loadText('domain: d\ndescriptors:\n  - [a, 1]\n'),
    'f.yaml: config error, yaml file contains list of type other than map: [a 1]',
  );
});

t.test('a valid key in the wrong place passes and is ignored', async (t) => {
  t.same(loadText('domain: d\nunit: second\ndescriptors:\n  - key: k\n    requests_per_unit: 5\n'), [
    { key: 'k', value: '', shadowMode: false, detailedMetric: false, shareThreshold: false, descriptors: [] },
  ]);
});

t.test('mismatched structure is an unmarshal error with the Go type', async (t) => {
  t.equal(
    loadText('domain: {name: x}\ndescriptors: foo\n'),
    'f.yaml: error loading config file: yaml: unmarshal errors:\n' +
      '  line 1: cannot unmarshal !!map into string\n' +
      '  line 2: cannot unmarshal !!str `foo` into []config.YamlDescriptor',
  );
  t.equal(
    loadText('domain: d\ndescriptors:\n  - key: k\n    rate_limit: every-second-please\n'),
    'f.yaml: error loading config file: yaml: unmarshal errors:\n' +
      '  line 4: cannot unmarshal !!str `every-s...` into config.YamlRateLimit',
  );
  t.equal(
    loadText('hello\n'),
    'f.yaml: error loading config file: yaml: unmarshal errors:\n' +
      '  line 1: cannot unmarshal !!str `hello` into map[interface {}]interface {}',
  );
});

t.test('a null rate_limit means no limit', async (t) => {
  t.same(loadText('domain: d\ndescriptors:\n  - key: k\n    rate_limit:\n'), [
    { key: 'k', value: '', shadowMode: false, detailedMetric: false, shareThreshold: false, descriptors: [] },
  ]);
});

t.test('anchors, aliases and merge keys are expanded', async (t) => {
  const rules = loadText(
    'domain: d\ndescriptors:\n' +
      '  - key: a\n    rate_limit: &limit {unit: hour, requests_per_unit: 3}\n' +
      '  - key: b\n    rate_limit: *limit\n' +
      '  - key: c\n    rate_limit:\n      <<: *limit\n      requests_per_unit: 4\n',
  );
  const limit = (n: number) => ({ unit: Unit.HOUR, requestsPerUnit: n, unlimited: false, name: '', replaces: [] });
  t.same(
    Array.isArray(rules) ? rules.map((r) => r.rateLimit) : rules,
    [limit(3), limit(3), limit(4)],
  );
  t.equal(loadText('domain: *nope\n'), "f.yaml: error loading config file: yaml: unknown anchor 'nope' referenced");
});

t.test('explicit tags must agree with the text', async (t) => {
  t.equal(loadText('domain: !!int abc\n'), 'f.yaml: error loading config file: yaml: cannot decode !!str `abc` as a !!int');
  t.same(loadText('domain: !!str 5\ndescriptors:\n  - key: !!str 1.5\n'), [
    { key: '1.5', value: '', shadowMode: false, detailedMetric: false, shareThreshold: false, descriptors: [] },
  ]);
});

t.test('common syntax errors use yaml.v2 wording', async (t) => {
  t.equal(loadText('domain: "d\n'), 'f.yaml: error loading config file: yaml: line 2: found unexpected end of stream');
  t.equal(loadText('domain: d: e\n'), 'f.yaml: error loading config file: yaml: mapping values are not allowed in this context');
  t.equal(loadText('domain: d\n\tdescriptors: []\n'), 'f.yaml: error loading config file: yaml: line 2: found a tab character that violates indentation');
});

t.test('only the first document of a file counts, as with yaml.v2', async (t) => {
  t.same(loadText('domain: d\n---\ndomain: e\nbogus: 1\n'), []);
});

t.test('alias bombs are refused with yaml.v2 message; ordinary aliases still expand', async (t) => {
  let bomb = 'domain: d\nl0: &l0 [k, k, k, k, k, k, k, k, k, k]\n';
  for (let i = 1; i < 9; i++) bomb += `l${i}: &l${i} [${Array.from({ length: 10 }, () => `*l${i - 1}`).join(', ')}]\n`;
  t.same(parseYaml(bomb), { ok: false, error: 'yaml: document contains excessive aliasing' });
  const fine = parseYaml('a: &x {k: v}\nb: *x\nc: *x\n');
  t.equal(fine.ok, true, 'a few aliases are fine');
});
