import { MemcachedCounterStore } from '../backends/memcached/memcached-counter-store.js';
import { RedisCounterStore } from '../backends/redis/redis-counter-store.js';
import { SharedMemoryCounterStore } from '../backends/shared-memory/index.js';
import type { CounterStore } from '../engine/index.js';
import { createLogger, type StatsStore } from '../observability/index.js';
import type { BackendSpec } from './backend-spec.js';
import type { StoreLogSettings } from './shared-resources.js';
import { SharedHealth } from '../threads/index.js';


/** A store that is down reports an error per attempt; one line per this long and thread is enough. */
const ERROR_LOG_INTERVAL_MS = 5000;

function throttledErrorLog(log: StoreLogSettings, what: string): (error: Error) => void {
  const logger = createLogger(log.logLevel, log.logFormat);
  let last = 0;
  let suppressed = 0;
  return (error) => {
    const now = Date.now();
    if (now - last < ERROR_LOG_INTERVAL_MS) {
      suppressed++;
      return;
    }
    logger.warn(`${what} error`, { error: error.message, ...(suppressed > 0 ? { suppressed } : {}) });
    last = now;
    suppressed = 0;
  };
}

/**
 * This thread's counter store: the process-wide shared memory, or this thread's own connections
 * to Redis or memcached. Redis connections that come up or go down are counted in the shared
 * health buffer, which KVSTORE_HEALTH_CHECK_ACTIVE_CONNECTION reads.
 */
export function openCounterStore(
  backend: BackendSpec,
  storeBuffer: SharedArrayBuffer,
  healthBuffer: SharedArrayBuffer,
  stats: StatsStore,
  log: StoreLogSettings,
): CounterStore {
  switch (backend.type) {
    case 'memory':
      return SharedMemoryCounterStore.attach(storeBuffer);
    case 'kvstore': {
      const health = new SharedHealth(healthBuffer);
      return new RedisCounterStore(backend.options, {
        onReadyChange: (delta) => health.addStoreConnections(delta),
        onError: throttledErrorLog(log, 'key-value store'),
      });
    }
    case 'objcache':
      return new MemcachedCounterStore(backend.options, stats, throttledErrorLog(log, 'object cache'));
  }
}
