import type { MemcachedStoreOptions } from '../backends/memcached/memcached-options.js';
import type { RedisStoreOptions } from '../backends/redis/redis-options.js';
import type { Settings } from '../settings/index.js';

/** Which store counts, and how each thread reaches it (plain data, posted to every thread). */
export type BackendSpec =
  | { type: 'memory' }
  | { type: 'kvstore'; options: RedisStoreOptions }
  | { type: 'objcache'; options: MemcachedStoreOptions };

/**
 * Threads that decide, and so open their own store connections: the main thread (gRPC, and HTTP
 * when HTTP_WORKERS=0) and each HTTP thread; in pool mode every front has POOL_THREADS workers.
 */
export function decidingThreads(settings: Settings): number {
  const fronts = settings.httpWorkers + 1;
  return settings.decisionMode === 'pool' ? fronts * settings.poolThreads : fronts;
}

/**
 * BACKEND_TYPE as each thread opens it. KVSTORE_POOL_SIZE is the process's connection count,
 * shared out over the deciding threads (at least one each), so the store sees the number of
 * connections the setting names rather than that many per thread.
 */
export function backendSpecOf(settings: Settings): BackendSpec {
  const threads = decidingThreads(settings);
  const share = (total: number) => Math.max(1, Math.ceil(total / threads));
  switch (settings.backendType) {
    case 'memory':
      return { type: 'memory' };
    case 'kvstore': {
      const { main, perSecond } = settings.kvstore;
      return {
        type: 'kvstore',
        options: {
          ...settings.kvstore,
          main: { ...main, connections: share(main.connections) },
          perSecond: perSecond === undefined ? undefined : { ...perSecond, connections: share(perSecond.connections) },
        },
      };
    }
    case 'objcache':
      return { type: 'objcache', options: settings.objcache };
  }
}

/** The startup log line that says where counters live. */
export function describeBackend(spec: BackendSpec, settings: Settings): [string, Record<string, unknown>] {
  switch (spec.type) {
    case 'memory':
      return [
        'counting in the embedded shared-memory store (no KVSTORE_URL or BACKEND_TYPE set)',
        { maxKeysPerWindow: settings.memoryStoreMaxKeysPerWindow },
      ];
    case 'kvstore':
      return [
        'counting in the key-value store (Redis)',
        {
          type: spec.options.main.type,
          url: spec.options.main.url,
          connectionsPerThread: spec.options.main.connections,
          perSecondUrl: spec.options.perSecond?.url ?? '',
        },
      ];
    case 'objcache':
      return [
        'counting in the object cache (memcached)',
        { servers: spec.options.srv !== '' ? `SRV ${spec.options.srv}` : spec.options.servers.join(','), connectionsPerServer: spec.options.connectionsPerServer },
      ];
  }
}
