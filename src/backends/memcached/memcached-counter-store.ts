import { crc32 } from 'node:zlib';
import memjs from 'memjs';
import { CounterKeyError, CounterStoreError, unitSeconds, type CounterIncrement, type CounterStore } from '../../engine/index.js';
import type { Counter, StatsStore } from '../../observability/stats.js';
import { memcachedKeyProblem } from './cache-key-check.js';
import type { MemcachedStoreOptions } from './memcached-options.js';
import { SrvServerList } from './srv-server-list.js';

/**
 * gomemcache's server choice: CRC-32 (IEEE) of the key modulo the number of servers, in list
 * order. memjs's default is a Java-style string hash; using upstream's means a key lives on the
 * same node whichever service counts it.
 */
function pickServer(serverCount: number, key: string): number {
  return crc32(key) % serverCount;
}

/** memcached's longest relative expiration (30 days); larger values are Unix times. */
const MAX_RELATIVE_EXPIRATION_SECONDS = 30 * 24 * 3600;

interface MemcacheStats {
  multigetSuccess: Counter;
  multigetError: Counter;
  incrementSuccess: Counter;
  incrementError: Counter;
  keysRequested: Counter;
  keysFound: Counter;
}

/** The parts of memjs 1.3's Server that its own request timeout uses (not in its typings). */
interface MemjsServerInternals {
  /** Deadlines of the requests in flight, oldest first (memjs's monotonic ms; shifted as answers arrive). */
  requestTimeouts: number[];
  /** Fails every request in flight with `error` and destroys the socket (what a socket error does). */
  error(error: Error): void;
}

/** memjs's clock (utils.timestamp): monotonic milliseconds. */
function memjsNow(): number {
  const [seconds, nanos] = process.hrtime();
  return seconds * 1000 + Math.round(nanos / 1e6);
}

/**
 * memjs checks its request deadlines from the socket's idle timeout, which every write resets:
 * under steady traffic to a memcached that accepts but never answers (stopped, overloaded, or
 * gone without a reset), no request timed out and the connection was never replaced until the
 * traffic paused. This sweep checks the same deadlines on a timer and drops a connection with
 * an overdue request as a socket error would (its requests fail, the next one reconnects).
 * Each request also has its own deadline (withDeadline): the sweep only sees requests memjs
 * has written.
 */
function failOverdueRequests(clients: readonly memjs.Client[]): void {
  const now = memjsNow();
  for (const client of clients) {
    for (const server of client.servers as unknown as MemjsServerInternals[]) {
      const oldest = server.requestTimeouts[0];
      if (oldest !== undefined && oldest <= now) server.error(new Error('socket timed out waiting on response.'));
    }
  }
}

/**
 * `work`, or a rejection once `ms` have passed. memjs can lose track of a request: its socket
 * 'close' handler clears the server's current socket even when it is already a newer one, and a
 * request waiting for that newer socket to connect is then never written and never timed out.
 */
function withDeadline<T>(work: Promise<T>, ms: number): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
    work.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}

/** A set of memjs clients over the same servers; each is one connection per server. */
class ClientPool {
  private next = 0;
  private readonly sweep: NodeJS.Timeout;

  constructor(
    readonly servers: string[],
    private readonly clients: memjs.Client[],
    timeoutMs: number,
  ) {
    this.sweep = setInterval(() => failOverdueRequests(clients), Math.max(10, Math.floor(timeoutMs / 4)));
    this.sweep.unref();
  }

  static open(servers: string[], count: number, timeoutMs: number): ClientPool {
    const clients: memjs.Client[] = [];
    for (let i = 0; i < count; i++) {
      const client = memjs.Client.create(servers.join(','), {
        timeout: timeoutMs / 1000,
        conntimeout: timeoutMs / 1000,
        retries: 0,
        keepAlive: true,
        // memjs logs every socket error to the console by default; failures reach us as rejections.
        logger: { log: () => {} },
      } as memjs.ClientOptions);
      // memjs 1.3 has no hash option: its documented hook is overriding getServer, which returns
      // the index into the server list (its typings say string; the code indexes with it).
      (client as unknown as { getServer(key: string): number }).getServer = (key) => pickServer(servers.length, key);
      clients.push(client);
    }
    return new ClientPool(servers, clients, timeoutMs);
  }

  take(): memjs.Client {
    const client = this.clients[this.next] as memjs.Client;
    this.next = (this.next + 1) % this.clients.length;
    return client;
  }

  close(): void {
    clearInterval(this.sweep);
    for (const client of this.clients) client.close();
  }
}

/**
 * Counters in memcached (as upstream's memcache backend): every key of the request is read (memjs
 * has no multi-get, so the gets go out together, one per key), the answer is the stored value plus
 * the hits, and the increments follow asynchronously without being waited for. Concurrent requests
 * can both read the same value before either increment lands, so a limit can be passed briefly: by
 * at most the number of requests in flight for that key (README). Keys get their TTL (unit plus
 * jitter) when created; later increments do not refresh it, as upstream.
 */
