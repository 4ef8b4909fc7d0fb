export {
  MAX_KEYS_SETTING,
  SharedMemoryCounterStore,
  type SharedMemoryCounterStats,
  type SharedMemoryCounterStoreOptions,
} from './shared-memory-counter-store.js';
export { MAX_KEYS_PER_WINDOW_LIMIT, reservedBytes } from './layout.js';
