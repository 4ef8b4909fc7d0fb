import type { SomeCounterStore } from './counter-store-descriptor.js';
import { memcachedStore } from './memcached/descriptor.js';
import { redisStore } from './redis/descriptor.js';
import { sharedMemoryStore } from './shared-memory/descriptor.js';

/**
 * Every counter store BACKEND_TYPE can choose, in the order its error message names them. A store
 * is its folder with a descriptor (counter-store-descriptor.ts) and its line here.
 */
export const COUNTER_STORES = [sharedMemoryStore, redisStore, memcachedStore] as const satisfies readonly SomeCounterStore[];

/** The store when BACKEND_TYPE is unset and no store's own setting chooses it. */
export const DEFAULT_COUNTER_STORE: SomeCounterStore = sharedMemoryStore;
