import t from 'tap';
import { SharedMemoryCounterStore } from '../../../src/backends/shared-memory/index.js';
import type { DescriptorRule, RateLimitConfig, RateLimitPolicy } from '../../../src/engine/index.js';
import { compileConfig, Code, ManualClock, RateLimitService, Unit, type Decision, type RateLimitResponse } from '../../../src/engine/index.js';
import type { RequestDescriptor } from '../../../src/engine/request.js';
import { ServiceError } from '../../../src/errors/index.js';
import { RuleStatsFactory, StatsStore } from '../../../src/observability/index.js';

function policy(requestsPerUnit: number, unit: Unit, name = '', replaces: string[] = []): RateLimitPolicy {
  return { requestsPerUnit, unit, unlimited: false, name, replaces };
}
function rule(key: string, value: string, rateLimit?: RateLimitPolicy, descriptors: DescriptorRule[] = []): DescriptorRule {
  return { key, value, rateLimit, shadowMode: false, detailedMetric: false, shareThreshold: false, descriptors };
}

// The `rl` configuration of upstream's Envoy end-to-end suite
// (examples/ratelimit/config/example.yaml), minus quota rules.
const rl: RateLimitConfig = {
  domains: [
    {
      domain: 'rl',
      descriptors: [
        rule('category', 'account', policy(4, Unit.MINUTE, '', ['bkthomps', 'fake_name'])),
        rule('source_cluster', 'proxy', undefined, [
          rule('destination_cluster', 'bkthomps', policy(2, Unit.MINUTE, '', ['bkthomps'])),
          rule('destination_cluster', 'mock', policy(1, Unit.MINUTE)),
          rule('destination_cluster', 'override', policy(2, Unit.MINUTE, '', ['banned_limit'])),
          rule('destination_cluster', 'fake', policy(2, Unit.MINUTE, 'fake_name')),
        ]),
        rule('foo', '', policy(2, Unit.MINUTE), [
          rule('bar', '', policy(3, Unit.MINUTE)),
          rule('bar', 'bkthomps', policy(1, Unit.MINUTE, 'bkthomps')),
          rule('bar', 'banned', policy(0, Unit.MINUTE, 'banned_limit')),
          rule('baz', '', policy(1, Unit.SECOND)),
          rule('baz', 'not-so-shady', policy(3, Unit.MINUTE)),
          { ...rule('baz', 'shady', policy(3, Unit.MINUTE)), shadowMode: true },
          { ...rule('bay', ''), rateLimit: { unit: Unit.UNKNOWN, requestsPerUnit: 0, unlimited: true, name: '', replaces: [] } },
        ]),
        { ...rule('unspec', '', policy(2, Unit.MINUTE)), detailedMetric: true },
        { ...rule('qux', ''), rateLimit: { unit: Unit.UNKNOWN, requestsPerUnit: 0, unlimited: true, name: '', replaces: [] } },
      ],
    },
  ],
};

function setup(options: { maxKeysPerWindow?: number; shadowMode?: boolean } = {}) {
  const stats = new StatsStore();
  const ruleStats = new RuleStatsFactory(stats);
  const clock = new ManualClock(1_700_000_000);
  const store = SharedMemoryCounterStore.create({ maxKeysPerWindow: options.maxKeysPerWindow ?? 1000 });
  const service = new RateLimitService(store, clock, stats, ruleStats, {
    nearLimitRatio: 0.8,
    shadowMode: options.shadowMode ?? false,
    cacheKeyPrefix: '',
    responseHeaders: undefined,
    maxDescriptorsPerRequest: 10,
    localCacheSizeBytes: 0,
    stopIncrementWhenOverLimit: false,
  });
  service.setConfig(compileConfig(rl, { nearLimitRatio: 0.8 }));
  const ask = (...descriptors: Array<Record<string, string>>): Decision => {
    const decision = service.shouldRateLimit({
      domain: 'rl',
      hitsAddend: 0,
      descriptors: descriptors.map((d): RequestDescriptor => ({ entries: Object.entries(d).map(([key, value]) => ({ key, value })) })),
    });
    if (decision instanceof Promise) throw new Error('the embedded store answers synchronously');
    return decision;
  };
  const code = (...descriptors: Array<Record<string, string>>): number => {
    const decision = ask(...descriptors);
    if (decision instanceof ServiceError) throw new Error(decision.message);
    return decision.overallCode === Code.OK ? 200 : 429;
  };
  return { stats, clock, service, ask, code };
}

