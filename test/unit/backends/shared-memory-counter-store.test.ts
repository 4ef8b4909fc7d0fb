import t from 'tap';
import { Algorithm, CounterStoreError, type CounterIncrement } from '../../../src/engine/index.js';
import { MAX_KEYS_SETTING, SharedMemoryCounterStore } from '../../../src/backends/shared-memory/index.js';
import { Unit } from '../../../src/engine/units.js';
import { FP_HI, FP_LO, fingerprint } from '../../../src/backends/shared-memory/fingerprint.js';

const MINUTE_START = 1_700_000_040; // a multiple of 60
const MAX = 4294967295;

function inc(key: string, hits = 1, unit = Unit.MINUTE, windowStart = MINUTE_START): CounterIncrement {
  return { key, hits, unit, windowStart };
}

function one(store: SharedMemoryCounterStore, increment: CounterIncrement): number {
  const [value] = store.increment([increment]);
  if (value === undefined) throw new Error('no result');
  return value;
}

t.test('counts per key, in order, each key separately', async (t) => {
  const store = SharedMemoryCounterStore.create({ maxKeysPerWindow: 100 });
  t.same(store.increment([inc('a'), inc('b'), inc('a')]), [1, 1, 2]);
  t.same(store.increment([inc('a', 5), inc('b', 2)]), [7, 3]);
  t.equal(one(store, inc('c')), 1);
  t.same(store.increment([]), []);
  t.equal(store.stats().keysInUse, 3);
  t.equal(store.stats().keysInUseByUnit['MINUTE'], 3);
});

t.test('an increment keeps its key fingerprint, and a repeat of it counts on the same counter', async (t) => {
  // The engine hands the same increment object to every repeat of a request within a window.
  const store = SharedMemoryCounterStore.create({ maxKeysPerWindow: 100 });
  const kept = inc('repeated_key_long_enough_for_the_native_copy_path');
  t.equal(kept.keyFingerprint, undefined);
  t.equal(one(store, kept), 1);
  const expected = new Int32Array(2);
  fingerprint(kept.key, expected);
  t.same(kept.keyFingerprint, { key: kept.key, hi: expected[FP_HI], lo: expected[FP_LO] }, 'the fingerprint of its key is kept on it');
  t.equal(one(store, kept), 2);
  t.same(store.increment([kept, kept]), [3, 4]);
  t.equal(one(store, inc(kept.key)), 5, 'a fresh increment of the same key finds the same counter');
  t.same(store.read([kept]), [5]);
  kept.key = 'another_key';
  t.equal(one(store, kept), 1, 'an increment given another key is fingerprinted again');
  t.equal(kept.keyFingerprint?.key, 'another_key');
  t.equal(one(store, inc('another_key')), 2);
  t.equal(store.stats().keysInUse, 2);
});

t.test('the same key in another unit is another counter', async (t) => {
  const store = SharedMemoryCounterStore.create({ maxKeysPerWindow: 100 });
  t.equal(one(store, inc('k', 1, Unit.MINUTE, 600)), 1);
  t.equal(one(store, inc('k', 1, Unit.SECOND, 600)), 1);
  t.equal(one(store, inc('k', 1, Unit.HOUR, 3600)), 1);
  t.equal(one(store, inc('k', 1, Unit.WEEK, 604800)), 1);
  t.equal(one(store, inc('k', 1, Unit.MINUTE, 600)), 2);
});

t.test('hits 0 reads without consuming and without claiming a slot', async (t) => {
  const store = SharedMemoryCounterStore.create({ maxKeysPerWindow: 100 });
  t.equal(one(store, inc('absent', 0)), 0);
  t.equal(store.stats().keysInUse, 0, 'a read of an absent key claims nothing');
  store.increment([inc('k', 3)]);
  t.equal(one(store, inc('k', 0)), 3);
  t.equal(one(store, inc('k', 0)), 3);
  t.equal(one(store, inc('k')), 4);
});

// The stored count stops at 4294967295 instead of wrapping, but an increment reports the true sum:
// a limit of 4294967295 must still be passed once the counter is full.
t.test('counts saturate at 4294967295 instead of wrapping, and a full counter reads as over', async (t) => {
  const store = SharedMemoryCounterStore.create({ maxKeysPerWindow: 10 });
  t.equal(one(store, inc('k', MAX - 5)), MAX - 5);
  t.equal(one(store, inc('k', 3)), MAX - 2);
  t.equal(one(store, inc('k', 10)), MAX + 8, 'the sum past the maximum');
  t.equal(one(store, inc('k', 0)), MAX, 'stored: the maximum');
  t.equal(one(store, inc('k', 1)), MAX + 1, 'a full counter still goes over a limit of 4294967295');
  t.equal(one(store, inc('k', 0)), MAX);
  t.equal(one(store, inc('huge', 2 ** 40)), MAX, 'hits above the maximum are clamped');
  t.equal(one(store, inc('mid', 2 ** 31)), 2 ** 31, 'counts above 2^31 read back unsigned');
  t.equal(one(store, inc('mid', 2 ** 31 - 1)), MAX, 'the sum reaching 2^32 - 1 exactly');
  t.equal(one(store, inc('mid', 1)), MAX + 1);
});

