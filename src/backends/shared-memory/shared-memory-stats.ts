import type { StatsStore } from '../../observability/index.js';
import type { SharedMemoryCounterStore } from './shared-memory-counter-store.js';

/** Publishes the embedded store's shared counters as gauges (refreshed before each read of the stats). */
export function publishMemoryStoreStats(store: SharedMemoryCounterStore, stats: StatsStore): () => void {
  const keys = stats.gauge('ratelimit.memory_store.keys_in_use');
  const full = stats.gauge('ratelimit.memory_store.full');
  const expired = stats.gauge('ratelimit.memory_store.expired_window');
  const clears = stats.gauge('ratelimit.memory_store.table_clears');
  return () => {
    const now = store.stats();
    keys.value = now.keysInUse;
    full.value = now.fullCount;
    expired.value = now.expiredCount;
    clears.value = now.tableClears;
  };
}
