import t from 'tap';
import { loadConfig } from '../../../src/config/index.js';
import { ServiceError } from '../../../src/errors/index.js';
import type { DescriptorRule, RateLimitConfig } from '../../../src/engine/index.js';
import { Unit } from '../../../src/engine/units.js';
import { fixture } from '../../fixtures/config/index.js';

const NO_MERGE = { mergeDomainConfigs: false };
const MERGE = { mergeDomainConfigs: true };

function load(names: string[], options = NO_MERGE): ReturnType<typeof loadConfig> {
  return loadConfig(names.map(fixture), options);
}

function loaded(names: string[], options = NO_MERGE): RateLimitConfig {
  const result = load(names, options);
  if (!result.ok) throw new Error(`expected a valid configuration, got: ${result.error.message}`);
  return result.value;
}

function limited(key: string, value: string, requestsPerUnit: number, unit: Unit, extra: Partial<DescriptorRule> = {}): DescriptorRule {
  return {
    key,
    value,
    rateLimit: { unit, requestsPerUnit, unlimited: false, name: '', replaces: [] },
    shadowMode: false,
    detailedMetric: false,
    shareThreshold: false,
    descriptors: [],
    ...extra,
  };
}

/** A refused load: every configuration defect is CFG_INVALID with upstream's message. */
function invalid(message: string): { ok: false; error: ServiceError } {
  return { ok: false, error: new ServiceError('CFG_INVALID', message) };
}

// One fixture per defect (as upstream's test/config/*.yaml), each with upstream's exact message.
const ERRORS: Array<[string[], string]> = [
  [['bad_yaml.yaml'], 'bad_yaml.yaml: error loading config file: yaml: line 2: found unexpected end of stream'],
  [['bad_limit_unit.yaml'], "bad_limit_unit.yaml: invalid rate limit unit 'foo'"],
  [['missing_unit.yaml'], "missing_unit.yaml: invalid rate limit unit ''"],
  [['basic_config.yaml', 'duplicate_domain.yaml'], "duplicate_domain.yaml: duplicate domain 'test-domain' in config file"],
  [['duplicate_key.yaml'], "duplicate_key.yaml: duplicate descriptor composite key 'test-domain.key1_value1'"],
  [['empty_domain.yaml'], 'empty_domain.yaml: config file cannot have empty domain'],
  [['empty_file.yaml'], 'empty_file.yaml: config file cannot have empty domain'],
  [['empty_key.yaml'], 'empty_key.yaml: descriptor has empty key'],
  [['misspelled_key.yaml'], "misspelled_key.yaml: config error, unknown key 'ratelimit'"],
  [['misspelled_key2.yaml'], "misspelled_key2.yaml: config error, unknown key 'requestsperunit'"],
  [['non_map_list.yaml'], 'non_map_list.yaml: config error, yaml file contains list of type other than map: a'],
  [['non_string_key.yaml'], 'non_string_key.yaml: config error, key is not of type string: 0.25'],
  [['replaces_empty.yaml'], 'replaces_empty.yaml: should not have an empty replaces entry'],
  [['replaces_self.yaml'], 'replaces_self.yaml: replaces should not contain name of same descriptor'],
  [['unlimited_with_unit.yaml'], 'unlimited_with_unit.yaml: should not specify rate limit unit when unlimited'],
  [['float_value.yaml'], 'float_value.yaml: error checking config'],
  [
    ['share_threshold.yaml'],
    "share_threshold.yaml: share_threshold can only be used with wildcard values (containing '*'), but found key 'no_wildcard_files'",
  ],
  [
    ['negative_requests_per_unit.yaml'],
    'negative_requests_per_unit.yaml: error loading config file: yaml: unmarshal errors:\n' +
      '  line 6: cannot unmarshal !!int `-1` into uint32',
  ],
  [
    ['large_requests_per_unit.yaml'],
    'large_requests_per_unit.yaml: error loading config file: yaml: unmarshal errors:\n' +
      '  line 7: cannot unmarshal !!int `4294967296` into uint32',
  ],
  [
    ['string_requests_per_unit.yaml'],
    'string_requests_per_unit.yaml: error loading config file: yaml: unmarshal errors:\n' +
      '  line 5: cannot unmarshal !!str `maybe` into bool\n' +
      '  line 8: cannot unmarshal !!str `10` into uint32',
  ],
  [
    ['not_a_map.yaml'],
    'not_a_map.yaml: error loading config file: yaml: unmarshal errors:\n' +
      '  line 1: cannot unmarshal !!seq into map[interface {}]interface {}',
  ],
  [
    ['merge_domain_key1.yaml', 'merge_domain_key2.yaml'],
    "merge_domain_key2.yaml: duplicate domain 'test-domain' in config file",
  ],
];

