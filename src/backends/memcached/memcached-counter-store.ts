import type { ConnectionOptions } from 'node:tls';
import { CounterKeyError, CounterStoreError, unitSeconds, type CounterIncrement, type CounterStore } from '../../engine/index.js';
import type { Counter, StatsStore } from '../../observability/stats.js';
import { Status, statusText, type IncrementCommand } from './binary-protocol.js';
import { memcachedKeyProblem } from './cache-key-check.js';
import { MemcachedClient } from './memcached-client.js';
import type { MemcachedStoreOptions } from './memcached-options.js';
import { SrvServerList } from './srv-server-list.js';
import { storeTlsOptions } from '../store-tls.js';


/** memcached's longest relative expiration (30 days); larger values are Unix times. */
const MAX_RELATIVE_EXPIRATION_SECONDS = 30 * 24 * 3600;

/** A key's increments of one turn, added up: `requests` is how many requests' increments it carries (upstream counts each). */
interface QueuedIncrement extends IncrementCommand {
  requests: number;
}

/** A request waiting for the turn's multi-get. */
interface QueuedRead {
  slots: number[];
  resolve(values: number[]): void;
  reject(error: Error): void;
}

interface MemcacheStats {
  multigetSuccess: Counter;
  multigetError: Counter;
  incrementSuccess: Counter;
  incrementError: Counter;
  keysRequested: Counter;
  keysFound: Counter;
}

/**
 * Counters in memcached (as upstream's memcache backend): every key of the request is read with
 * one multi-get per node, the answer is the stored value plus the hits, and the increments
 * follow asynchronously without being waited for (one pipelined exchange per node). Concurrent
 * requests can both read the same value before either increment lands, so a limit can be passed
 * briefly: by at most the number of requests in flight for that key (README). Keys get their TTL
 * (unit plus jitter) when created; later increments do not refresh it, as upstream.
 */
export class MemcachedCounterStore implements CounterStore {
  private client: MemcachedClient | undefined;
  private readonly srv: SrvServerList | undefined;
  private readonly stats: MemcacheStats;
  private readonly tls: ConnectionOptions | undefined;
  /** Keys this turn's requests read, each with its place in the turn's multi-get (see readAll). */
  private readonly queuedReads = new Map<string, number>();
  /** This turn's requests waiting for their counters: where each of their keys is in the multi-get. */
  private readers: QueuedRead[] = [];
  /** Increments of this turn's requests by key, not yet handed to the client (see incrementSoon). */
  private readonly queuedIncrements = new Map<string, QueuedIncrement>();

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
    this.tls = options.tls === undefined ? undefined : storeTlsOptions(options.tls);
    if (options.srv === '') {
      this.client = this.openClient(options.servers);
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
    const client = this.client;
    if (client === undefined) return Promise.reject(new CounterStoreError(`object cache: no servers found for ${this.options.srv} yet`));
    return this.readAll(client, increments).then((stored) => {
      const values = new Array<number>(increments.length);
      for (let i = 0; i < increments.length; i++) {
        const inc = increments[i] as CounterIncrement;
        values[i] = (stored[i] as number) + inc.hits;
        if (inc.hits > 0) this.incrementSoon(client, inc);
      }
      return values;
    });
  }

