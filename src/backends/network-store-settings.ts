import type { EnvReader } from '../settings/index.js';
import type { StoreTlsFiles } from './store-tls.js';

/** Settings the key-value store (Redis) and the object cache (memcached) read alike. */

/** A store call without an answer after this long fails the request: a sidecar must answer fast. */
export const DEFAULT_STORE_TIMEOUT_MS = 500;

/** EXPIRATION_JITTER_MAX_SECONDS: each key's TTL is its unit plus a random [0, this) seconds, as upstream. */
export function readExpirationJitterMaxSeconds(env: EnvReader): number {
  return env.integer(['EXPIRATION_JITTER_MAX_SECONDS'], 300, 0, 365 * 24 * 3600);
}

/** `<ours>_TLS_*` with upstream's `<upstream>_TLS_*` as aliases (KVSTORE/REDIS, OBJCACHE/MEMCACHE). */
export function readStoreTlsFiles(env: EnvReader, ours: string, upstream: string): StoreTlsFiles {
  const names = (suffix: string) => [`${ours}_TLS_${suffix}`, `${upstream}_TLS_${suffix}`];
  return {
    clientCertFile: env.string(names('CLIENT_CERT'), ''),
    clientKeyFile: env.string(names('CLIENT_KEY'), ''),
    caCertFile: env.string(names('CACERT'), ''),
    skipHostnameVerification: env.bool(names('SKIP_HOSTNAME_VERIFICATION'), false),
  };
}
