import { SettingsError, type EnvReader } from '../../settings/index.js';
import { DEFAULT_STORE_TIMEOUT_MS, readExpirationJitterMaxSeconds } from '../network-store-settings.js';
import type { MemcachedStoreOptions } from './memcached-options.js';

/** The object cache's part of the service's settings. */
export interface MemcachedStoreSettings {
  /** OBJCACHE_*: `connectionsPerServer` is OBJCACHE_MAX_IDLE_CONNS. */
  objcache: MemcachedStoreOptions;
}

/** OBJCACHE_* with upstream's MEMCACHE_* names as aliases. */
export function readMemcachedStoreSettings(env: EnvReader): MemcachedStoreSettings {
  const expirationJitterMaxSeconds = readExpirationJitterMaxSeconds(env);
  const servers = env
    .string(['OBJCACHE_HOST_PORT', 'MEMCACHE_HOST_PORT'], '')
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item !== '');
  return {
    objcache: {
      servers,
      srv: env.string(['OBJCACHE_SRV', 'MEMCACHE_SRV'], ''),
      srvRefreshMs: env.durationMs(['OBJCACHE_SRV_REFRESH', 'MEMCACHE_SRV_REFRESH'], 0),
      srvResolver: env.string(['OBJCACHE_SRV_RESOLVER'], ''),
      connectionsPerServer: env.integer(['OBJCACHE_MAX_IDLE_CONNS', 'MEMCACHE_MAX_IDLE_CONNS'], 2, 1, 64),
      timeoutMs: env.durationMs(['OBJCACHE_TIMEOUT'], DEFAULT_STORE_TIMEOUT_MS),
      expirationJitterMaxSeconds,
    },
  };
}

/** Combinations that cannot work, checked only when the object cache counts. */
export function checkMemcachedStoreSettings(settings: MemcachedStoreSettings, env: EnvReader): void {
  const { servers, srv, timeoutMs } = settings.objcache;
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
  if (timeoutMs === 0) throw new SettingsError('invalid value for OBJCACHE_TIMEOUT: 0 (expected a duration above zero)');
}
