import type { EnvReader } from './env-reader.js';

/**
 * Settings of counting that hold whichever counter store counts. Each store reads its own
 * settings (src/backends/registry.ts lists the stores).
 */
export interface StoreSettings {
  /** Local over-limit cache size per thread; 0 disables it. */
  localCacheSizeBytes: number;
  stopCacheKeyIncrementWhenOverlimit: boolean;
}

export function readStoreSettings(env: EnvReader): StoreSettings {
  return {
    localCacheSizeBytes: env.integer(['LOCAL_CACHE_SIZE_IN_BYTES', 'LocalCacheSizeInBytes'], 0, 0, 64 * 1024 * 1024 * 1024),
    stopCacheKeyIncrementWhenOverlimit: env.bool(['STOP_CACHE_KEY_INCREMENT_WHEN_OVERLIMIT'], false),
  };
}
