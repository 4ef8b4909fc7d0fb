/**
 * Several limits on one descriptor, the sliding window and the token bucket, decided by the
 * engine against the real embedded store on a manual clock: exact counts at window boundaries,
 * refill arithmetic, limitRemaining and durationUntilReset of each algorithm.
 */
import t from 'tap';
import { SharedMemoryCounterStore } from '../../../src/backends/shared-memory/index.js';
import { loadConfig } from '../../../src/config/index.js';
import {
  Code,
  compileConfig,
  ManualClock,
  RateLimitService,
  slidingWindowCount,
  tokenBucketAfter,
  tokensAt,
  type CounterStore,
  type DescriptorStatus,
  type RateLimitResponse,
} from '../../../src/engine/index.js';
import { RuleStatsFactory, StatsStore } from '../../../src/observability/index.js';
import { ALGORITHM_RULES as RULES, MINUTE_START } from '../../support/algorithm-rules.js';

function setup(store: CounterStore = SharedMemoryCounterStore.create({ maxKeysPerWindow: 1000 })) {
  const stats = new StatsStore();
  const clock = new ManualClock(MINUTE_START);
  const service = new RateLimitService(store, clock, stats, new RuleStatsFactory(stats), {
    nearLimitRatio: 0.8,
    shadowMode: false,
    cacheKeyPrefix: '',
    responseHeaders: { limit: 'RateLimit-Limit', remaining: 'RateLimit-Remaining', reset: 'RateLimit-Reset' },
    maxDescriptorsPerRequest: 10,
    localCacheSizeBytes: 0,
    stopIncrementWhenOverLimit: false,
  });
  const loaded = loadConfig([{ name: 'algorithms.yaml', text: RULES }], { mergeDomainConfigs: false });
  if (!loaded.ok) throw new Error(loaded.error.message);
  service.setConfig(compileConfig(loaded.value, { nearLimitRatio: 0.8 }));
  const ask = (key: string, hits = 1): RateLimitResponse => {
    const decision = service.shouldRateLimit({ domain: 'algorithms', hitsAddend: hits, descriptors: [{ entries: [{ key, value: 'v' }] }] });
    if (decision instanceof Promise || !('statuses' in decision)) throw new Error('expected a synchronous answer');
    return decision;
  };
  const status = (key: string, hits = 1): DescriptorStatus => ask(key, hits).statuses[0] as DescriptorStatus;
  const codes = (key: string, times: number) => Array.from({ length: times }, () => (status(key).code === Code.OK ? 'ok' : 'over'));
  const at = (second: number, ms = 0) => clock.setMilliseconds((MINUTE_START + second) * 1000 + ms);
  return { stats, clock, ask, status, codes, at };
}

t.test('the pure arithmetic', async (t) => {
  t.equal(slidingWindowCount(10, 3, 30_000, 60_000), 8, 'half the previous window still inside, plus the current');
  t.equal(slidingWindowCount(7, 0, 45_000, 60_000), 1, 'the weighted previous count is rounded down');
  t.equal(tokensAt(undefined, 0, 4, 1000), 4, 'a bucket never seen is full');
  t.equal(tokensAt({ tokens: 0, atMs: 1000 }, 1250, 4, 1000), 1, 'refill: requests_per_unit per unit');
  t.equal(tokensAt({ tokens: 3, atMs: 0 }, 10_000, 4, 1000), 4, 'never above capacity');
  t.equal(tokenBucketAfter(2.9, 1, 4), 3, 'count after: capacity - whole tokens + hits');
});

t.test('several limits: over when any is, each its own counter and statistics, the most constraining reported', async (t) => {
  const { codes, status, at, stats } = setup();
  at(0);
  t.same(codes('multi', 3), ['ok', 'ok', 'ok']);
  const over = status('multi');
  t.equal(over.code, Code.OVER_LIMIT, 'the per-second limit is passed');
  t.equal(over.currentLimit?.requestsPerUnit, 3, 'the over-limit limit is the one reported');
  at(1);
  const second = status('multi');
  t.equal(second.code, Code.OK, 'a new second; the minute has counted 5 hits');
  t.same([second.currentLimit?.requestsPerUnit, second.limitRemaining], [5, 0], 'the limit with the least remaining is reported');
  t.equal(status('multi').currentLimit?.requestsPerUnit, 5, 'now the minute is over');
  t.equal(stats.value('ratelimit.service.rate_limit.algorithms.multi.total_hits'), 6);
  t.equal(stats.value('ratelimit.service.rate_limit.algorithms.multi.over_limit'), 1);
  t.equal(stats.value('ratelimit.service.rate_limit.algorithms.multi.limit_2.total_hits'), 6);
  t.equal(stats.value('ratelimit.service.rate_limit.algorithms.multi.limit_2.over_limit'), 1);
});

