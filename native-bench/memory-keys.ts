/**
 * Child process (run with --expose-gc): loads 1,000,000 distinct keys into a fresh embedded
 * store and prints `MEMORY_JSON {...}` with RSS before, after creating the store, and after
 * the keys. Keys look like the service's cache keys: `bench_service_api_user_<i>_<windowStart>`.
 */
import { SharedMemoryCounterStore } from '../src/backends/shared-memory/index.js';
import { Unit } from '../src/engine/index.js';
import type { CounterIncrement } from '../src/engine/index.js';

const KEYS = 1_000_000;

const gc = (globalThis as { gc?: () => void }).gc;
const rss = (): number => {
  gc?.();
  return process.memoryUsage().rss;
};

const rssBefore = rss();
const store = SharedMemoryCounterStore.create({ maxKeysPerWindow: KEYS });
const rssAfterCreate = rss();

const windowStart = Math.floor(Date.now() / 60_000) * 60;
const one: CounterIncrement[] = [{ key: '', hits: 1, unit: Unit.MINUTE, windowStart }];
const started = process.hrtime.bigint();
let wrongCounts = 0;
for (let i = 0; i < KEYS; i++) {
  one[0]!.key = `bench_service_api_user_${i}_${windowStart}`;
  if (store.increment(one)[0] !== 1) wrongCounts++;
}
const elapsedMs = Number(process.hrtime.bigint() - started) / 1e6;
const rssAfter = rss();
const stats = store.stats();

console.log(
  'MEMORY_JSON ' +
    JSON.stringify({
      keys: KEYS,
      rssBeforeBytes: rssBefore,
      rssAfterCreateBytes: rssAfterCreate,
      rssAfterBytes: rssAfter,
      bytesPerKey: (rssAfter - rssBefore) / KEYS,
      keysInUse: stats.keysInUse,
      fullCount: stats.fullCount,
      wrongCounts,
      bytesReserved: stats.bytesReserved,
      loadMs: elapsedMs,
      gcExposed: gc !== undefined,
    }),
);
