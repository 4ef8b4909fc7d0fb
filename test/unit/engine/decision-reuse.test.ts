import t from 'tap';
import { SharedMemoryCounterStore } from '../../../src/backends/shared-memory/index.js';
import {
  Algorithm,
  compileConfig,
  Code,
  DecisionReuse,
  ManualClock,
  RateLimitService,
  Unit,
  type Decision,
  type DescriptorRule,
  type RateLimitConfig,
  type RateLimitRequest,
  type RateLimitResponse,
} from '../../../src/engine/index.js';
import { RuleStatsFactory, StatsStore } from '../../../src/observability/index.js';

function rule(key: string, value: string, requestsPerUnit: number | undefined, unit = Unit.MINUTE, extra: Partial<DescriptorRule> = {}, algorithm?: Algorithm): DescriptorRule {
  return {
    key,
    value,
    rateLimit: requestsPerUnit === undefined ? undefined : { requestsPerUnit, unit, unlimited: false, name: '', replaces: [], algorithm },
    shadowMode: false,
    detailedMetric: false,
    shareThreshold: false,
    descriptors: [],
    ...extra,
  };
}

function config(limit: number): RateLimitConfig {
  return {
    domains: [
      {
        domain: 'd',
        descriptors: [
          rule('route', 'a', limit),
          rule('route', 'b', 3, Unit.SECOND, { detailedMetric: true }),
          { ...rule('route', 'c', 2, Unit.MINUTE), rateLimit: { requestsPerUnit: 2, unit: Unit.MINUTE, unlimited: false, name: 'c', replaces: [] } },
          { ...rule('route', 'd', 5, Unit.MINUTE), rateLimit: { requestsPerUnit: 5, unit: Unit.MINUTE, unlimited: false, name: 'd', replaces: ['c'] } },
          { ...rule('free', '', undefined), rateLimit: { requestsPerUnit: 0, unit: Unit.UNKNOWN, unlimited: true, name: '', replaces: [] } },
          rule('user', '', 2, Unit.SECOND, {}, Algorithm.SLIDING_WINDOW),
          rule('bucket', '', 2, Unit.SECOND, {}, Algorithm.TOKEN_BUCKET),
        ],
      },
    ],
  };
}

/** A service on its own store and clock; `localCache` turns the over-limit cache on. */
function service(localCache: boolean) {
  const stats = new StatsStore();
  const clock = new ManualClock(1_700_000_000);
  const engine = new RateLimitService(SharedMemoryCounterStore.create({ maxKeysPerWindow: 1000 }), clock, stats, new RuleStatsFactory(stats), {
    nearLimitRatio: 0.8,
    shadowMode: false,
    cacheKeyPrefix: 'p_',
    responseHeaders: undefined,
    maxDescriptorsPerRequest: 10,
    localCacheSizeBytes: localCache ? 1024 * 1024 : 0,
    stopIncrementWhenOverLimit: false,
  });
  engine.setConfig(compileConfig(config(2), { nearLimitRatio: 0.8 }));
  return { stats, clock, engine };
}

type Asked = Record<string, string> | { limit: number; route: string };

function request(...descriptors: Asked[]): RateLimitRequest {
  return {
    domain: 'd',
    hitsAddend: 0,
    descriptors: descriptors.map((d) =>
      typeof d.limit === 'number'
        ? { entries: [{ key: 'route', value: String(d.route) }], limit: { requestsPerUnit: d.limit, unit: Unit.MINUTE } }
        : { entries: Object.entries(d).map(([key, value]) => ({ key, value: String(value) })) },
    ),
  };
}

function settled(decision: Decision | Promise<Decision>): Decision {
  if (decision instanceof Promise) throw new Error('the embedded store answers synchronously');
  return decision;
}

const REQUESTS: ReadonlyArray<() => RateLimitRequest> = [
  () => request({ route: 'a' }),
  () => request({ route: 'b' }),
  () => request({ route: 'c' }, { route: 'd' }),
  () => request({ route: 'a' }, { free: 'x' }, { nothing: 'here' }),
  () => request({ user: 'u1' }),
  () => request({ bucket: 'k' }),
  () => request({ limit: 3, route: 'override' }),
  () => ({ ...request({ route: 'a' }), domain: 'unknown' }),
];

