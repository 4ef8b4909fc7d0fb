import { CounterStoreError, Unit, unitSeconds, type CounterIncrement, type CounterStore } from '../../engine/index.js';
import { openRedisClient, type ConnectionEvents, type RedisClient } from './redis-connection.js';
import type { RedisConnectionOptions, RedisStoreOptions } from './redis-options.js';
import { IncrementBatcher } from './increment-batcher.js';
import { callByNode } from './cluster-fanout.js';
import { clusterSlot } from './cluster-slot.js';
import type { Cluster } from 'ioredis';
import { ALGORITHM_SCRIPT, algorithmScriptArguments } from './algorithm-script.js';

/**
 * INCRBY then EXPIRE for every key (the TTL is refreshed on every request, as upstream's
 * Redis pipeline does), answering the new values in order. One script call carries all
 * keys of a request (of every request of an event-loop turn, see IncrementBatcher): one command
 * and one round trip, and a fraction of the client work of two commands per key
 * (`npm run bench:redis` measures the alternatives). ARGV holds hits and TTL per key:
 * ARGV[2i-1], ARGV[2i]. A key that appears twice is incremented twice, in order.
 */
export const INCREMENT_SCRIPT = `
local values = {}
for i = 1, #KEYS do
  values[i] = redis.call('INCRBY', KEYS[i], ARGV[2 * i - 1])
  redis.call('EXPIRE', KEYS[i], ARGV[2 * i])
end
return values`;

interface ScriptClient {
  rlIncrement(numberOfKeys: number, ...keysAndArgs: Array<string | number>): Promise<number[]>;
  /** The same script for one key, the key first (cluster only, see the Deployment). */
  rlIncrementOne(key: string, hits: number, ttl: number): Promise<number[]>;
  /** Sliding windows and token buckets (algorithm-script.ts). */
  rlAlgorithm(numberOfKeys: number, ...keysAndArgs: Array<string | number>): Promise<number[]>;
  /** The same script for one count, its two keys first (cluster only). */
  rlAlgorithmOne(key: string, previousKey: string, ...args: Array<string | number>): Promise<number[]>;
}

/** One deployment's connections, taken in turn, and the batch of increments waiting for one. */
class Deployment {
  private readonly clients: RedisClient[] = [];
  private next = 0;
  readonly isCluster: boolean;
  readonly batcher: IncrementBatcher;
  /** Why the last connection attempt failed, so a request refused meanwhile can say (WRONGPASS, ECONNREFUSED). */
  private lastError: string | undefined;

  constructor(
    readonly options: RedisConnectionOptions,
    events: ConnectionEvents,
  ) {
    this.isCluster = options.type === 'cluster';
    for (let i = 0; i < options.connections; i++) {
      const client = openRedisClient(options, {
        onReadyChange: (delta) => {
          if (delta > 0) this.lastError = undefined;
          events.onReadyChange(delta);
        },
        onError: (error) => {
          this.lastError = error.message;
          events.onError(error);
        },
      });
      client.defineCommand('rlIncrement', { lua: INCREMENT_SCRIPT });
      client.defineCommand('rlAlgorithm', { lua: ALGORITHM_SCRIPT });
      // ioredis's cluster auto-pipelining files a call under the slot of its first argument; with
      // the key count first that is the slot of "1" for every call, so calls for keys on two nodes
      // shared a batch and failed ("All keys in the pipeline should belong to the same slots
      // allocation group"). A fixed count puts the key first.
      if (this.isCluster) {
        client.defineCommand('rlIncrementOne', { lua: INCREMENT_SCRIPT, numberOfKeys: 1 });
        client.defineCommand('rlAlgorithmOne', { lua: ALGORITHM_SCRIPT, numberOfKeys: 2 });
      }
      this.clients.push(client);
    }
    this.batcher = new IncrementBatcher(
      (keys, args) => (this.pick() as unknown as ScriptClient).rlIncrement(keys.length, ...keys, ...args),
      options.pipelineWindowMs,
      options.pipelineLimit,
    );
  }

  /**
   * The next connection that is up. With KVSTORE_POOL_ON_EMPTY_BEHAVIOR=WAIT,
   * 'wait'/'connecting'/'connect' right after startup still queue (bounded by the command
   * timeout); with ERROR only a ready connection takes a request. With every connection lost the
   * request fails at once instead of piling up.
   */
  pick(): RedisClient {
    const count = this.clients.length;
    const usable = this.options.poolOnEmptyBehavior === 'ERROR' ? isReady : isNotLost;
    for (let tries = 0; tries < count; tries++) {
      const client = this.clients[this.next] as RedisClient;
      this.next = (this.next + 1) % count;
      if (usable(client)) return client;
    }
    const cause = this.lastError === undefined ? '' : `; last error: ${this.lastError}`;
    throw new CounterStoreError(`key-value store ${this.options.url} is not connected (reconnecting${cause})`);
  }