t.test('sliding window: the previous window weighted by the part still inside, only allowed hits count', async (t) => {
  const { codes, status, at } = setup();
  at(0);
  t.same(codes('sliding', 11), [...Array(10).fill('ok'), 'over'], '10 per minute');
  at(60 + 30);
  // Half of the previous window's 10 (the refused 11th was not counted) is still inside.
  const first = status('sliding');
  t.same([first.code, first.limitRemaining, first.durationUntilResetSeconds], [Code.OK, 4, 30], 'remaining 10 - (5 + 1); reset at the window end');
  t.same(codes('sliding', 5), ['ok', 'ok', 'ok', 'ok', 'over']);
  at(60 + 45);
  // floor(10 x 0.25) = 2, plus the 5 of this window.
  t.same(codes('sliding', 4), ['ok', 'ok', 'ok', 'over']);
  at(60 + 59, 999);
  const last = status('sliding');
  t.same([last.code, last.limitRemaining, last.durationUntilResetSeconds], [Code.OK, 1, 1], 'floor(10 x 1 / 60000) = 0, plus 8 + 1');
  at(120);
  const next = status('sliding');
  t.same([next.code, next.limitRemaining], [Code.OK, 0], 'at its start the whole previous window (9) weighs: 9 + 1');
  t.equal(status('sliding').code, Code.OVER_LIMIT);
  at(180);
  t.equal(status('sliding').limitRemaining, 8, 'a window later: the 1 allowed hit of the window before, plus this one');
});

t.test('token bucket: capacity requests_per_unit, refilled continuously, across window boundaries', async (t) => {
  const { codes, status, at } = setup();
  at(0, 0);
  const full = status('bucket');
  t.same([full.limitRemaining, full.durationUntilResetSeconds], [3, 1], 'one token of 4 taken; full again within a second');
  t.same(codes('bucket', 4), ['ok', 'ok', 'ok', 'over']);
  at(0, 249);
  t.equal(status('bucket').code, Code.OVER_LIMIT, '0.996 of a token');
  at(0, 250);
  t.same(codes('bucket', 2), ['ok', 'over'], 'one token per 250 ms');
  at(0, 900);
  t.same(codes('bucket', 3), ['ok', 'ok', 'over'], '2.6 tokens at 900 ms');
  at(1, 100);
  // 0.6 + 200 ms of refill = 1.4 tokens, carried over into the next second's table.
  t.same(codes('bucket', 2), ['ok', 'over'], 'the bucket carries over the window boundary');
  at(5, 0);
  const idle = status('bucket');
  t.same([idle.code, idle.limitRemaining], [Code.OK, 3], 'full again after idling');
  t.same(status('bucket', 4).code, Code.OVER_LIMIT, 'four hits need four tokens; the refused hits take none');
  t.equal(status('bucket', 3).limitRemaining, 0);
});

t.test('a token bucket beside a daily fixed window', async (t) => {
  const { codes, at } = setup();
  at(0);
  t.same(codes('daily', 11), [...Array(10).fill('ok'), 'over'], 'the bucket of 10 runs dry');
  at(2);
  t.same(codes('daily', 2), ['ok', 'over'], 'the day allows 12 hits (the refused 11th was counted there, as upstream counts)');
});

t.test('configuration errors of the extensions name the descriptor and the value', async (t) => {
  const refusal = (limits: string) => {
    const loaded = loadConfig([{ name: 'x.yaml', text: `domain: d\ndescriptors:\n  - key: k\n${limits}` }], { mergeDomainConfigs: false });
    return loaded.ok ? 'loaded' : loaded.error.message;
  };
  t.equal(refusal('    rate_limit: {unit: second, requests_per_unit: 1, algorithm: leaky}\n'), "x.yaml: invalid rate limit algorithm 'leaky' (fixed_window, sliding_window or token_bucket)");
  t.equal(refusal('    rate_limit: {unit: second, requests_per_unit: 1048577, algorithm: token_bucket}\n'), 'x.yaml: token_bucket requests_per_unit 1048577 is above 1048576');
  t.equal(
    refusal('    rate_limits:\n      - {unit: second, requests_per_unit: 1}\n      - {unit: day, requests_per_unit: 9, replaces: [{name: a}]}\n'),
    "x.yaml: descriptor 'k': rate_limits[1] cannot have replaces (only the first limit can)",
  );
  t.equal(refusal('    rate_limit: {unlimited: true}\n    rate_limits:\n      - {unit: day, requests_per_unit: 9}\n'), "x.yaml: descriptor 'k': an unlimited rate_limit cannot have rate_limits");
  t.equal(refusal('    rate_limits:\n      - {unit: second, requests_per_unit: 1, algorithm: fixed_window}\n'), 'loaded', 'fixed_window is the default, named');
});
