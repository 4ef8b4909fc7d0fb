import type { MemcachedStoreOptions } from '../backends/memcached/memcached-options.js';
import type { RedisConnectionOptions, RedisStoreOptions } from '../backends/redis/redis-options.js';
import { SettingsError, type EnvReader } from './env-reader.js';

/** Settings of the key-value store (Redis) and the object cache (memcached), and what they share. */
export interface StoreSettings {
  /** KVSTORE_*: `connections` is KVSTORE_POOL_SIZE for the whole process (see perThreadConnections). */
  kvstore: RedisStoreOptions;
  /** OBJCACHE_*: `connectionsPerServer` is OBJCACHE_MAX_IDLE_CONNS. */
  objcache: MemcachedStoreOptions;
  /** Health fails while no connection to the key-value store is up. */
  kvstoreHealthCheckActiveConnection: boolean;
  /** Local over-limit cache size per thread; 0 disables it. */
  localCacheSizeBytes: number;
  stopCacheKeyIncrementWhenOverlimit: boolean;
}

const DEFAULT_TIMEOUT_MS = 500;
const DEFAULT_RECONNECT_MAX_MS = 1000;

/**
 * KVSTORE_* (or KVSTORE_PERSECOND_*) with upstream's REDIS_* names as aliases. TLS files are
 * shared by both stores, as upstream does.
 */
function readConnection(env: EnvReader, prefix: 'KVSTORE' | 'KVSTORE_PERSECOND', fallbackType: RedisConnectionOptions['type']): RedisConnectionOptions {
  const upstream = prefix === 'KVSTORE' ? 'REDIS' : 'REDIS_PERSECOND';
  const names = (suffix: string) => [`${prefix}_${suffix}`, `${upstream}_${suffix}`];
  const url = env.string(names('URL'), prefix === 'KVSTORE' ? '/var/run/nutcracker/ratelimit.sock' : '/var/run/nutcracker/ratelimitpersecond.sock');
  const type = env.choice(names('TYPE'), fallbackType, ['single', 'sentinel', 'cluster'], true).toLowerCase() as RedisConnectionOptions['type'];
  // Upstream's default is `unix`, which makes `KVSTORE_URL=localhost:6379` alone fail to connect;
  // unset, the type follows the URL: a path is a unix socket, anything else TCP.
  const socketType = env.choice(names('SOCKET_TYPE'), url.startsWith('/') ? 'unix' : 'tcp', ['tcp', 'unix'], true).toLowerCase() as RedisConnectionOptions['socketType'];
  const tlsOn = env.bool(names('TLS'), false);
  const options: RedisConnectionOptions = {
    type,
    socketType,
    url,
    connections: env.integer(names('POOL_SIZE'), 10, 1, 1024),
    auth: env.string(names('AUTH'), ''),
    sentinelAuth: env.string(names('SENTINEL_AUTH'), ''),
    tls: tlsOn
      ? {
          clientCertFile: env.string(['KVSTORE_TLS_CLIENT_CERT', 'REDIS_TLS_CLIENT_CERT'], ''),
          clientKeyFile: env.string(['KVSTORE_TLS_CLIENT_KEY', 'REDIS_TLS_CLIENT_KEY'], ''),
          caCertFile: env.string(['KVSTORE_TLS_CACERT', 'REDIS_TLS_CACERT'], ''),
          skipHostnameVerification: env.bool(['KVSTORE_TLS_SKIP_HOSTNAME_VERIFICATION', 'REDIS_TLS_SKIP_HOSTNAME_VERIFICATION'], false),
        }
      : undefined,
    pipelineWindowMs: env.durationMs(names('PIPELINE_WINDOW'), 0),
    pipelineLimit: env.integer(names('PIPELINE_LIMIT'), 0, 0, 1_000_000),
    timeoutMs: env.durationMs(names('TIMEOUT'), DEFAULT_TIMEOUT_MS),
    reconnectMaxDelayMs: env.durationMs(names('RECONNECT_MAX_DELAY'), DEFAULT_RECONNECT_MAX_MS),
  };
  return options;
}