  /** A request's per-key cluster calls, one node's together, KVSTORE_CLUSTER_PIPELINE_PARALLELISM nodes at once. */
  byNode<T>(client: RedisClient, group: readonly CounterIncrement[], call: (index: number) => Promise<T>): Promise<T[]> {
    const slots = (client as Cluster).slots;
    const nodeOf = (key: string) => slots[clusterSlot(key)]?.[0] ?? '';
    return callByNode(
      group.map((inc) => inc.key),
      nodeOf,
      this.options.clusterPipelineParallelism,
      call,
    );
  }

  async close(): Promise<void> {
    this.batcher.flush();
    // quit() ends the command connection but not, in sentinel mode, the failover detector's
    // subscriptions (one connection per sentinel, reconnecting forever once the sentinels go,
    // which kept the process alive); disconnect() also closes those.
    await Promise.all(this.clients.map((client) => client.quit().catch(() => undefined).then(() => client.disconnect())));
  }
}

/**
 * Counters in Redis (single, sentinel or cluster), keys and TTLs exactly as upstream
 * (src/limiter/cache_key.go, unit plus jitter) so `redis-cli` shows the same thing. SECOND counters
 * go to the per-second deployment when there is one. Every thread opens its own connections.
 */
export class RedisCounterStore implements CounterStore {
  private readonly main: Deployment;
  private readonly perSecond: Deployment | undefined;

  constructor(
    private readonly options: RedisStoreOptions,
    events: ConnectionEvents,
    /** [0, 1); injected so tests can pin the jitter. */
    private readonly random: () => number = Math.random,
  ) {
    this.main = new Deployment(options.main, events);
    this.perSecond = options.perSecond === undefined ? undefined : new Deployment(options.perSecond, events);
  }

  increment(increments: readonly CounterIncrement[]): Promise<number[]> {
    return this.run(increments, (deployment, group) => (hasAlgorithm(group) ? this.mixedOn(deployment, group, false) : this.incrementOn(deployment, group)));
  }

  read(increments: readonly CounterIncrement[]): Promise<number[]> {
    return this.run(increments, (deployment, group) => (hasAlgorithm(group) ? this.mixedOn(deployment, group, true) : this.readOn(deployment, group)));
  }

  /** A group with sliding windows or token buckets: those by their script, the others as always, at the same time. */
  private async mixedOn(deployment: Deployment, group: readonly CounterIncrement[], read: boolean): Promise<number[]> {
    const fixed: number[] = [];
    const counted: number[] = [];
    group.forEach((inc, i) => (inc.algorithm === undefined ? fixed : counted).push(i));
    const pick = (indices: number[]) => indices.map((i) => group[i] as CounterIncrement);
    const client = deployment.pick();
    const script = client as unknown as ScriptClient;
    const ttl = (inc: CounterIncrement) => this.ttlOf(inc.unit);
    const countAll = (incs: readonly CounterIncrement[]) => {
      const { keys, args } = algorithmScriptArguments(incs, read, ttl);
      return script.rlAlgorithm(keys.length, ...keys, ...args);
    };
    // A script may touch one cluster slot only: there each count is its own call, its keys first
    // (see rlIncrementOne), those to one node in one write.
    const countOne = (inc: CounterIncrement) => {
      const { keys, args } = algorithmScriptArguments([inc], read, ttl);
      return script.rlAlgorithmOne(keys[0] as string, keys[1] as string, ...args).then((values) => values[0] as number);
    };
    const algorithmCounts = pick(counted);
    const [fixedValues, countedValues] = await Promise.all([
      fixed.length === 0 ? [] : read ? this.readOn(deployment, pick(fixed)) : this.incrementOn(deployment, pick(fixed)),
      deployment.isCluster ? deployment.byNode(client, algorithmCounts, (i) => countOne(algorithmCounts[i] as CounterIncrement)) : countAll(algorithmCounts),
    ]);
    const values: number[] = new Array(group.length);
    fixed.forEach((at, j) => (values[at] = fixedValues[j] as number));
    counted.forEach((at, j) => (values[at] = countedValues[j] as number));
    return values;
  }

  /**
   * DEL of every key a counter uses (a sliding window's previous window too), one command per key
   * so a cluster routes each to its node.
   */
  async reset(increments: readonly CounterIncrement[]): Promise<void> {
    await this.run(increments, (deployment, group) => {
      const client = deployment.pick();
      const keys = group.flatMap((inc) => (inc.algorithm?.previousKey ? [inc.key, inc.algorithm.previousKey] : [inc.key]));
      return Promise.all(keys.map((key) => client.del(key))).then(() => group.map(() => 0));
    });
  }

