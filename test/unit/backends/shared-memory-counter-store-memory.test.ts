import { readFileSync } from 'node:fs';
import t from 'tap';
import { SharedMemoryCounterStore } from '../../../src/backends/shared-memory/index.js';
import { Unit } from '../../../src/engine/units.js';

// Resident memory, not time: figures are printed as comments; only success is asserted.
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

/**
 * Resident bytes of the buffer's own mapping from /proc/self/smaps (Linux), found as the one
 * mapping whose size is the buffer's rounded up to at most a few pages; undefined elsewhere.
 */
function bufferResident(bytes: number): number | undefined {
  let smaps: string;
  try {
    smaps = readFileSync('/proc/self/smaps', 'utf8');
  } catch {
    return undefined;
  }
  let size = -1;
  for (const line of smaps.split('\n')) {
    const [field, value] = line.split(/:\s+/);
    if (field === 'Size') size = Number.parseInt(value ?? '', 10) * 1024;
    else if (field === 'Rss' && size >= bytes && size <= bytes + 16 * 4096) {
      return Number.parseInt(value ?? '', 10) * 1024;
    }
  }
  return undefined;
}

function describe(label: string, keys: number, rssGrowth: number, resident: number | undefined): string {
  const buffer = resident === undefined ? 'n/a' : `${(resident / MiB).toFixed(1)} MiB`;
  return `${label}: buffer resident ${buffer}, process RSS +${(rssGrowth / MiB).toFixed(1)} MiB (${Math.round(rssGrowth / keys)} B/key incl. key strings)`;
}

t.test('a store reserved for 1,000,000 keys per window holds 1,000,000 keys', async (t) => {
  const before = process.memoryUsage().rss;
  const store = SharedMemoryCounterStore.create({ maxKeysPerWindow: 1_000_000 });
  const reserved = store.stats().bytesReserved;
  const afterCreate = process.memoryUsage().rss;
  t.comment(
    `reserved ${(reserved / MiB).toFixed(0)} MiB virtual; after create: buffer resident ` +
      `${((bufferResident(reserved) ?? Number.NaN) / MiB).toFixed(2)} MiB, process RSS +${((afterCreate - before) / MiB).toFixed(1)} MiB`,
  );

  fill(store, 10_000, WINDOW_START - 60);
  const afterSmall = process.memoryUsage().rss;
  t.comment(describe('10,000 keys in one window', 10_000, afterSmall - afterCreate, bufferResident(reserved)));

  fill(store, 1_000_000, WINDOW_START);
  const afterLarge = process.memoryUsage().rss;
  t.comment(describe('then 1,000,000 keys in the next', 1_000_000, afterLarge - afterSmall, bufferResident(reserved)));

  t.equal(store.stats().keysInUseByUnit['MINUTE'], 1_010_000);
  t.equal(store.fullCount, 0, 'never full');
  const last = `rl_domain_remote_address_10.0.999999_${WINDOW_START}`;
  t.same(store.increment([{ key: last, hits: 0, unit: Unit.MINUTE, windowStart: WINDOW_START }]), [1]);
});
