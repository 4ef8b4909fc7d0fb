import { crc32 } from 'node:zlib';
import memjs from 'memjs';
import { CounterKeyError, CounterStoreError, type CounterIncrement, type CounterStore } from '../counter-store.js';
import { unitSeconds } from '../../engine/units.js';
import type { Counter, StatsStore } from '../../observability/stats.js';
import { memcachedKeyProblem } from './cache-key-check.js';
import type { MemcachedStoreOptions } from './memcached-options.js';
import { SrvServerList } from './srv-server-list.js';

/**
 * gomemcache's server choice: CRC-32 (IEEE) of the key modulo the number of servers, in list
 * order. memjs's default is a Java-style string hash; using upstream's means a key lives on the
 * same node whichever service counts it.
 */
function pickServer(servers: string[], key: string): string {
  return servers[crc32(key) % servers.length] as string;
}

interface MemcacheStats {
  multigetSuccess: Counter;
  multigetError: Counter;
  incrementSuccess: Counter;
  incrementError: Counter;
  keysRequested: Counter;
  keysFound: Counter;
}

/** A set of memjs clients over the same servers; each is one connection per server. */
class ClientPool {
  private next = 0;

  constructor(
    readonly servers: string[],
    private readonly clients: memjs.Client[],
  ) {}

  static open(servers: string[], count: number, timeoutMs: number): ClientPool {
    const clients: memjs.Client[] = [];
    for (let i = 0; i < count; i++) {
      clients.push(
        memjs.Client.create(servers.join(','), {
          timeout: timeoutMs / 1000,
          conntimeout: timeoutMs / 1000,
          retries: 0,
          keepAlive: true,
          keyToServerHashFunction: pickServer,
          // memjs logs every socket error to the console by default; failures reach us as rejections.
          logger: { log: () => {} },
        } as memjs.ClientOptions),
      );
    }
    return new ClientPool(servers, clients);
  }

  take(): memjs.Client {
    const client = this.clients[this.next] as memjs.Client;
    this.next = (this.next + 1) % this.clients.length;
    return client;
  }

  close(): void {
    for (const client of this.clients) client.close();
  }
}

/**
 * Counters in memcached (ref §2.12): every key of the request is read (memjs has no multi-get,
 * so the gets go out together, one per key), the answer is the stored value plus the hits, and
 * the increments follow asynchronously without being waited for. Concurrent requests can both
 * read the same value before either increment lands, so a limit can be passed briefly: by at
 * most the number of requests in flight for that key (README). Keys get their TTL (unit plus
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

  /** Only once the SRV lookup (if any) has found servers. */
  async ready(): Promise<void> {
    await this.srv?.firstLookup;
  }

  async close(): Promise<void> {
    this.srv?.close();
    this.pool?.close();
  }

  /** ref §2.6: TTL = unit + [0, jitter) seconds, set only when the key is created. */
  private ttlOf(inc: CounterIncrement): number {
    const jitter = this.options.expirationJitterMaxSeconds;
    return unitSeconds(inc.unit) + (jitter > 0 ? Math.floor(this.random() * jitter) : 0);
  }

  private async readAll(client: memjs.Client, increments: readonly CounterIncrement[]): Promise<number[]> {
    this.stats.keysRequested.value += increments.length;
    try {
      const results = await Promise.all(increments.map((inc) => client.get(inc.key)));
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