t.test('replaces: the e2e sequence of upstream replaces.sh', async (t) => {
  const { code } = setup();
  const twoHeader = (foo: string, bar: string) => ({ foo, bar });
  const cluster = (destination: string) => ({ source_cluster: 'proxy', destination_cluster: destination });
  t.equal(code(twoHeader('bkthomps', 'banned')), 429, 'banned_limit is 0');
  t.equal(code(twoHeader('bkthomps', 'banned'), cluster('mock')), 429);
  t.same([1, 2, 3].map(() => code(twoHeader('bkthomps', 'banned'), cluster('override'))), [200, 200, 429], 'override replaces banned_limit');
  t.same([1, 2, 3].map(() => code(twoHeader('my_foo', 'bkthomps'), cluster('bkthomps'))), [200, 200, 429]);
  t.same([1, 2].map(() => code(twoHeader('my_foo', 'bkthomps'), cluster('not_bkthomps'))), [200, 429], 'bkthomps was never consumed');
  t.equal(code(twoHeader('my_foo', 'bkthomps'), cluster('bkthomps')), 429);
  const fiveHeader = () => code(twoHeader('my_foo', 'bkthomps'), cluster('fake'), { category: 'account' });
  t.same([1, 2, 3, 4, 5].map(fiveHeader), [200, 200, 200, 200, 429], 'account replaces bkthomps and fake_name');
  t.same([1, 2].map(() => code(twoHeader('foo_2', 'bkthomps'))), [200, 429]);
  t.same([1, 2, 3].map(() => code(twoHeader('foo_3', 'bar_3'), cluster('fake'))), [200, 200, 429]);
  t.equal(fiveHeader(), 429);
});

t.test('shadow rule never denies, detailed metric counts per value (scenarios 26, 28)', async (t) => {
  const { code, stats } = setup();
  t.same([1, 2, 3, 4, 5].map(() => code({ foo: 'pelle', baz: 'shady' })), [200, 200, 200, 200, 200]);
  t.equal(stats.value('ratelimit.service.rate_limit.rl.foo.baz_shady.shadow_mode'), 2);
  t.equal(stats.value('ratelimit.service.rate_limit.rl.foo.baz_shady.over_limit'), 2);
  t.same([1, 2, 3].map(() => code({ unspec: 'unspecified_value' })), [200, 200, 429]);
  t.equal(stats.value('ratelimit.service.rate_limit.rl.unspec_unspecified_value.over_limit'), 1);
  t.equal(stats.value('ratelimit.service.rate_limit.rl.unspec_unspecified_value.total_hits'), 3);
  t.equal(stats.value('ratelimit.service.rate_limit.rl.unspec.total_hits'), 0, 'nothing rolled up');
});

t.test('unlimited answers 4294967295 without counting', async (t) => {
  const { ask, stats } = setup();
  const decision = ask({ qux: 'anything' }) as RateLimitResponse;
  t.same(decision.statuses, [{ code: Code.OK, limitRemaining: 4294967295 }]);
  t.equal(stats.value('ratelimit.service.rate_limit.rl.qux.total_hits'), 0);
});

t.test('the window resets when the clock enters the next one', async (t) => {
  const { code, clock } = setup();
  clock.now = 1_700_000_080; // 20 s before a minute boundary (1_700_000_100 % 60 === 0)
  t.same([1, 2, 3].map(() => code({ foo: 'window' })), [200, 200, 429]);
  clock.now += 19;
  t.equal(code({ foo: 'window' }), 429, 'same minute');
  clock.now += 1;
  t.equal(code({ foo: 'window' }), 200, 'next minute');
});

t.test('service errors are values with upstream messages and counted', async (t) => {
  const { service, stats } = setup();
  const expect = (decision: unknown, code: string, message: string) => {
    t.type(decision, ServiceError);
    t.match(decision, { code, message });
  };
  expect(service.shouldRateLimit({ domain: '', descriptors: [{ entries: [] }], hitsAddend: 0 }), 'RL_EMPTY_DOMAIN', 'rate limit domain must not be empty');
  expect(service.shouldRateLimit({ domain: 'rl', descriptors: [], hitsAddend: 0 }), 'RL_NO_DESCRIPTORS', 'rate limit descriptor list must not be empty');
  const many = Array.from({ length: 11 }, () => ({ entries: [{ key: 'foo', value: 'x' }] }));
  expect(service.shouldRateLimit({ domain: 'rl', descriptors: many, hitsAddend: 0 }), 'RL_TOO_MANY_DESCRIPTORS', 'too many descriptors: 11 (MAX_DESCRIPTORS_PER_REQUEST is 10)');
  expect(
    service.shouldRateLimit({ domain: 'rl', descriptors: [{ entries: [{ key: 'foo', value: 'x' }], limit: { requestsPerUnit: 5, unit: Unit.UNKNOWN } }], hitsAddend: 0 }),
    'RL_INVALID_LIMIT_OVERRIDE',
    'descriptors[0].limit: unit must be SECOND, MINUTE, HOUR, DAY, WEEK, MONTH or YEAR, not UNKNOWN',
  );
  service.setConfig(undefined);
  expect(service.shouldRateLimit({ domain: 'rl', descriptors: [{ entries: [] }], hitsAddend: 0 }), 'RL_NO_CONFIG', 'no rate limit configuration loaded');
  t.equal(stats.value('ratelimit.service.call.should_rate_limit.service_error'), 5);
});