t.test('windows rotate through a ring of three tables per unit', async (t) => {
  const store = SharedMemoryCounterStore.create({ maxKeysPerWindow: 100 });
  const w = (n: number): number => n * 60;
  t.equal(one(store, inc('k', 1, Unit.MINUTE, w(100))), 1);
  t.equal(one(store, inc('k', 1, Unit.MINUTE, w(100))), 2);
  t.equal(one(store, inc('k', 1, Unit.MINUTE, w(101))), 1, 'W+1 is another table');
  t.equal(one(store, inc('k', 1, Unit.MINUTE, w(102))), 1, 'W+2 is another table');
  t.equal(one(store, inc('k', 0, Unit.MINUTE, w(100))), 2, 'W is kept while W+1 and W+2 are in use');
  t.equal(store.stats().keysInUse, 3);

  t.equal(one(store, inc('k', 1, Unit.MINUTE, w(103))), 1, 'W+3 reuses the table of W, emptied');
  t.equal(one(store, inc('other', 1, Unit.MINUTE, w(103))), 1);
  t.equal(store.stats().keysInUse, 4, 'the key of W is gone with its window');
  t.equal(one(store, inc('k', 0, Unit.MINUTE, w(101))), 1, 'W+1 is untouched');

  const expiredBefore = store.stats().expiredCount;
  t.equal(one(store, inc('k', 7, Unit.MINUTE, w(100))), 7, 'a window already recycled answers as a fresh counter');
  t.equal(store.stats().expiredCount, expiredBefore + 1);
  t.equal(one(store, inc('k', 0, Unit.MINUTE, w(103))), 1, 'and does not disturb the newer window');

  t.equal(one(store, inc('k', 1, Unit.MINUTE, w(109))), 1, 'jumping several windows ahead recycles too');
  t.equal(one(store, inc('other', 0, Unit.MINUTE, w(109))), 0);
});

t.test("a token bucket whose window's table already holds a later window answers as a full bucket, uncounted", async (t) => {
  const store = SharedMemoryCounterStore.create({ maxKeysPerWindow: 100 });
  const bucket = (windowStart: number, hits: number): CounterIncrement => ({
    key: 'b:tb',
    hits,
    unit: Unit.SECOND,
    windowStart,
    algorithm: { algorithm: Algorithm.TOKEN_BUCKET, limit: 4, unitMs: 1000, nowMs: windowStart * 1000, previousKey: '' },
  });
  t.equal(one(store, bucket(1000, 1)), 1, 'one of 4 tokens taken');
  // Window 1003 takes the table of window 1000 (a ring of three per unit).
  t.equal(one(store, bucket(1003, 1)), 1, 'three windows later: full again, one taken');
  const expiredBefore = store.stats().expiredCount;
  t.equal(one(store, bucket(1000, 1)), 1, 'a request still in window 1000 is answered from a full bucket');
  t.equal(store.stats().expiredCount, expiredBefore + 1, 'and counted as expired');
  t.equal(one(store, bucket(1003, 0)), 1, 'the newer window is not disturbed');
});

t.test('maintain() pre-clears the next window so the hot path does not', async (t) => {
  const store = SharedMemoryCounterStore.create({ maxKeysPerWindow: 100 });
  const w = (n: number): number => n * 60;
  store.increment([inc('a', 1, Unit.MINUTE, w(10)), inc('b', 1, Unit.MINUTE, w(10)), inc('c', 1, Unit.MINUTE, w(12))]);
  t.equal(store.stats().keysInUseByUnit['MINUTE'], 3);

  store.maintain(w(12) + 5); // now in window 12: table of 13 (which held 10) is cleared ahead
  t.equal(store.stats().keysInUseByUnit['MINUTE'], 1, 'keys of window 10 vanished with it');
  const clears = store.stats().tableClears;
  t.equal(one(store, inc('a', 1, Unit.MINUTE, w(13))), 1);
  t.equal(store.stats().tableClears, clears, 'the increment in window 13 found its table ready');

  store.maintain(w(12) + 5);
  t.equal(store.stats().tableClears, clears, 'maintain is idempotent');
  store.maintain(w(12) + 59);
  t.equal(one(store, inc('c', 0, Unit.MINUTE, w(12))), 1, 'the current window is kept');
  t.equal(one(store, inc('a', 0, Unit.MINUTE, w(13))), 1, 'the next window is kept');
});

