import type { CounterStoreDescriptor } from '../counter-store-descriptor.js';
import { MAX_KEYS_PER_WINDOW_LIMIT } from './layout.js';
import { MAX_KEYS_SETTING, SharedMemoryCounterStore } from './shared-memory-counter-store.js';
import { publishMemoryStoreStats } from './shared-memory-stats.js';

export interface SharedMemoryStoreSettings {
  /** Keys each (unit, window) table of the embedded store holds before it reports full. */
  memoryStoreMaxKeysPerWindow: number;
}

/**
 * BACKEND_TYPE=memory, the default: one SharedArrayBuffer table the main thread creates and every
 * deciding thread attaches to, so a limit is exact whichever thread counts. The main thread
 * prepares each next window's tables off the hot path and publishes the table's gauges.
 */
export const sharedMemoryStore: CounterStoreDescriptor<'memory', SharedMemoryStoreSettings, SharedArrayBuffer> = {
  type: 'memory',
  aliases: [],
  readSettings: (env) => ({
    memoryStoreMaxKeysPerWindow: env.integer([MAX_KEYS_SETTING], 100_000, 16, MAX_KEYS_PER_WINDOW_LIMIT),
  }),
  start(settings, host) {
    const store = SharedMemoryCounterStore.create({ maxKeysPerWindow: settings.memoryStoreMaxKeysPerWindow });
    return {
      shared: store.buffer,
      maintain: (nowSeconds) => store.maintain(nowSeconds),
      refreshStats: publishMemoryStoreStats(store, host.stats),
      close: () => store.close(),
    };
  },
  describe: (settings) => [
    'counting in the embedded shared-memory store (no KVSTORE_URL or BACKEND_TYPE set)',
    { maxKeysPerWindow: settings.memoryStoreMaxKeysPerWindow },
  ],
  // Nothing to load: the store is this folder's code over memory the process already shares.
  load: () => Promise.resolve({ open: (buffer) => SharedMemoryCounterStore.attach(buffer) }),
};