/** The shape each URL must have for its type; checked only for the store that is used. */
function checkConnection(options: RedisConnectionOptions, prefix: string): void {
  const hostPort = /^\[?[^\s,\]]*\]?:\d{1,5}$/;
  const items = options.url.split(',').map((item) => item.trim());
  const fail = (expected: string): never => {
    throw new SettingsError(`invalid value for ${prefix}_URL: ${JSON.stringify(options.url)} (${options.type}: expected ${expected})`);
  };
  if (options.url === '') throw new SettingsError(`${prefix}_URL is empty (the key-value store needs its address)`);
  if (options.timeoutMs === 0) throw new SettingsError(`invalid value for ${prefix}_TIMEOUT: 0 (expected a duration above zero)`);
  switch (options.type) {
    case 'single':
      if (options.socketType === 'unix') {
        if (items.length !== 1) fail('one unix socket path');
      } else if (items.length !== 1 || !hostPort.test(items[0] as string)) {
        fail('host:port');
      }
      break;
    case 'sentinel':
      if (items.length < 2 || (items[0] as string) === '' || !items.slice(1).every((item) => hostPort.test(item))) {
        fail('master-name,host:port[,host:port...]');
      }
      break;
    case 'cluster':
      if (!items.every((item) => hostPort.test(item))) fail('host:port[,host:port...]');
      break;
  }
  if (options.socketType === 'unix' && options.type !== 'single') {
    throw new SettingsError(`${prefix}_SOCKET_TYPE=unix works only with ${prefix}_TYPE=single`);
  }
  if (options.tls !== undefined && options.socketType === 'unix') {
    throw new SettingsError(`${prefix}_TLS needs ${prefix}_SOCKET_TYPE=tcp`);
  }
}

export function readStoreSettings(env: EnvReader): StoreSettings {
  const main = readConnection(env, 'KVSTORE', 'single');
  const perSecondOn = env.bool(['KVSTORE_PERSECOND', 'REDIS_PERSECOND'], false);
  const jitter = env.integer(['EXPIRATION_JITTER_MAX_SECONDS'], 300, 0, 365 * 24 * 3600);
  const servers = env
    .string(['OBJCACHE_HOST_PORT', 'MEMCACHE_HOST_PORT'], '')
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item !== '');
  return {
    kvstore: {
      main,
      perSecond: perSecondOn ? readConnection(env, 'KVSTORE_PERSECOND', main.type) : undefined,
      expirationJitterMaxSeconds: jitter,
    },
    objcache: {
      servers,
      srv: env.string(['OBJCACHE_SRV', 'MEMCACHE_SRV'], ''),
      srvRefreshMs: env.durationMs(['OBJCACHE_SRV_REFRESH', 'MEMCACHE_SRV_REFRESH'], 0),
      srvResolver: env.string(['OBJCACHE_SRV_RESOLVER'], ''),
      connectionsPerServer: env.integer(['OBJCACHE_MAX_IDLE_CONNS', 'MEMCACHE_MAX_IDLE_CONNS'], 2, 1, 64),
      timeoutMs: env.durationMs(['OBJCACHE_TIMEOUT'], DEFAULT_TIMEOUT_MS),
      expirationJitterMaxSeconds: jitter,
    },
    kvstoreHealthCheckActiveConnection: env.bool(['KVSTORE_HEALTH_CHECK_ACTIVE_CONNECTION', 'REDIS_HEALTH_CHECK_ACTIVE_CONNECTION'], false),
    localCacheSizeBytes: env.integer(['LOCAL_CACHE_SIZE_IN_BYTES', 'LocalCacheSizeInBytes'], 0, 0, 64 * 1024 * 1024 * 1024),
    stopCacheKeyIncrementWhenOverlimit: env.bool(['STOP_CACHE_KEY_INCREMENT_WHEN_OVERLIMIT'], false),
  };
}

/** Combinations that cannot work, for the backend that BACKEND_TYPE selected. */
export function checkStoreSettings(backend: 'memory' | 'kvstore' | 'objcache', store: StoreSettings, env: EnvReader): void {
  if (backend === 'kvstore') {
    checkConnection(store.kvstore.main, 'KVSTORE');
    if (store.kvstore.perSecond !== undefined) checkConnection(store.kvstore.perSecond, 'KVSTORE_PERSECOND');
  }
  if (backend === 'objcache') {
    const { servers, srv } = store.objcache;
    if (servers.length > 0 && srv !== '') {
      throw new SettingsError('both OBJCACHE_HOST_PORT and OBJCACHE_SRV are set: use one of them');
    }
    if (servers.length === 0 && srv === '') {
      throw new SettingsError('BACKEND_TYPE=objcache needs OBJCACHE_HOST_PORT or OBJCACHE_SRV');
    }
    const bad = servers.find((server) => !/^\[?[^\s,\]]+\]?:\d{1,5}$/.test(server));
    if (bad !== undefined) throw new SettingsError(`invalid value for OBJCACHE_HOST_PORT: ${JSON.stringify(bad)} (expected host:port)`);
    if (env.bool(['OBJCACHE_TLS', 'MEMCACHE_TLS'], false)) {
      // memjs connects with plain `net` sockets only; sending counters in the clear when TLS was
      // asked for would be worse than not starting.
      throw new SettingsError('OBJCACHE_TLS=true is not supported: the memcached client (memjs) has no TLS; use a TLS tunnel (stunnel) or the key-value store');
    }
    if (store.objcache.timeoutMs === 0) throw new SettingsError('invalid value for OBJCACHE_TIMEOUT: 0 (expected a duration above zero)');
  }
}