t.test('a full table throws CounterStoreError naming the setting and counts it', async (t) => {
  const store = SharedMemoryCounterStore.create({ maxKeysPerWindow: 4 }); // 8 slots per table
  t.equal(store.slots, 8);
  let inserted = 0;
  let error: unknown;
  for (; inserted < 100; inserted++) {
    try {
      store.increment([inc(`key-${inserted}`)]);
    } catch (e) {
      error = e;
      break;
    }
  }
  t.ok(error instanceof CounterStoreError, 'throws CounterStoreError');
  t.match((error as Error).message, /^embedded counter store is full: /);
  t.match((error as Error).message, new RegExp(MAX_KEYS_SETTING));
  t.ok(inserted >= 4 && inserted <= 8, `fails after ${inserted} keys, between capacity and slot count`);
  t.equal(store.fullCount, 1);
  t.throws(() => store.increment([inc('yet-another-key')]), CounterStoreError);
  t.equal(store.fullCount, 2);
  t.equal(store.stats().fullCount, 2);
  t.equal(one(store, inc('key-0')), 2, 'keys already held still count');
  t.equal(one(store, inc('key-100', 0)), 0, 'a read of an absent key does not fail');
  t.equal(one(store, inc('key-0', 1, Unit.MINUTE, MINUTE_START + 60)), 1, 'other windows are unaffected');
});

t.test('many keys spill from the small first level and stay exact', async (t) => {
  const store = SharedMemoryCounterStore.create({ maxKeysPerWindow: 100_000 });
  const keys = Array.from({ length: 30_000 }, (_, i) => `rl_domain_user_${i}_${MINUTE_START}`);
  for (const key of keys) store.increment([inc(key)]);
  let wrong = 0;
  for (const key of keys) if (one(store, inc(key)) !== 2) wrong++;
  t.equal(wrong, 0, 'every key found again');
  t.equal(store.stats().keysInUse, keys.length);
  t.equal(one(store, inc('never-counted', 0)), 0);

  // The next window sizes its first level from this one; counts stay exact there too.
  const next = MINUTE_START + 60;
  for (const key of keys) store.increment([inc(key, 1, Unit.MINUTE, next)]);
  wrong = 0;
  for (const key of keys) if (one(store, inc(key, 0, Unit.MINUTE, next)) !== 1) wrong++;
  t.equal(wrong, 0);
});

t.test('attach() shares the counters of a buffer', async (t) => {
  const store = SharedMemoryCounterStore.create({ maxKeysPerWindow: 1000 });
  store.increment([inc('k', 5)]);
  const other = SharedMemoryCounterStore.attach(store.buffer);
  t.equal(other.slots, store.slots);
  t.equal(other.maxKeysPerWindow, 1000);
  t.equal(one(other, inc('k')), 6);
  t.equal(one(store, inc('k', 0)), 6);
  t.throws(() => SharedMemoryCounterStore.attach(new SharedArrayBuffer(4096)), TypeError);
  t.throws(() => SharedMemoryCounterStore.attach(new ArrayBuffer(4096) as unknown as SharedArrayBuffer), TypeError);
});

t.test('create() validates the capacity and reports what it reserved', async (t) => {
  t.throws(() => SharedMemoryCounterStore.create({ maxKeysPerWindow: 0 }), RangeError);
  t.throws(() => SharedMemoryCounterStore.create({ maxKeysPerWindow: 1.5 }), RangeError);
  t.throws(() => SharedMemoryCounterStore.create({ maxKeysPerWindow: 2 ** 24 + 1 }), RangeError);
  const store = SharedMemoryCounterStore.create({ maxKeysPerWindow: 1000 });
  t.equal(store.slots, 2048, 'slots = 2 x capacity rounded up to a power of two');
  const stats = store.stats();
  t.equal(stats.bytesReserved, store.buffer.byteLength);
  t.ok(stats.bytesReserved >= 21 * 2048 * 12, 'room for 7 units x 3 windows of slots');
  t.equal(stats.maxKeysPerWindow, 1000);
  t.equal(stats.fullCount, 0);
});

t.test('a limit without a unit, or a window start that is not a number, cannot be counted', async (t) => {
  const store = SharedMemoryCounterStore.create({ maxKeysPerWindow: 10 });
  t.throws(() => store.increment([inc('k', 1, Unit.UNKNOWN, 0)]), CounterStoreError);
  t.throws(() => store.increment([inc('k', 1, Unit.MINUTE, Number.NaN)]), CounterStoreError);
  t.throws(() => store.increment([inc('k', 1, Unit.MINUTE, Number.POSITIVE_INFINITY)]), CounterStoreError);
  t.equal(store.stats().keysInUse, 0);
});

t.test('increment is synchronous and close resolves', async (t) => {
  const store = SharedMemoryCounterStore.create({ maxKeysPerWindow: 10 });
  t.ok(Array.isArray(store.increment([inc('k')])));
  await t.resolves(store.close());
});