t.test('each defect gives upstream’s exact message', async (t) => {
  for (const [names, error] of ERRORS) {
    t.same(load(names), invalid(error), names.join(' + '));
  }
});

t.test('a repeated key is a duplicate across merged files too', async (t) => {
  t.same(load(['merge_domain_key1.yaml', 'merge_domain_key1.yaml'], MERGE), invalid("merge_domain_key1.yaml: duplicate descriptor composite key 'test-domain.key1_value1'"));
});

t.test('every file is parsed before any semantic check, as upstream', async (t) => {
  const result = load(['duplicate_key.yaml', 'bad_yaml.yaml']);
  t.same(result, invalid('bad_yaml.yaml: error loading config file: yaml: line 2: found unexpected end of stream'));
});

t.test('merged domains combine their descriptor lists in file order', async (t) => {
  const config = loaded(['merge_domain_key1.yaml', 'merge_domain_key2.yaml'], MERGE);
  t.same(config, {
    domains: [
      {
        domain: 'test-domain',
        descriptors: [limited('key1', 'value1', 10, Unit.SECOND), limited('key2', 'value2', 20, Unit.MINUTE)],
      },
    ],
  });
});

t.test('distinct domains stay separate, in file order', async (t) => {
  const two = loadConfig(
    [
      { name: 'a.yaml', text: 'domain: first\ndescriptors:\n  - key: k\n' },
      { name: 'b.yaml', text: 'domain: second\n' },
    ],
    NO_MERGE,
  );
  t.same(two, {
    ok: true,
    value: {
      domains: [
        { domain: 'first', descriptors: [{ key: 'k', value: '', shadowMode: false, detailedMetric: false, shareThreshold: false, descriptors: [] }] },
        { domain: 'second', descriptors: [] },
      ],
    },
  });
});

t.test('basic_config gives the rules of scenario 22', async (t) => {
  const config = loaded(['basic_config.yaml']);
  t.equal(config.domains.length, 1);
  const domain = config.domains[0]!;
  t.equal(domain.domain, 'test-domain');
  t.same(
    domain.descriptors.map((d) => (d.value === '' ? d.key : `${d.key}_${d.value}`)),
    ['key1_value1', 'key2', 'key2_value2', 'key2_value3', 'key3', 'key4', 'key5_value5', 'key6', 'key7'],
  );
  const [key1, key2, key2v2, key2v3, key3, key4, key5, key6, key7] = domain.descriptors;
  t.same(key1, {
    key: 'key1',
    value: 'value1',
    shadowMode: false,
    detailedMetric: false,
    shareThreshold: false,
    descriptors: [limited('subkey1', '', 5, Unit.SECOND), limited('subkey1', 'subvalue1', 10, Unit.SECOND)],
  });
  t.equal(key1?.rateLimit, undefined, 'a parent without its own limit has none');
  t.same(key2, limited('key2', '', 20, Unit.MINUTE));
  t.same(key2v2, limited('key2', 'value2', 30, Unit.MINUTE));
  t.same(key2v3, { key: 'key2', value: 'value3', shadowMode: false, detailedMetric: false, shareThreshold: false, descriptors: [] });
  t.same(key3, limited('key3', '', 1, Unit.HOUR));
  t.same(key4?.rateLimit, { unit: Unit.DAY, requestsPerUnit: 1, unlimited: false, name: 'key4_rate_limit', replaces: [] });
  t.same(key5, limited('key5', 'value5', 15, Unit.DAY, { descriptors: [limited('subkey5', 'subvalue5', 25, Unit.DAY)] }));
  t.same(key6?.rateLimit, { unit: Unit.UNKNOWN, requestsPerUnit: 0, unlimited: true, name: '', replaces: [] });
  t.same(key7, limited('key7', '', 70, Unit.MINUTE, { detailedMetric: true }));
});