  /** memcached `delete` of each key: a missing key is already reset. Fixed windows only (as increment). */
  async reset(increments: readonly CounterIncrement[]): Promise<void> {
    const client = this.client;
    if (client === undefined) throw new CounterStoreError(`object cache: no servers found for ${this.options.srv} yet`);
    try {
      // The client's own timeout (OBJCACHE_TIMEOUT) bounds each delete.
      await Promise.all(increments.map((inc) => client.delete(inc.key)));
    } catch (error) {
      throw new CounterStoreError(`object cache: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  async close(): Promise<void> {
    this.srv?.close();
    this.client?.close();
  }

  /**
   * As upstream: TTL = unit + [0, jitter) seconds, set only when the key is created. memcached
   * reads an expiration above 30 days as an absolute Unix time, so a MONTH (30 days plus jitter)
   * or YEAR TTL sent as is would mean 1970: the key would expire at once and never count. Those
   * are sent as the absolute time they stand for.
   */
  private expirationOf(inc: CounterIncrement): number {
    const jitter = this.options.expirationJitterMaxSeconds;
    const ttl = unitSeconds(inc.unit) + (jitter > 0 ? Math.floor(this.random() * jitter) : 0);
    return ttl > MAX_RELATIVE_EXPIRATION_SECONDS ? Math.floor(Date.now() / 1000) + ttl : ttl;
  }

  /**
   * A request's counters, read with the other requests of its event-loop turn: when the turn
   * ends, one multi-get for every distinct key they need (requests for one key in one turn would
   * read the same value anyway, as the increments follow later), then each request gets its own.
   */
  private readAll(client: MemcachedClient, increments: readonly CounterIncrement[]): Promise<number[]> {
    this.stats.keysRequested.value += increments.length;
    if (this.readers.length === 0) setImmediate(() => this.readQueued(client));
    return new Promise((resolve, reject) => {
      const slots = new Array<number>(increments.length);
      for (let i = 0; i < increments.length; i++) {
        const key = (increments[i] as CounterIncrement).key;
        let slot = this.queuedReads.get(key);
        if (slot === undefined) this.queuedReads.set(key, (slot = this.queuedReads.size));
        slots[i] = slot;
      }
      this.readers.push({ slots, resolve, reject });
    });
  }

  private readQueued(client: MemcachedClient): void {
    const keys = [...this.queuedReads.keys()];
    const readers = this.readers;
    this.queuedReads.clear();
    this.readers = [];
    client.getMulti(keys).then(
      (found) => {
        // Counted per request, as upstream counts each request's multi-get and keys.
        this.stats.multigetSuccess.value += readers.length;
        for (const reader of readers) {
          const values = new Array<number>(reader.slots.length);
          for (let i = 0; i < values.length; i++) {
            const value = found[reader.slots[i] as number];
            if (value !== undefined) this.stats.keysFound.value++;
            values[i] = value ?? 0;
          }
          reader.resolve(values);
        }
      },
      (error: unknown) => {
        this.stats.multigetError.value += readers.length;
        const failure = new CounterStoreError(`object cache: ${error instanceof Error ? error.message : String(error)}`);
        for (const reader of readers) reader.reject(failure);
      },
    );
  }

  /**
   * Queues one increment of a request: those of every request answered in one event-loop turn go
   * out as one exchange when the turn ends, one command per key with the hits added up (one
   * encode and one answer instead of one per request, and memcached counts a busy key once per
   * turn). They were never waited for, so nothing waits longer; a key's TTL is the first
   * request's, as when its commands went one by one.
   */
  private incrementSoon(client: MemcachedClient, inc: CounterIncrement): void {
    if (this.queuedIncrements.size === 0) {
      setImmediate(() => {
        const batch = [...this.queuedIncrements.values()];
        this.queuedIncrements.clear();
        this.incrementLater(client, batch, true);
      });
    }
    const queued = this.queuedIncrements.get(inc.key);
    if (queued === undefined) {
      this.queuedIncrements.set(inc.key, { key: inc.key, delta: inc.hits, expiration: this.expirationOf(inc), requests: 1 });
    } else {
      queued.delta += inc.hits;
      queued.requests++;
    }
  }

  /**
   * Increment, creating the key with `hits` and its TTL on a miss, all in one command.
   * memcached can refuse the create when another client created the key at the same moment
   * (memcached#957); those are sent once more, and then find the key.
   */
  private incrementLater(client: MemcachedClient, commands: QueuedIncrement[], retryRaces: boolean): void {
    client.increment(commands).then(
      (statuses) => {
        const raced: QueuedIncrement[] = [];
        statuses.forEach((status, i) => {
          const command = commands[i] as QueuedIncrement;
          if (status === Status.Ok) this.stats.incrementSuccess.value += command.requests;
          else if (status === Status.NotStored && retryRaces) raced.push(command);
          else this.incrementFailed(command, new Error(`increment ${command.key}: ${statusText(status)}`));
        });
        if (raced.length > 0) this.incrementLater(client, raced, false);
      },
      (error: unknown) => {
        for (const command of commands) this.incrementFailed(command, error instanceof Error ? error : new Error(String(error)));
      },
    );
  }

  private incrementFailed(command: QueuedIncrement, error: Error): void {
    this.stats.incrementError.value += command.requests;
    this.onError(error);
  }

  private openClient(servers: string[]): MemcachedClient {
    const { connectionsPerServer, timeoutMs } = this.options;
    return new MemcachedClient({ servers, connectionsPerServer, timeoutMs, tls: this.tls });
  }

  private useServers(servers: string[]): void {
    const previous = this.client;
    this.client = servers.length === 0 ? undefined : this.openClient(servers);
    // Requests already on the old connections finish first.
    if (previous !== undefined) setTimeout(() => previous.close(), this.options.timeoutMs * 2).unref();
  }
}
