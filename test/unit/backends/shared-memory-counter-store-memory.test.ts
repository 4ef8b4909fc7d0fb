import t from 'tap';
import { SharedMemoryCounterStore } from '../../../src/backends/shared-memory/index.js';
import { Unit } from '../../../src/engine/units.js';

// Resident memory, not time: printed as comments, asserted only to succeed.
const WINDOW_START = 1_700_000_040;
const MiB = 1024 * 1024;

function fill(store: SharedMemoryCounterStore, count: number, windowStart: number): void {
  const batch = [{ key: '', hits: 1, unit: Unit.MINUTE, windowStart }];
  const first = batch[0]!;
  for (let i = 0; i < count; i++) {
    first.key = `rl_domain_remote_address_10.0.${i}_${windowStart}`;
    store.increment(batch);
  }
}

t.test('a store reserved for 1,000,000 keys per window holds 1,000,000 keys', async (t) => {
  const before = process.memoryUsage().rss;
  const store = SharedMemoryCounterStore.create({ maxKeysPerWindow: 1_000_000 });
  const reserved = store.stats().bytesReserved;
  const afterCreate = process.memoryUsage().rss;
  t.comment(`reserved ${(reserved / MiB).toFixed(0)} MiB virtual; RSS +${((afterCreate - before) / MiB).toFixed(1)} MiB after create`);

  fill(store, 10_000, WINDOW_START - 60);
  const afterSmall = process.memoryUsage().rss;
  t.comment(
    `10,000 keys in one window: RSS +${((afterSmall - afterCreate) / MiB).toFixed(1)} MiB ` +
      `(${Math.round((afterSmall - afterCreate) / 10_000)} B/key)`,
  );

  fill(store, 1_000_000, WINDOW_START);
  const afterLarge = process.memoryUsage().rss;
  t.equal(store.stats().keysInUseByUnit['MINUTE'], 1_010_000);
  t.equal(store.fullCount, 0, 'never full');
  t.comment(
    `1,000,000 keys in one window: RSS +${((afterLarge - afterSmall) / MiB).toFixed(1)} MiB ` +
      `(${Math.round((afterLarge - afterSmall) / 1_000_000)} B/key; a slot is 12 B at load <= 0.5)`,
  );
  const check = store.increment([{ key: `rl_domain_remote_address_10.0.999999_${WINDOW_START}`, hits: 0, unit: Unit.MINUTE, windowStart: WINDOW_START }]);
  t.same(check, [1]);
});
