import { accessSync, constants } from 'node:fs';
import { SettingsError, type EnvReader } from '../../settings/index.js';
import { DEFAULT_STORE_TIMEOUT_MS, readExpirationJitterMaxSeconds, readStoreTlsFiles } from '../network-store-settings.js';
import type { StoreTlsFiles } from '../store-tls.js';
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
      connectionsPerServer: env.integer(['OBJCACHE_MAX_IDLE_CONNS', 'MEMCACHE_MAX_IDLE_CONNS'], 1, 1, 64),
      timeoutMs: env.durationMs(['OBJCACHE_TIMEOUT'], DEFAULT_STORE_TIMEOUT_MS),
      expirationJitterMaxSeconds,
      tls: env.bool(['OBJCACHE_TLS', 'MEMCACHE_TLS'], false) ? readStoreTlsFiles(env, 'OBJCACHE', 'MEMCACHE') : undefined,
    },
  };
}

/** Combinations that cannot work, checked only when the object cache counts. */
export function checkMemcachedStoreSettings(settings: MemcachedStoreSettings): void {
  const { servers, srv, timeoutMs } = settings.objcache;
  if (servers.length > 0 && srv !== '') {
    throw new SettingsError('both OBJCACHE_HOST_PORT and OBJCACHE_SRV are set: use one of them');
  }
  if (servers.length === 0 && srv === '') {
    throw new SettingsError('BACKEND_TYPE=objcache needs OBJCACHE_HOST_PORT or OBJCACHE_SRV');
  }
  const bad = servers.find((server) => !/^\[?[^\s,\]]+\]?:\d{1,5}$/.test(server));
  if (bad !== undefined) throw new SettingsError(`invalid value for OBJCACHE_HOST_PORT: ${JSON.stringify(bad)} (expected host:port)`);
  if (settings.objcache.tls !== undefined) checkTlsFiles(settings.objcache.tls);
  if (timeoutMs === 0) throw new SettingsError('invalid value for OBJCACHE_TIMEOUT: 0 (expected a duration above zero)');
}

/** A client certificate needs its key (and the reverse); every file named must be readable now, not at the first request. */
function checkTlsFiles(tls: StoreTlsFiles): void {
  if ((tls.clientCertFile === '') !== (tls.clientKeyFile === '')) {
    throw new SettingsError('OBJCACHE_TLS_CLIENT_CERT and OBJCACHE_TLS_CLIENT_KEY go together: set both or neither');
  }
  const files: Array<[string, string]> = [
    ['OBJCACHE_TLS_CLIENT_CERT', tls.clientCertFile],
    ['OBJCACHE_TLS_CLIENT_KEY', tls.clientKeyFile],
    ['OBJCACHE_TLS_CACERT', tls.caCertFile],
  ];
  for (const [name, file] of files) {
    if (file === '') continue;
    try {
      accessSync(file, constants.R_OK);
    } catch (error) {
      throw new SettingsError(`invalid value for ${name}: cannot read ${JSON.stringify(file)} (${(error as NodeJS.ErrnoException).code ?? String(error)})`);
    }
  }
}
