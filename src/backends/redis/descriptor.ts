import { Unit } from '../../engine/index.js';
import type { CounterStoreDescriptor } from '../counter-store-descriptor.js';
import { startupDeadline } from './startup-deadline.js';
import type { RedisStoreOptions } from './redis-options.js';
import { checkRedisStoreSettings, readRedisStoreSettings, type RedisStoreSettings } from './redis-settings.js';

/**
 * BACKEND_TYPE=kvstore (upstream: redis), also chosen by KVSTORE_URL alone: every deciding thread
 * opens its own connections. KVSTORE_HEALTH_CHECK_ACTIVE_CONNECTION makes the service unhealthy
 * while no thread has a connection up; KVSTORE_STARTUP_MAX_ELAPSED_TIME stops the service if none ever came up.
 */
export const redisStore: CounterStoreDescriptor<'kvstore', RedisStoreSettings, RedisStoreOptions> = {
  type: 'kvstore',
  aliases: ['redis'],
  chosenWhenUnset: (env) => env.string(['KVSTORE_URL', 'REDIS_URL'], '') !== '',
  readSettings: readRedisStoreSettings,
  checkSettings: checkRedisStoreSettings,
  start(settings, host) {
    const shared = connectionsPerThread(settings.kvstore, host.decidingThreads);
    const checkStartup = startupDeadline(settings.kvstore.startupMaxElapsedMs, host);
    const checkHealth = settings.kvstoreHealthCheckActiveConnection ? () => host.setHealthy(host.connectionsUp() > 0) : undefined;
    if (checkHealth !== undefined) host.setHealthy(false);
    if (checkStartup === undefined && checkHealth === undefined) return { shared };
    return {
      shared,
      maintain: () => {
        checkStartup?.();
        checkHealth?.();
      },
    };
  },
  describe: (_settings, options) => [
    'counting in the key-value store (Redis)',
    {
      type: options.main.type,
      url: options.main.url,
      connectionsPerThread: options.main.connections,
      perSecondUrl: options.perSecond?.url ?? '',
    },
  ],
  async load() {
    const { RedisCounterStore } = await import('./redis-counter-store.js');
    return {
      open: (options, context) =>
        new RedisCounterStore(options, {
          onReadyChange: (delta) => context.connectionsChanged(delta),
          onError: context.errorLog('key-value store'),
        }),
    };
  },
  // Upstream's span: the commands of the main and the per-second pipelines, an INCRBY and an EXPIRE per key.
  span: (options) => ({
    name: 'Redis Pipeline Execution',
    attributes(increments) {
      const perSecond = options.perSecond === undefined ? 0 : increments.filter((inc) => inc.unit === Unit.SECOND).length;
      return { 'pipeline length': 2 * (increments.length - perSecond), 'perSecondPipeline length': 2 * perSecond };
    },
  }),
};

/**
 * KVSTORE_POOL_SIZE is the process's connection count, shared out over the deciding threads (at
 * least one each), so the store sees the number of connections the setting names rather than
 * that many per thread.
 */
function connectionsPerThread(options: RedisStoreOptions, threads: number): RedisStoreOptions {
  const share = (total: number) => Math.max(1, Math.ceil(total / threads));
  const { main, perSecond } = options;
  return {
    ...options,
    main: { ...main, connections: share(main.connections) },
    perSecond: perSecond === undefined ? undefined : { ...perSecond, connections: share(perSecond.connections) },
  };
}