export class MemcachedCounterStore implements CounterStore {
  private pool: ClientPool | undefined;
  private readonly srv: SrvServerList | undefined;
  private readonly stats: MemcacheStats;

  constructor(
    private readonly options: MemcachedStoreOptions,
    stats: StatsStore,
    private readonly onError: (error: Error) => void,
    private readonly random: () => number = Math.random,
  ) {
    const counter = (name: string) => stats.counter(`ratelimit.memcache.${name}`);
    this.stats = {
      multigetSuccess: counter('multiget.__code=success'),
      multigetError: counter('multiget.__code=error'),
      incrementSuccess: counter('increment.__code=success'),
      incrementError: counter('increment.__code=error'),
      keysRequested: counter('keys_requested'),
      keysFound: counter('keys_found'),
    };
    if (options.srv === '') {
      this.pool = ClientPool.open(options.servers, options.connectionsPerServer, options.timeoutMs);
    } else {
      this.srv = new SrvServerList(options.srv, options.srvResolver, options.srvRefreshMs, (servers) => this.useServers(servers), onError);
    }
  }

  increment(increments: readonly CounterIncrement[]): Promise<number[]> {
    for (let i = 0; i < increments.length; i++) {
      const problem = memcachedKeyProblem((increments[i] as CounterIncrement).key);
      if (problem !== undefined) return Promise.reject(new CounterKeyError(i, problem));
      // A read then a later add cannot hold a sliding window's or a bucket's condition atomically.
      if ((increments[i] as CounterIncrement).algorithm !== undefined) {
        return Promise.reject(new CounterKeyError(i, 'memcached cannot count sliding_window or token_bucket limits atomically; use the embedded store or Redis'));
      }
    }
    const pool = this.pool;
    if (pool === undefined) return Promise.reject(new CounterStoreError(`object cache: no servers found for ${this.options.srv} yet`));
    const client = pool.take();
    return this.readAll(client, increments).then((stored) => {
      const values = increments.map((inc, i) => (stored[i] as number) + inc.hits);
      for (const inc of increments) if (inc.hits > 0) this.incrementLater(client, inc);
      return values;
    });
  }

  async close(): Promise<void> {
    this.srv?.close();
    this.pool?.close();
  }

  /**
   * As upstream: TTL = unit + [0, jitter) seconds, set only when the key is created. memcached
   * reads an expiration above 30 days as an absolute Unix time, so a MONTH (30 days plus jitter)
   * or YEAR TTL sent as is would mean 1970: the key would expire at once and never count. Those
   * are sent as the absolute time they stand for.
   */
  private ttlOf(inc: CounterIncrement): number {
    const jitter = this.options.expirationJitterMaxSeconds;
    const ttl = unitSeconds(inc.unit) + (jitter > 0 ? Math.floor(this.random() * jitter) : 0);
    return ttl > MAX_RELATIVE_EXPIRATION_SECONDS ? Math.floor(Date.now() / 1000) + ttl : ttl;
  }

  private async readAll(client: memjs.Client, increments: readonly CounterIncrement[]): Promise<number[]> {
    this.stats.keysRequested.value += increments.length;
    try {
      const results = await withDeadline(Promise.all(increments.map((inc) => client.get(inc.key))), this.options.timeoutMs);
      this.stats.multigetSuccess.value++;
      return results.map(({ value }) => {
        if (value === null) return 0;
        this.stats.keysFound.value++;
        const n = Number.parseInt(value.toString('latin1'), 10);
        return Number.isFinite(n) && n > 0 ? n : 0;
      });
    } catch (error) {
      this.stats.multigetError.value++;
      throw new CounterStoreError(`object cache: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  /**
   * Increment, creating the key with `hits` and its TTL on a miss (memjs's `initial` is stored
   * as is on a miss, so it must be the hits). memcached can refuse the create when another client
   * created the key at the same moment (memcached#957); the retry then increments it.
   */
  private incrementLater(client: memjs.Client, inc: CounterIncrement): void {
    const attempt = () => client.increment(inc.key, inc.hits, { initial: inc.hits, expires: this.ttlOf(inc) });
    attempt()
      .catch(attempt)
      .then(
        () => this.stats.incrementSuccess.value++,
        (error: unknown) => {
          this.stats.incrementError.value++;
          this.onError(error instanceof Error ? error : new Error(String(error)));
        },
      );
  }

  private useServers(servers: string[]): void {
    const previous = this.pool;
    this.pool = servers.length === 0 ? undefined : ClientPool.open(servers, this.options.connectionsPerServer, this.options.timeoutMs);
    // Requests already on the old clients finish first.
    if (previous !== undefined) setTimeout(() => previous.close(), this.options.timeoutMs * 2).unref();
  }
}