for (const localCache of [false, true]) {
  t.test(`a request decided again with its DecisionReuse answers and counts as a fresh one (local cache ${localCache ? 'on' : 'off'})`, async (t) => {
    const reusing = service(localCache);
    const fresh = service(localCache);
    const kept = REQUESTS.map((make) => ({ request: make(), reuse: new DecisionReuse() }));
    const steps: Array<(s: ReturnType<typeof service>) => void> = [
      () => undefined,
      (s) => {
        s.clock.now += 1;
        s.clock.milliseconds = 250;
      },
      (s) => (s.clock.now += 60),
      (s) => s.engine.setConfig(compileConfig(config(4), { nearLimitRatio: 0.8 })),
    ];
    for (const [round, step] of steps.entries()) {
      step(reusing);
      step(fresh);
      for (let repeat = 0; repeat < 5; repeat++) {
        for (const [i, { request: repeated, reuse }] of kept.entries()) {
          const got = settled(reusing.engine.shouldRateLimit(repeated, reuse));
          const want = settled(fresh.engine.shouldRateLimit((REQUESTS[i] as () => RateLimitRequest)()));
          t.same(got, want, `round ${round}, repeat ${repeat}, request ${i}`);
        }
      }
    }
    t.same(reusing.stats.snapshot(), fresh.stats.snapshot(), 'the same statistics');
    t.ok(
      fresh.stats.snapshot().some(([name, value]) => name.endsWith('.over_limit') && value > 0),
      'some requests went over their limit',
    );
    if (localCache) t.ok(fresh.stats.snapshot().some(([name, value]) => name.endsWith('over_limit_with_local_cache') && value > 0), 'the local cache answered some');
  });
}

t.test('a configuration swap applies to a request already matched', async (t) => {
  const { engine } = service(false);
  const kept = request({ route: 'a' });
  const reuse = new DecisionReuse();
  const codes = () => [1, 2, 3].map(() => (settled(engine.shouldRateLimit(kept, reuse)) as RateLimitResponse).overallCode);
  t.same(codes(), [Code.OK, Code.OK, Code.OVER_LIMIT], 'limit 2');
  engine.setConfig(compileConfig(config(10), { nearLimitRatio: 0.8 }));
  t.same(codes(), [Code.OK, Code.OK, Code.OK], 'limit 10: the same counter, now under its new limit');
  const status = (settled(engine.shouldRateLimit(kept, reuse)) as RateLimitResponse).statuses[0];
  t.equal(status?.currentLimit?.requestsPerUnit, 10);
  t.equal(status?.limitRemaining, 3);
});

t.test('a repeat in the next window counts in a new counter', async (t) => {
  const { engine, clock } = service(false);
  const kept = request({ route: 'a' });
  const reuse = new DecisionReuse();
  const code = () => (settled(engine.shouldRateLimit(kept, reuse)) as RateLimitResponse).overallCode;
  clock.now = 1_700_000_100 - 1; // the last second of a minute
  t.same([code(), code(), code()], [Code.OK, Code.OK, Code.OVER_LIMIT]);
  clock.now += 1;
  t.equal(code(), Code.OK, 'next minute');
});

t.test('an invalid limit override is refused on every repeat, and not kept', async (t) => {
  const { engine, stats } = service(false);
  const bad: RateLimitRequest = { domain: 'd', hitsAddend: 0, descriptors: [{ entries: [{ key: 'route', value: 'a' }], limit: { requestsPerUnit: 1, unit: Unit.UNKNOWN } }] };
  const reuse = new DecisionReuse();
  for (let i = 0; i < 2; i++) {
    const decision = settled(engine.shouldRateLimit(bad, reuse));
    t.match(decision, { code: 'RL_INVALID_LIMIT_OVERRIDE', message: /^descriptors\[0\]\.limit: unit must be/ });
  }
  t.equal(reuse.matched, undefined);
  t.equal(stats.value('ratelimit.service.call.should_rate_limit.service_error'), 2);
});
