import t from 'tap';
import type { DescriptorRule, RateLimitConfig } from '../../../src/engine/index.js';
import { compileConfig, findRule } from '../../../src/engine/descriptor-trie.js';
import type { DescriptorEntry } from '../../../src/engine/request.js';
import { Unit } from '../../../src/engine/units.js';
import { RuleStatsFactory, StatsStore } from '../../../src/observability/stats.js';

function rule(key: string, value: string, limit?: [number, Unit] | 'unlimited', children: DescriptorRule[] = [], extra: Partial<DescriptorRule> = {}, name = ''): DescriptorRule {
  return {
    key,
    value,
    rateLimit:
      limit === undefined
        ? undefined
        : limit === 'unlimited'
          ? { unit: Unit.UNKNOWN, requestsPerUnit: 0, unlimited: true, name, replaces: [] }
          : { unit: limit[1], requestsPerUnit: limit[0], unlimited: false, name, replaces: [] },
    shadowMode: false,
    detailedMetric: false,
    shareThreshold: false,
    descriptors: children,
    ...extra,
  };
}

// Upstream's config test fixture test/config/basic_config.yaml.
const basic: RateLimitConfig = {
  domains: [
    {
      domain: 'test-domain',
      descriptors: [
        rule('key1', 'value1', undefined, [rule('subkey1', '', [5, Unit.SECOND]), rule('subkey1', 'subvalue1', [10, Unit.SECOND])]),
        rule('key2', '', [20, Unit.MINUTE]),
        rule('key2', 'value2', [30, Unit.MINUTE]),
        rule('key2', 'value3'),
        rule('key3', '', [1, Unit.HOUR]),
        rule('key4', '', [1, Unit.DAY], [], {}, 'key4_rate_limit'),
        rule('key5', 'value5', [15, Unit.DAY], [rule('subkey5', 'subvalue5', [25, Unit.DAY])]),
        rule('key6', '', 'unlimited'),
        rule('key7', '', [70, Unit.MINUTE], [], { detailedMetric: true }),
      ],
    },
  ],
};

const compiled = compileConfig(basic, { nearLimitRatio: 0.8 });
const level = compiled.domains.get('test-domain')!;
const d = (...pairs: Array<[string, string]>): DescriptorEntry[] => pairs.map(([key, value]) => ({ key, value }));

t.test('descriptors that match nothing get no limit', async (t) => {
  t.equal(findRule(level, d(['key1', 'something'])), undefined, 'no rule for the value');
  t.equal(findRule(level, d(['key1', 'value1'])), undefined, 'placeholder node without a limit');
  t.equal(findRule(level, d(['key2', 'value2'], ['subkey', 'subvalue'])), undefined, 'deeper than the config');
  t.equal(findRule(level, d(['key5', 'value5'], ['subkey5', 'subvalue'])), undefined, 'no default at that level');
  t.equal(findRule(level, d(['key2', 'value3'])), undefined, 'whitelisted');
});

t.test('most specific rule wins at exact depth', async (t) => {
  const sub = findRule(level, d(['key1', 'value1'], ['subkey1', 'something']));
  t.same(sub?.limit, { name: '', requestsPerUnit: 5, unit: Unit.SECOND });
  t.equal(sub?.fullKey, 'test-domain.key1_value1.subkey1');
  const exact = findRule(level, d(['key1', 'value1'], ['subkey1', 'subvalue1']));
  t.equal(exact?.limit.requestsPerUnit, 10);
  t.equal(exact?.fullKey, 'test-domain.key1_value1.subkey1_subvalue1');
  t.equal(findRule(level, d(['key2', 'something']))?.fullKey, 'test-domain.key2');
  t.equal(findRule(level, d(['key2', 'value2']))?.limit.requestsPerUnit, 30);
  t.equal(findRule(level, d(['key4', 'foo']))?.limit.name, 'key4_rate_limit');
  t.equal(findRule(level, d(['key6', 'foo']))?.unlimited, true);
  const detailed = findRule(level, d(['key7', 'unspecified_value']));
  t.equal(detailed?.detailedMetric, true);
  t.equal(detailed?.limit.requestsPerUnit, 70);
});

