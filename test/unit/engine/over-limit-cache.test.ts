import t from 'tap';
import { MIN_LOCAL_CACHE_BYTES, OverLimitCache } from '../../../src/engine/over-limit-cache.js';
import { StatsStore } from '../../../src/observability/index.js';

t.test('memory is bounded by the byte size: old keys are evicted and counted', async (t) => {
  const stats = new StatsStore();
  const cache = new OverLimitCache(MIN_LOCAL_CACHE_BYTES, stats);
  const key = (i: number) => `domain_user_${String(i).padStart(40, '0')}_1700000000`;
  for (let i = 0; i < 20_000; i++) cache.markOverLimit(key(i), 1_700_000_060, 1_700_000_000);
  const entries = stats.value('ratelimit.localcache.entryCount');
  t.ok(entries > 1000 && entries < 20_000, `${entries} entries fit in 512 KiB`);
  t.equal(stats.value('ratelimit.localcache.evacuateCount'), 20_000 - entries, 'every other key was evicted');
  t.ok(cache.isOverLimit(key(19_999), 1_700_000_001), 'the newest key is kept');
  t.notOk(cache.isOverLimit(key(0), 1_700_000_001), 'the oldest is gone');
});

t.test('sizes below 512 KiB are raised to it, as freecache does', async (t) => {
  const stats = new StatsStore();
  const cache = new OverLimitCache(1, stats);
  for (let i = 0; i < 100; i++) cache.markOverLimit(`k${i}`, 10, 0);
  t.equal(stats.value('ratelimit.localcache.entryCount'), 100);
});

t.test('gauges: hits, misses, lookups, expiries, overwrites, average access time', async (t) => {
  const stats = new StatsStore();
  const cache = new OverLimitCache(MIN_LOCAL_CACHE_BYTES, stats);
  const g = (name: string) => stats.value(`ratelimit.localcache.${name}`);
  t.notOk(cache.isOverLimit('a', 100));
  cache.markOverLimit('a', 160, 100);
  cache.markOverLimit('b', 120, 110);
  t.equal(g('averageAccessTime'), 105);
  t.ok(cache.isOverLimit('a', 130));
  t.equal(g('averageAccessTime'), 120, 'a read moves the entry access time to now');
  cache.markOverLimit('a', 160, 130);
  t.equal(g('overwriteCount'), 1);
  t.notOk(cache.isOverLimit('b', 120), 'b ends with its window');
  t.equal(g('expiredCount'), 1);
  t.same(
    { hit: g('hitCount'), miss: g('missCount'), lookup: g('lookupCount'), entries: g('entryCount') },
    { hit: 1, miss: 2, lookup: 3, entries: 1 },
  );
});
