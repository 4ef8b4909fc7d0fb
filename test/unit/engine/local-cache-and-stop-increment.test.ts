import t from 'tap';
import type { CounterIncrement, CounterStore } from '../../../src/engine/index.js';
import { CounterKeyError } from '../../../src/engine/index.js';
import { SharedMemoryCounterStore } from '../../../src/backends/shared-memory/index.js';
import type { DescriptorRule, RateLimitConfig } from '../../../src/engine/index.js';
import { compileConfig, Code, ManualClock, RateLimitService, Unit, type RateLimitResponse } from '../../../src/engine/index.js';
import { ServiceError } from '../../../src/errors/index.js';
import { RuleStatsFactory, StatsStore } from '../../../src/observability/index.js';

function rule(key: string, requestsPerUnit: number, unit: Unit, extra: Partial<DescriptorRule> = {}): DescriptorRule {
  return {
    key,
    value: '',
    rateLimit: { requestsPerUnit, unit, unlimited: false, name: '', replaces: [] },
    shadowMode: false,
    detailedMetric: false,
    shareThreshold: false,
    descriptors: [],
    ...extra,
  };
}

// Upstream's integration fixture `another`: key2 20/MINUTE, key3 10/HOUR; plus a shadow rule
// 15/HOUR (as upstream's local-cache shadow-mode unit test).
const config: RateLimitConfig = {
  domains: [
    {
      domain: 'another',
      descriptors: [rule('key2', 20, Unit.MINUTE), rule('key3', 10, Unit.HOUR), rule('shadowed', 15, Unit.HOUR, { shadowMode: true })],
    },
  ],
};

/** The embedded store, recording every call so tests see what reached the store. */
class RecordingStore implements CounterStore {
  readonly inner = SharedMemoryCounterStore.create({ maxKeysPerWindow: 1000 });
  readonly increments: CounterIncrement[][] = [];
  readonly reads: CounterIncrement[][] = [];
  canRead = true;

  increment(increments: readonly CounterIncrement[]): number[] {
    this.increments.push([...increments]);
    return this.inner.increment(increments);
  }

  get read(): CounterStore['read'] {
    if (!this.canRead) return undefined;
    return (increments) => {
      this.reads.push([...increments]);
      return this.inner.read(increments);
    };
  }

  close(): Promise<void> {
    return Promise.resolve();
  }
}

function setup(options: { localCacheSizeBytes?: number; stop?: boolean; store?: CounterStore } = {}) {
  const stats = new StatsStore();
  const ruleStats = new RuleStatsFactory(stats);
  const clock = new ManualClock(1_700_000_080); // 20 s before a minute boundary
  const store = options.store ?? new RecordingStore();
  const service = new RateLimitService(store, clock, stats, ruleStats, {
    nearLimitRatio: 0.8,
    shadowMode: false,
    cacheKeyPrefix: '',
    responseHeaders: undefined,
    maxDescriptorsPerRequest: 10,
    localCacheSizeBytes: options.localCacheSizeBytes ?? 0,
    stopIncrementWhenOverLimit: options.stop ?? false,
  });
  service.setConfig(compileConfig(config, { nearLimitRatio: 0.8 }));
  const ask = (...descriptors: Array<[string, string]>): RateLimitResponse => {
    const decision = service.shouldRateLimit({
      domain: 'another',
      hitsAddend: 0,
      descriptors: descriptors.map(([key, value]) => ({ entries: [{ key, value }] })),
    });
    if (decision instanceof Promise || decision instanceof ServiceError) throw new Error('expected a synchronous answer');
    return decision;
  };
  const stat = (name: string) => stats.value(name);
  return { store, clock, service, ask, stat };
}

t.test('scenario 3 with the local cache: the 22nd to 25th requests never reach the store', async (t) => {
  const { store, ask, stat } = setup({ localCacheSizeBytes: 1024 * 1024 });
  const recording = store as RecordingStore;
  for (let i = 0; i < 25; i++) {
    const response = ask(['key2', 'r']);
    const status = response.statuses[0]!;
    if (i < 20) {
      t.equal(status.code, Code.OK, `request ${i + 1} is OK`);
      t.equal(status.limitRemaining, 19 - i);
    } else {
      t.equal(status.code, Code.OVER_LIMIT, `request ${i + 1} is over`);
      t.equal(status.limitRemaining, 0);
      t.equal(status.durationUntilResetSeconds, 20, 'local-cache answers still say when the window resets');
    }
    t.equal(stat('ratelimit.service.rate_limit.another.key2.over_limit_with_local_cache'), Math.max(0, i - 20));
    t.equal(stat('ratelimit.localcache.hitCount'), Math.max(0, i - 20));
    t.equal(stat('ratelimit.localcache.missCount'), Math.min(i + 1, 21));
  }
  t.equal(recording.increments.length, 21, 'the store saw 21 requests: the 21st put the key in the cache');
  t.equal(stat('ratelimit.service.rate_limit.another.key2.total_hits'), 25);
  t.equal(stat('ratelimit.service.rate_limit.another.key2.over_limit'), 5);
  t.equal(stat('ratelimit.localcache.lookupCount'), 25);
  t.equal(stat('ratelimit.localcache.entryCount'), 1);
});