t.test('the result is plain data that survives structuredClone', async (t) => {
  const config = loaded(['basic_config.yaml']);
  t.same(structuredClone(config), config);
});

t.test('wildcard values are kept as written (scenario 23)', async (t) => {
  const [domain] = loaded(['wildcard.yaml']).domains;
  t.same(
    domain?.descriptors.map((d) => [d.key, d.value]),
    [
      ['wild', 'foo*'],
      ['noWild', 'foo'],
      ['noVal', ''],
      ['midWild', 'bar*b'],
      ['multiWild', 'foo*bar*baz'],
      ['nestedWild', 'val1'],
    ],
  );
  t.same(domain?.descriptors[5]?.descriptors[0], limited('wild', 'goo*', 20, Unit.MINUTE));
});

t.test('shadow_mode belongs to the descriptor', async (t) => {
  const [domain] = loaded(['shadowmode_config.yaml']).domains;
  t.same(
    domain?.descriptors[0]?.descriptors.map((d) => d.shadowMode),
    [false, true],
  );
  t.equal(domain?.descriptors[1]?.shadowMode, true);
});

t.test('keys of newer upstream features are read: share_threshold, value_to_metric, metadata', async (t) => {
  const [domain] = loaded(['upstream_only_keys.yaml']).domains;
  t.same(domain?.descriptors, [
    {
      ...limited('files', 'files/*', 10, Unit.HOUR),
      shareThreshold: true,
      valueToMetric: true,
      metadata: { anything_goes: 1.5, nested: ['not a map'] },
    },
  ]);
  t.equal(domain?.descriptors[0]?.quotaMode, undefined, 'quota_mode under rate_limit is not the descriptor\'s');
});

t.test('units are case-insensitive and include WEEK, MONTH and YEAR', async (t) => {
  const units = ['SECOND', 'Minute', 'hour', 'DaY', 'week', 'month', 'year'];
  const text = 'domain: d\ndescriptors:\n' + units.map((u, i) => `  - key: k${i}\n    rate_limit: {unit: ${u}, requests_per_unit: ${i}}\n`).join('');
  const result = loadConfig([{ name: 'units.yaml', text }], NO_MERGE);
  if (!result.ok) throw new Error(result.error.message);
  t.same(
    result.value.domains[0]?.descriptors.map((d) => d.rateLimit?.unit),
    [Unit.SECOND, Unit.MINUTE, Unit.HOUR, Unit.DAY, Unit.WEEK, Unit.MONTH, Unit.YEAR],
  );
  const unknown = loadConfig([{ name: 'u.yaml', text: 'domain: d\ndescriptors:\n  - key: k\n    rate_limit: {unit: unknown}\n' }], NO_MERGE);
  t.same(unknown, invalid("u.yaml: invalid rate limit unit 'unknown'"));
});

t.test('requests_per_unit absent or null means 0 (every request over the limit)', async (t) => {
  const result = loadConfig(
    [{ name: 'z.yaml', text: 'domain: d\ndescriptors:\n  - key: a\n    rate_limit: {unit: second}\n  - key: b\n    rate_limit: {unit: second, requests_per_unit: ~}\n' }],
    NO_MERGE,
  );
  if (!result.ok) throw new Error(result.error.message);
  t.same(result.value.domains[0]?.descriptors.map((d) => d.rateLimit?.requestsPerUnit), [0, 0]);
});

t.test('an unlimited rule with an unknown unit name is accepted, with unit UNKNOWN', async (t) => {
  const result = loadConfig(
    [{ name: 'x.yaml', text: 'domain: d\ndescriptors:\n  - key: a\n    rate_limit: {unlimited: true, unit: fortnight}\n' }],
    NO_MERGE,
  );
  t.same(result, {
    ok: true,
    value: {
      domains: [
        {
          domain: 'd',
          descriptors: [
            {
              key: 'a',
              value: '',
              shadowMode: false,
              detailedMetric: false,
              shareThreshold: false,
              descriptors: [],
              rateLimit: { unit: Unit.UNKNOWN, requestsPerUnit: 0, unlimited: true, name: '', replaces: [] },
            },
          ],
        },
      ],
    },
  });
});

t.test('no sources is a valid, empty configuration', async (t) => {
  t.same(loadConfig([], NO_MERGE), { ok: true, value: { domains: [] } });
});
