import t from 'tap';
import { SharedMemoryCounterStore } from '../../../src/backends/shared-memory/index.js';
import { Code, compileConfig, ManualClock, RateLimitService, Unit, type DescriptorRule, type DescriptorStatus, type RateLimitResponse } from '../../../src/engine/index.js';
import { headerStatusIndex } from '../../../src/engine/response-headers.js';
import { overallCodeOf } from '../../../src/engine/overall-code.js';
import { mergeFirstWins, newStruct } from '../../../src/engine/metadata.js';
import { RuleStatsFactory, StatsStore } from '../../../src/observability/index.js';

function rule(key: string, value: string, extra: Partial<DescriptorRule> = {}, limit?: number): DescriptorRule {
  return {
    key,
    value,
    shadowMode: false,
    detailedMetric: false,
    shareThreshold: false,
    descriptors: [],
    ...(limit === undefined ? {} : { rateLimit: { unit: Unit.MINUTE, requestsPerUnit: limit, unlimited: false, name: '', replaces: [] } }),
    ...extra,
  };
}

function service(descriptors: DescriptorRule[], domain = 'd') {
  const stats = new StatsStore();
  const engine = new RateLimitService(SharedMemoryCounterStore.create({ maxKeysPerWindow: 100 }), new ManualClock(1_000_000), stats, new RuleStatsFactory(stats), {
    nearLimitRatio: 0.8,
    shadowMode: false,
    cacheKeyPrefix: '',
    responseHeaders: { limit: 'L', remaining: 'R', reset: 'S' },
    maxDescriptorsPerRequest: 10,
    localCacheSizeBytes: 0,
    stopIncrementWhenOverLimit: false,
  });
  engine.setConfig(compileConfig({ domains: [{ domain, descriptors }] }, { nearLimitRatio: 0.8 }));
  const ask = (...entries: Array<Array<[string, string]>>): RateLimitResponse => {
    const answer = engine.shouldRateLimit({ domain, hitsAddend: 0, descriptors: entries.map((e) => ({ entries: e.map(([key, value]) => ({ key, value })) })) });
    if (answer instanceof Promise || !('statuses' in answer)) throw new Error('expected a synchronous answer');
    return answer;
  };
  const hits = (fullKey: string) => stats.value(`ratelimit.service.rate_limit.${fullKey}.total_hits`);
  return { ask, hits };
}

t.test('value_to_metric: flagged levels carry the request value in the statistics key (upstream examples)', async (t) => {
  const { ask, hits } = service(
    [
      rule('route', 'draw', {
        descriptors: [rule('http_method', '', { valueToMetric: true, descriptors: [rule('subject_id', '', {}, 5)] })],
      }),
      rule('k1', '', { valueToMetric: true, descriptors: [rule('k2', '', {}, 5)] }),
      rule('a', '', { descriptors: [rule('b', '', { valueToMetric: true, descriptors: [rule('c', '', {}, 5)] })] }),
      rule('wild', 'foo*', { valueToMetric: true }, 5),
      rule('plainWild', 'foo*', {}, 5),
      rule('both', '', { valueToMetric: true, descriptors: [rule('leaf', '', { detailedMetric: true }, 5)] }),
    ],
    'domain',
  );
  ask([['route', 'draw'], ['http_method', 'GET'], ['subject_id', '123']]);
  t.equal(hits('domain.route_draw.http_method_GET.subject_id'), 1);
  ask([['k1', 'A'], ['k2', 'B']]);
  t.equal(hits('domain.k1_A.k2'), 1);
  ask([['a', 'X'], ['b', 'Y'], ['c', 'Z']]);
  t.equal(hits('domain.a.b_Y.c'), 1);
  ask([['wild', 'foo123']]);
  t.equal(hits('domain.wild_foo123'), 1, 'a wildcard level with the flag shows the whole value');
  ask([['plainWild', 'foo123']]);
  t.equal(hits('domain.plainWild_foo*'), 1, 'without the flag the pattern stays');
  ask([['both', 'p'], ['leaf', 'q']]);
  t.equal(hits('domain.both_p.leaf_q'), 1, 'detailed_metric takes precedence');
  t.equal(hits('domain.both_p.leaf'), 0);
});

t.test('quota descriptors: overall code and the status the RateLimit headers show', async (t) => {
  const status = (code: Code, remaining: number): DescriptorStatus => ({ code, limitRemaining: remaining, currentLimit: { name: '', requestsPerUnit: 5, unit: Unit.MINUTE } });
  const overQuota = status(Code.OVER_LIMIT, 0);
  const okQuota = status(Code.OK, 3);
  const overPlain = status(Code.OVER_LIMIT, 0);
  t.equal(overallCodeOf([overQuota, okQuota], [true, true]), Code.OK, 'one quota descriptor with quota left');
  t.equal(overallCodeOf([overQuota, overQuota], [true, true]), Code.OVER_LIMIT, 'every quota descriptor over');
  t.equal(overallCodeOf([overPlain, okQuota], [false, true]), Code.OVER_LIMIT, 'a non-quota descriptor over');
  t.equal(overallCodeOf([okQuota], [false]), Code.OK);
  t.equal(headerStatusIndex([overPlain, overQuota], [false, true]), 0, 'a quota OVER_LIMIT is not picked unconditionally: the earlier non-quota one stays');
  t.equal(headerStatusIndex([overPlain, overQuota], undefined), 1, 'without quota the last OVER_LIMIT wins, as upstream');
});

t.test('quota_mode on a rule, end to end in the engine: statuses unchanged', async (t) => {
  const { ask } = service([rule('q', '', { quotaMode: true }, 0), rule('p', '', {}, 3)]);
  const answer = ask([['q', 'x']], [['p', 'y']]);
  t.same(answer.statuses.map((s) => s.code), [Code.OVER_LIMIT, Code.OK]);
  t.equal(answer.overallCode, Code.OVER_LIMIT, 'the only quota descriptor is over');
  t.same(answer.responseHeadersToAdd.map((h) => h.value), ['0', '0', '20'], 'the quota status competes by its remaining (0, the lowest), as upstream');
  const plainLast = ask([['p', 'y']], [['q', 'x']]);
  t.same(plainLast.responseHeadersToAdd.map((h) => h.value), ['0', '0', '20'], 'and keeps its place when a non-quota status with more remaining follows');
});

t.test('metadata merge: first value wins, structs merge, the sources are not changed', async (t) => {
  const first = { a: 1, s: { x: 'one' } } as never;
  const second = { a: 2, b: true, s: { x: 'two', y: [1, 2] } } as never;
  const merged = newStruct();
  mergeFirstWins(merged, first);
  mergeFirstWins(merged, second);
  t.same(merged, { a: 1, b: true, s: { x: 'one', y: [1, 2] } });
  t.same(first, { a: 1, s: { x: 'one' } }, 'the first rule\'s metadata is untouched');
  const proto = newStruct();
  mergeFirstWins(proto, JSON.parse('{"__proto__": {"polluted": true}}'));
  t.equal(({} as Record<string, unknown>)['polluted'], undefined, '__proto__ is only a key');
});