t.test('a full embedded store fails the request as a store error, counted as redis_error', async (t) => {
  const { ask, stats } = setup({ maxKeysPerWindow: 16 });
  let failure: Decision | undefined;
  for (let i = 0; i < 1000 && !(failure instanceof ServiceError); i++) failure = ask({ foo: `key-${i}` });
  t.type(failure, ServiceError);
  t.match(failure, { code: 'RL_STORE_ERROR', message: /full/ });
  t.equal(stats.value('ratelimit.service.call.should_rate_limit.redis_error'), 1);
});

t.test('global shadow mode turns an over-limit answer into OK and counts it once', async (t) => {
  const { ask, stats } = setup({ shadowMode: true });
  ask({ foo: 'bkthomps', bar: 'banned' });
  const decision = ask({ foo: 'bkthomps', bar: 'banned' }, { hello: 'world' }) as RateLimitResponse;
  t.equal(decision.overallCode, Code.OK);
  t.equal(decision.statuses[0]?.code, Code.OVER_LIMIT, 'statuses are left as they are');
  t.equal(stats.value('ratelimit.service.global_shadow_mode'), 2);
});

t.test('share_threshold: every value matching the wildcard shares one counter (scenario 8)', async (t) => {
  const stats = new StatsStore();
  const ruleStats = new RuleStatsFactory(stats);
  const clock = new ManualClock(1_700_000_000);
  const store = SharedMemoryCounterStore.create({ maxKeysPerWindow: 1000 });
  const keys: string[] = [];
  const recording = {
    increment: (increments: Parameters<typeof store.increment>[0]) => {
      keys.push(...increments.map((i) => i.key));
      return store.increment(increments);
    },
    close: () => store.close(),
  };
  const service = new RateLimitService(recording, clock, stats, ruleStats, {
    nearLimitRatio: 0.8,
    shadowMode: false,
    cacheKeyPrefix: '',
    responseHeaders: undefined,
    maxDescriptorsPerRequest: 10,
    localCacheSizeBytes: 0,
    stopIncrementWhenOverLimit: false,
  });
  const limit = policy(10, Unit.HOUR);
  service.setConfig(
    compileConfig(
      {
        domains: [
          {
            domain: 'share-threshold-test',
            descriptors: [
              { ...rule('files', 'files/*', limit), shareThreshold: true },
              rule('files_no_share', 'files_no_share/*', limit),
            ],
          },
        ],
      },
      { nearLimitRatio: 0.8 },
    ),
  );
  const ask = (key: string, value: string) =>
    service.shouldRateLimit({ domain: 'share-threshold-test', hitsAddend: 0, descriptors: [{ entries: [{ key, value }] }] }) as RateLimitResponse;
  for (let i = 0; i < 10; i++) t.equal(ask('files', 'files/a.pdf').overallCode, Code.OK);
  const shared = ask('files', 'files/b.csv');
  t.same(shared.statuses, [
    { code: Code.OVER_LIMIT, currentLimit: { name: '', requestsPerUnit: 10, unit: Unit.HOUR }, limitRemaining: 0, durationUntilResetSeconds: 3600 - (1_700_000_000 % 3600) },
  ]);
  const hourStart = 1_700_000_000 - (1_700_000_000 % 3600);
  t.equal(keys.at(-1), `share-threshold-test_files_files/*_${hourStart}`);
  for (const n of [1, 2, 3]) {
    t.equal(ask('files_no_share', `files_no_share/${n}`).statuses[0]?.limitRemaining, 9, 'separate counters without share_threshold');
  }
  t.equal(keys.at(-1), `share-threshold-test_files_no_share_files_no_share/3_${hourStart}`);
  t.equal(stats.value('ratelimit.service.rate_limit.share-threshold-test.files_files/*.total_hits'), 11);
});