t.test('wildcard values (upstream test/config/wildcard.yaml)', async (t) => {
  const config: RateLimitConfig = {
    domains: [
      {
        domain: 'test-domain',
        descriptors: [
          rule('wild', 'foo*', [20, Unit.MINUTE]),
          rule('noWild', 'foo', [20, Unit.MINUTE]),
          rule('midWild', 'bar*b', [20, Unit.MINUTE]),
          rule('multiWild', 'foo*bar*baz', [20, Unit.MINUTE]),
          rule('nestedWild', 'val1', undefined, [rule('wild', 'goo*', [20, Unit.MINUTE])]),
        ],
      },
    ],
  };
  const root = compileConfig(config, { nearLimitRatio: 0.8 }).domains.get('test-domain')!;
  const key = (k: string, v: string) => findRule(root, d([k, v]))?.fullKey;
  t.equal(key('wild', 'foo1'), 'test-domain.wild_foo*');
  t.equal(key('wild', 'foo2'), 'test-domain.wild_foo*');
  t.equal(key('wild', 'bar'), undefined);
  t.equal(key('noWild', 'foo1'), undefined);
  for (const v of ['barab', 'bar123b', 'barb']) t.equal(key('midWild', v), 'test-domain.midWild_bar*b', v);
  for (const v of ['bara', 'xbarb']) t.equal(key('midWild', v), undefined, v);
  for (const v of ['foo123bar456baz', 'foobarbaz']) t.equal(key('multiWild', v), 'test-domain.multiWild_foo*bar*baz', v);
  for (const v of ['foo123baz', 'bar456baz']) t.equal(key('multiWild', v), undefined, v);
  t.equal(findRule(root, d(['nestedWild', 'val1'], ['wild', 'goo2']))?.fullKey, 'test-domain.nestedWild_val1.wild_goo*');
});

t.test('entries are matched as the string key_value, as upstream looks them up', async (t) => {
  const config: RateLimitConfig = {
    domains: [
      {
        domain: 'd',
        descriptors: [
          rule('a', 'b_c', [1, Unit.SECOND], [], {}, 'a→b_c'),
          rule('x_y', '', [2, Unit.SECOND], [], {}, 'key-only x_y'),
          rule('p', 'q', [3, Unit.SECOND], [], {}, 'p→q'),
          rule('m', '', [4, Unit.SECOND], [], {}, 'key-only m'),
        ],
      },
    ],
  };
  const lvl = compileConfig(config, { nearLimitRatio: 0.8 }).domains.get('d')!;
  const name = (...pairs: Array<[string, string]>) => findRule(lvl, d(...pairs))?.limit.name;
  t.equal(name(['a', 'b_c']), 'a→b_c');
  t.equal(name(['a_b', 'c']), 'a→b_c', 'a_b + c spells the same string');
  t.equal(name(['a_b_c', '']), 'a→b_c', 'a_b_c + "" is no segment; the key-only lookup by a_b_c then finds a→b_c');
  t.equal(name(['x', 'y']), 'key-only x_y', 'x + y spells the key-only segment x_y');
  t.equal(name(['x_y', 'anything']), 'key-only x_y', 'key-only lookup by the key');
  t.equal(name(['p_q', 'zzz']), 'p→q', 'the key-only lookup uses the same map: key p_q finds p→q');
  t.equal(name(['m', '']), 'key-only m', 'm + "" is m_, no segment; then the key-only rule');
  t.equal(name(['a', 'b']), undefined);
  t.equal(name(['a', 'b_']), undefined);
  t.equal(name(['', 'a_b_c']), undefined, '_a_b_c is not a_b_c');
});

t.test('lookups agree with upstream string lookups for every short key and value', async (t) => {
  // Segments over {a, _} up to 4 characters, valued and key-only, against requests over the same alphabet.
  const words = [''];
  for (let length = 1; length <= 4; length++) {
    for (const w of words.filter((x) => x.length === length - 1)) words.push(w + 'a', w + '_');
  }
  const keys = words.filter((w) => w !== '');
  const descriptors: DescriptorRule[] = [];
  const seen = new Set<string>();
  for (const key of keys) {
    for (const value of ['', ...keys]) {
      const segment = value === '' ? key : `${key}_${value}`;
      if (seen.has(segment) || (seen.size * 7919 + segment.length) % 3 !== 0) continue; // a third of them
      seen.add(segment);
      descriptors.push(rule(key, value, [1, Unit.SECOND], [], {}, segment));
    }
  }
  const lvl = compileConfig({ domains: [{ domain: 'd', descriptors }] }, { nearLimitRatio: 0.8 }).domains.get('d')!;
  const upstream = (key: string, value: string) => (seen.has(`${key}_${value}`) ? `${key}_${value}` : seen.has(key) ? key : undefined);
  let mismatches = 0;
  for (const key of words) {
    for (const value of words) {
      if (findRule(lvl, d([key, value]))?.limit.name !== upstream(key, value)) mismatches++;
    }
  }
  t.ok(seen.size > 20, `${seen.size} rules`);
  t.equal(mismatches, 0, `${words.length ** 2} key/value pairs`);
});