t.test('a cached key expires with its window', async (t) => {
  const { store, clock, ask, stat } = setup({ localCacheSizeBytes: 1024 * 1024 });
  for (let i = 0; i < 21; i++) ask(['key2', 'w']);
  t.equal(ask(['key2', 'w']).statuses[0]!.code, Code.OVER_LIMIT);
  t.equal(stat('ratelimit.localcache.hitCount'), 1);
  clock.now += 20; // the next minute
  const response = ask(['key2', 'w']);
  t.equal(response.statuses[0]!.code, Code.OK, 'a new window starts from zero');
  t.equal(response.statuses[0]!.limitRemaining, 19);
  t.equal(stat('ratelimit.localcache.hitCount'), 1, 'no hit for the old key');
  t.equal((store as RecordingStore).increments.length, 22);
});

t.test('scenario 14: a shadow rule is cached too, and its cached answers stay OK', async (t) => {
  const { ask, stat } = setup({ localCacheSizeBytes: 1024 * 1024 });
  const codes: Code[] = [];
  for (let i = 0; i < 17; i++) codes.push(ask(['shadowed', 's']).statuses[0]!.code);
  t.same(new Set(codes), new Set([Code.OK]), 'every answer OK');
  const base = 'ratelimit.service.rate_limit.another.shadowed.';
  t.equal(stat(base + 'total_hits'), 17);
  t.equal(stat(base + 'over_limit'), 2, 'the 16th (from the store) and the 17th (from the cache)');
  t.equal(stat(base + 'over_limit_with_local_cache'), 1);
  t.equal(stat(base + 'shadow_mode'), 2);
  t.equal(stat(base + 'within_limit'), 15);
});

t.test('scenarios 4 and 5: once key3 is over, STOP_CACHE_KEY_INCREMENT_WHEN_OVERLIMIT stops consuming key2', async (t) => {
  for (const stop of [false, true]) {
    const { ask } = setup({ stop });
    for (let i = 0; i < 15; i++) {
      const response = ask(['key2', 'r'], ['key3', 'r']);
      const [key2, key3] = response.statuses;
      if (i < 10) {
        t.equal(response.overallCode, Code.OK);
        t.equal(key2!.limitRemaining, 19 - i);
        t.equal(key3!.limitRemaining, 9 - i);
      } else {
        t.equal(response.overallCode, Code.OVER_LIMIT);
        t.equal(key3!.code, Code.OVER_LIMIT);
        t.equal(key2!.code, Code.OK);
        t.equal(key2!.limitRemaining, stop ? 10 : 19 - i, stop ? 'key2 stays at 10' : 'key2 keeps falling');
      }
    }
  }
});

t.test('stop-increment reads first, and after a local-cache hit sends hits 0 without reading', async (t) => {
  const { store, ask } = setup({ stop: true, localCacheSizeBytes: 1024 * 1024 });
  const recording = store as RecordingStore;
  for (let i = 0; i < 11; i++) ask(['key2', 'x'], ['key3', 'x']);
  t.equal(recording.reads.length, 11, 'one read per request while nothing is cached');
  t.same(recording.increments.at(-1)!.map((inc) => inc.hits), [0, 1], 'the 11th: only key3 would pass its limit, so only key3 consumed');
  const readsBefore = recording.reads.length;
  const response = ask(['key2', 'x'], ['key3', 'x']);
  t.equal(response.statuses[1]!.code, Code.OVER_LIMIT, 'key3 from the local cache');
  t.equal(recording.reads.length, readsBefore, 'no read: the cache hit already decides');
  t.same(recording.increments.at(-1)!.map((inc) => inc.key.split('_')[0]), ['another'], 'only key2 sent');
  t.same(recording.increments.at(-1)!.map((inc) => inc.hits), [0], 'with hits 0');
  t.equal(response.statuses[0]!.limitRemaining, 10);
});

t.test('a store without read (the object cache) ignores stop-increment, as upstream', async (t) => {
  const recording = new RecordingStore();
  recording.canRead = false;
  const { ask } = setup({ stop: true, store: recording });
  for (let i = 0; i < 12; i++) ask(['key2', 'y'], ['key3', 'y']);
  t.equal(recording.reads.length, 0);
  t.same(recording.increments.at(-1)!.map((inc) => inc.hits), [1, 1]);
});

t.test('a key the store refuses fails the request naming the descriptor, and is a service error', async (t) => {
  const refusing: CounterStore = {
    increment: (increments) => {
      const at = increments.findIndex((inc) => inc.key.includes(' '));
      if (at >= 0) throw new CounterKeyError(at, 'cache key contains U+0020 at 12');
      return increments.map(() => 1);
    },
    close: () => Promise.resolve(),
  };
  const { service, stat } = setup({ store: refusing });
  const decision = service.shouldRateLimit({
    domain: 'another',
    hitsAddend: 0,
    descriptors: [{ entries: [{ key: 'key2', value: 'fine' }] }, { entries: [{ key: 'nope', value: 'x' }] }, { entries: [{ key: 'key3', value: 'a b' }] }],
  });
  t.type(decision, ServiceError);
  t.match(decision, { code: 'RL_INVALID_CACHE_KEY', message: 'descriptors[2]: cache key contains U+0020 at 12' });
  t.equal(stat('ratelimit.service.call.should_rate_limit.service_error'), 1);
  t.equal(stat('ratelimit.service.call.should_rate_limit.redis_error'), 0);
});