  async close(): Promise<void> {
    await Promise.all([this.main.close(), this.perSecond?.close()]);
  }

  /** TTL of a key, as upstream: its unit plus [0, jitter) seconds. */
  ttlOf(unit: Unit): number {
    const jitter = this.options.expirationJitterMaxSeconds;
    return unitSeconds(unit) + (jitter > 0 ? Math.floor(this.random() * jitter) : 0);
  }

  /** Splits the request by deployment (per-second or main), runs each part, puts the answers back in order. */
  private run(
    increments: readonly CounterIncrement[],
    send: (deployment: Deployment, group: readonly CounterIncrement[]) => Promise<number[]>,
  ): Promise<number[]> {
    const perSecond = this.perSecond;
    // The common case adds no async layer of its own: one promise per request, the batch's share.
    if (perSecond === undefined || !increments.some((inc) => inc.unit === Unit.SECOND)) return guard(() => send(this.main, increments));
    return this.runSplit(perSecond, increments, send);
  }

  private async runSplit(
    perSecond: Deployment,
    increments: readonly CounterIncrement[],
    send: (deployment: Deployment, group: readonly CounterIncrement[]) => Promise<number[]>,
  ): Promise<number[]> {
    const seconds: number[] = [];
    const others: number[] = [];
    increments.forEach((inc, i) => (inc.unit === Unit.SECOND ? seconds : others).push(i));
    const pick = (indices: number[]) => indices.map((i) => increments[i] as CounterIncrement);
    const [secondValues, otherValues] = await Promise.all([
      guard(() => send(perSecond, pick(seconds))),
      others.length === 0 ? Promise.resolve([]) : guard(() => send(this.main, pick(others))),
    ]);
    const values: number[] = new Array(increments.length);
    seconds.forEach((at, j) => (values[at] = secondValues[j] as number));
    others.forEach((at, j) => (values[at] = otherValues[j] as number));
    return values;
  }

  private incrementOn(deployment: Deployment, group: readonly CounterIncrement[]): Promise<number[]> {
    const hitsAndTtls: number[] = [];
    for (const inc of group) hitsAndTtls.push(inc.hits, this.ttlOf(inc.unit));
    // A cluster spreads keys over slots and a script may touch only one, so there each key is
    // its own call (auto-pipelined: the calls to one node go in one write).
    if (deployment.isCluster) {
      const client = deployment.pick();
      const script = client as unknown as ScriptClient;
      return deployment.byNode(client, group, (i) =>
        script.rlIncrementOne((group[i] as CounterIncrement).key, hitsAndTtls[2 * i] as number, hitsAndTtls[2 * i + 1] as number).then((values) => values[0] as number),
      );
    }
    return deployment.batcher.add(group.map((inc) => inc.key), hitsAndTtls);
  }

  private readOn(deployment: Deployment, group: readonly CounterIncrement[]): Promise<number[]> {
    const client = deployment.pick();
    const keys = group.map((inc) => inc.key);
    const parse = (value: string | null) => (value === null ? 0 : Number.parseInt(value, 10) || 0);
    if (deployment.isCluster) return deployment.byNode(client, group, (i) => client.get(keys[i] as string).then(parse));
    return client.mget(...keys).then((values) => values.map(parse));
  }
}

const isReady = (client: RedisClient) => client.status === 'ready';
const isNotLost = (client: RedisClient) => client.status !== 'reconnecting' && client.status !== 'close' && client.status !== 'end';
function hasAlgorithm(group: readonly CounterIncrement[]): boolean {
  for (const inc of group) if (inc.algorithm !== undefined) return true;
  return false;
}

/** Runs `call`; every failure, thrown or rejected, becomes a CounterStoreError saying what the store said. */
function guard(call: () => Promise<number[]>): Promise<number[]> {
  try {
    return call().catch((error: unknown) => Promise.reject(storeError(error)));
  } catch (error) {
    return Promise.reject(storeError(error));
  }
}

function storeError(error: unknown): CounterStoreError {
  if (error instanceof CounterStoreError) return error;
  // ioredis words a connection lost under a command as a retry limit (we allow no retries).
  if (error instanceof Error && error.name === 'MaxRetriesPerRequestError') {
    return new CounterStoreError('key-value store: the connection was lost while the command was in flight');
  }
  return new CounterStoreError(`key-value store: ${error instanceof Error ? error.message : String(error)}`);
}
