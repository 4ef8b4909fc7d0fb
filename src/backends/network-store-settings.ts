import type { EnvReader } from '../settings/index.js';

/** Settings the key-value store (Redis) and the object cache (memcached) read alike. */

/** A store call without an answer after this long fails the request: a sidecar must answer fast. */
export const DEFAULT_STORE_TIMEOUT_MS = 500;

/** EXPIRATION_JITTER_MAX_SECONDS: each key's TTL is its unit plus a random [0, this) seconds, as upstream. */
export function readExpirationJitterMaxSeconds(env: EnvReader): number {
  return env.integer(['EXPIRATION_JITTER_MAX_SECONDS'], 300, 0, 365 * 24 * 3600);
}
