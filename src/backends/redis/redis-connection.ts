import type { Duplex } from 'node:stream';
import { Cluster, Redis, type ClusterOptions, type RedisOptions } from 'ioredis';
import standaloneConnectorModule from 'ioredis/built/connectors/StandaloneConnector.js';
import './string-prototype-repair.js';
import { storeTlsOptions } from '../store-tls.js';
import type { RedisConnectionOptions } from './redis-options.js';

/** Either client shape; both take the same commands. */
export type RedisClient = Redis | Cluster;

/** What a connection reports, so the store can keep health and logs current. */
export interface ConnectionEvents {
  /** A connection became usable (+1) or stopped being usable (-1). */
  onReadyChange(delta: 1 | -1): void;
  onError(error: Error): void;
}

function hostPort(item: string): { host: string; port: number } {
  const at = item.lastIndexOf(':');
  return { host: item.slice(0, at).replace(/^\[|\]$/g, ''), port: Number(item.slice(at + 1)) };
}

/**
 * ioredis listens for a socket's first 'error' only (`stream.once`). A TLS socket can emit a
 * second one (a handshake failure followed by the peer's alert), which then had no listener and
 * crashed the process. Every socket it opens gets a listener of ours for the rest of its life;
 * ioredis still handles (and reports) the first error and the close.
 */
function keepErrorsHandled(stream: Duplex): Duplex {
  stream.on('error', () => {});
  return stream;
}

type ConnectFn = (emitter: unknown) => Promise<Duplex>;

/** Wraps a client's connector so each socket it opens goes through keepErrorsHandled. */
function guardConnector(client: Redis): void {
  const connector = (client as unknown as { connector: { connect: ConnectFn } }).connector;
  const connect = connector.connect.bind(connector);
  connector.connect = (emitter) => connect(emitter).then(keepErrorsHandled);
}

/**
 * ioredis's own connector for plain (and cluster node) connections, extended the same way. A
 * static import, so that a bundle holds one copy of ioredis (the file is CommonJS: its default
 * export is the module's `exports`).
 */
const { default: StandaloneConnector } = standaloneConnectorModule as unknown as {
  default: new (options: unknown) => { connect(emitter: unknown): Promise<Duplex> };
};
class GuardedStandaloneConnector extends StandaloneConnector {
  override connect(emitter: unknown): Promise<Duplex> {
    return super.connect(emitter).then(keepErrorsHandled);
  }
}

/** `password` or `user:password` (split at the first colon, as upstream). */
function credentials(auth: string): Pick<RedisOptions, 'username' | 'password'> {
  if (auth === '') return {};
  const colon = auth.indexOf(':');
  return colon < 0 ? { password: auth } : { username: auth.slice(0, colon), password: auth.slice(colon + 1) };
}

function tlsOptions(options: RedisConnectionOptions): RedisOptions['tls'] {
  return options.tls === undefined ? undefined : storeTlsOptions(options.tls);
}

/**
 * Options shared by every connection. Fail fast rather than queue: a command in flight when the
 * connection drops fails at once (maxRetriesPerRequest 0), a command with no answer within the
 * timeout fails, and reconnection starts at 50 ms and doubles up to reconnectMaxDelayMs, forever,
 * so a store that comes back is used again within about that long. Before the first connection
 * the pace is startupInitialIntervalMs doubling to startupMaxIntervalMs instead. No auto-pipelining: a
 * request is one script call already, and `npm run bench:redis` measured ioredis's per-turn
 * batching costing 20-40% more client CPU per decision than writing each call at once.
 */
function backoff(options: RedisConnectionOptions, connected: () => boolean): (times: number) => number {
  return (times) => {
    const doubled = (from: number) => from * 2 ** Math.min(times - 1, 20);
    // Until a first connection, at the pace of KVSTORE_STARTUP_INITIAL_INTERVAL and _MAX_INTERVAL.
    if (!connected()) return Math.min(doubled(options.startupInitialIntervalMs), options.startupMaxIntervalMs);
    return Math.min(doubled(50), options.reconnectMaxDelayMs);
  };
}

function baseOptions(options: RedisConnectionOptions, connected: () => boolean): RedisOptions {
  const retryStrategy = backoff(options, connected);
  return {
    ...credentials(options.auth),
    tls: tlsOptions(options),
    commandTimeout: options.timeoutMs,
    connectTimeout: Math.max(options.timeoutMs, 2000),
    maxRetriesPerRequest: 0,
    enableAutoPipelining: false,
    retryStrategy,
    // A master demoted by a failover answers writes with READONLY: reconnect, and ask the sentinels again.
    reconnectOnError: (error: Error) => (error.message.startsWith('READONLY') ? 2 : false),
    // Connected by openRedisClient once its connector is guarded.
    lazyConnect: true,
  };
}

/** One client (a connection, or a cluster's set of node connections) wired to `events`. */
export function openRedisClient(options: RedisConnectionOptions, events: ConnectionEvents): RedisClient {
  let everReady = false;
  const connected = () => everReady;
  const base = baseOptions(options, connected);
  const items = options.url.split(',').map((item) => item.trim());
  let client: RedisClient;
  switch (options.type) {
    case 'single':
      client = new Redis(options.socketType === 'unix' ? { ...base, path: options.url } : { ...base, ...hostPort(options.url) });
      break;
    case 'sentinel': {
      const sentinelOptions: RedisOptions = {
        ...base,
        name: items[0] as string,
        sentinels: items.slice(1).map(hostPort),
        ...(options.sentinelAuth === '' ? {} : { sentinelPassword: options.sentinelAuth }),
        enableTLSForSentinelMode: options.tls !== undefined,
        sentinelRetryStrategy: backoff(options, connected),
        failoverDetector: true,
      };
      client = new Redis(sentinelOptions);
      break;
    }
    case 'cluster': {
      const clusterOptions: ClusterOptions = {
        redisOptions: { ...base, lazyConnect: false, Connector: GuardedStandaloneConnector as unknown as RedisOptions['Connector'] },
        // A cluster request is one call per key (see the store); batching them per node pays here.
        enableAutoPipelining: true,
        maxRedirections: 4,
        clusterRetryStrategy: backoff(options, connected),
        slotsRefreshTimeout: Math.max(options.timeoutMs, 1000),
      };
      client = new Cluster(items.map(hostPort), clusterOptions);
      break;
    }
  }
  if (client instanceof Redis) {
    guardConnector(client);
    // Failures are reported through the 'error' event below and retried by ioredis.
    client.connect().catch(() => {});
  }
  let ready = false;
  client.on('ready', () => {
    if (!ready) events.onReadyChange(1);
    ready = true;
    everReady = true;
  });
  const lost = () => {
    if (ready) events.onReadyChange(-1);
    ready = false;
  };
  client.on('close', lost);
  client.on('end', lost);
  client.on('error', (error: Error) => events.onError(error));
  return client;
}
