import { SettingsError, type EnvReader } from '../../settings/index.js';
import { DEFAULT_STORE_TIMEOUT_MS, readExpirationJitterMaxSeconds, readStoreTlsFiles } from '../network-store-settings.js';
import type { RedisConnectionOptions, RedisStoreOptions } from './redis-options.js';

/** The key-value store's part of the service's settings. */
export interface RedisStoreSettings {
  /** KVSTORE_*: `connections` is KVSTORE_POOL_SIZE for the whole process, shared out over the deciding threads. */
  kvstore: RedisStoreOptions;
  /** Health fails while no connection to the key-value store is up. */
  kvstoreHealthCheckActiveConnection: boolean;
}

const DEFAULT_RECONNECT_MAX_MS = 1000;
/** Upstream starts at 1s and backs off to 30s; a sidecar whose Redis comes up late should count as soon as it does. */
const DEFAULT_STARTUP_INITIAL_MS = 50;
const DEFAULT_STARTUP_MAX_MS = 1000;
const POOL_ON_EMPTY_BEHAVIORS = ['WAIT', 'CREATE', 'ERROR'] as const;

export function readRedisStoreSettings(env: EnvReader): RedisStoreSettings {
  const main = readConnection(env, 'KVSTORE', 'single');
  const perSecondOn = env.bool(['KVSTORE_PERSECOND', 'REDIS_PERSECOND'], false);
  const expirationJitterMaxSeconds = readExpirationJitterMaxSeconds(env);
  return {
    kvstore: {
      main,
      perSecond: perSecondOn ? readConnection(env, 'KVSTORE_PERSECOND', main.type) : undefined,
      expirationJitterMaxSeconds,
      startupMaxElapsedMs: env.durationMs(['KVSTORE_STARTUP_MAX_ELAPSED_TIME', 'REDIS_STARTUP_MAX_ELAPSED_TIME'], 0),
    },
    kvstoreHealthCheckActiveConnection: env.bool(['KVSTORE_HEALTH_CHECK_ACTIVE_CONNECTION', 'REDIS_HEALTH_CHECK_ACTIVE_CONNECTION'], false),
  };
}

/** Combinations that cannot work, checked only when the key-value store counts. */
export function checkRedisStoreSettings(settings: RedisStoreSettings, env: EnvReader): void {
  checkPoolOnEmptyBehavior(env);
  checkConnection(settings.kvstore.main, 'KVSTORE');
  if (settings.kvstore.perSecond !== undefined) checkConnection(settings.kvstore.perSecond, 'KVSTORE_PERSECOND');
}

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
    tls: tlsOn ? readStoreTlsFiles(env, 'KVSTORE', 'REDIS') : undefined,
    pipelineWindowMs: env.durationMs(names('PIPELINE_WINDOW'), 0),
    pipelineLimit: env.integer(names('PIPELINE_LIMIT'), 0, 0, 1_000_000),
    timeoutMs: env.durationMs(names('TIMEOUT'), DEFAULT_STORE_TIMEOUT_MS),
    reconnectMaxDelayMs: env.durationMs(names('RECONNECT_MAX_DELAY'), DEFAULT_RECONNECT_MAX_MS),
    clusterPipelineParallelism: 1,
    poolOnEmptyBehavior: poolOnEmptyBehavior(env, names('POOL_ON_EMPTY_BEHAVIOR')),
    ...readStartupIntervals(env),
  };
  options.clusterPipelineParallelism = clusterParallelism(env.integer(names('CLUSTER_PIPELINE_PARALLELISM'), 0, 0, 1024), options.connections);
  return options;
}

/** Upstream's meaning: 1 one node after the other, 0 as many nodes as the pool has connections, N at most N (and at most the pool size). */
function clusterParallelism(setting: number, poolSize: number): number {
  return setting === 0 ? poolSize : Math.min(setting, poolSize);
}

/** CREATE (upstream refuses it too) is reported by checkPoolOnEmptyBehavior; read as WAIT until then. */
function poolOnEmptyBehavior(env: EnvReader, names: readonly string[]): RedisConnectionOptions['poolOnEmptyBehavior'] {
  const behavior = env.choice(names, 'WAIT', POOL_ON_EMPTY_BEHAVIORS, true).toUpperCase();
  return behavior === 'ERROR' ? 'ERROR' : 'WAIT';
}

/**
 * Connections are shared (every request's commands are pipelined on the next one up), so a
 * request never waits for a free connection and no connection is ever created on demand:
 * CREATE has nothing to do, and is refused rather than silently ignored.
 */
function checkPoolOnEmptyBehavior(env: EnvReader): void {
  for (const prefix of ['KVSTORE', 'REDIS', 'KVSTORE_PERSECOND', 'REDIS_PERSECOND']) {
    const name = `${prefix}_POOL_ON_EMPTY_BEHAVIOR`;
    if (env.string([name], '').toUpperCase() === 'CREATE') {
      throw new SettingsError(`${name}=CREATE is not supported: connections are shared by every request, so none is ever created on demand (use WAIT or ERROR)`);
    }
  }
}

/** The first connection's retry pace, shared by both stores (upstream's REDIS_STARTUP_*). */
function readStartupIntervals(env: EnvReader): Pick<RedisConnectionOptions, 'startupInitialIntervalMs' | 'startupMaxIntervalMs'> {
  const startupInitialIntervalMs = env.durationMs(['KVSTORE_STARTUP_INITIAL_INTERVAL', 'REDIS_STARTUP_INITIAL_INTERVAL'], DEFAULT_STARTUP_INITIAL_MS);
  const startupMaxIntervalMs = env.durationMs(['KVSTORE_STARTUP_MAX_INTERVAL', 'REDIS_STARTUP_MAX_INTERVAL'], Math.max(DEFAULT_STARTUP_MAX_MS, startupInitialIntervalMs));
  if (startupInitialIntervalMs === 0) throw new SettingsError('invalid value for KVSTORE_STARTUP_INITIAL_INTERVAL: 0 (expected a duration above zero)');
  if (startupMaxIntervalMs < startupInitialIntervalMs) {
    throw new SettingsError(`KVSTORE_STARTUP_MAX_INTERVAL (${startupMaxIntervalMs} ms) is shorter than KVSTORE_STARTUP_INITIAL_INTERVAL (${startupInitialIntervalMs} ms)`);
  }
  return { startupInitialIntervalMs, startupMaxIntervalMs };
}

/** The shape each URL must have for its type. */
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
