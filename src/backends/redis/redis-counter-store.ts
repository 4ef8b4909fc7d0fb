import { CounterStoreError, type CounterIncrement, type CounterStore } from '../counter-store.js';
import { Unit, unitSeconds } from '../../engine/units.js';
import { openRedisClient, type ConnectionEvents, type RedisClient } from './redis-connection.js';
import type { RedisConnectionOptions, RedisStoreOptions } from './redis-options.js';
import { WindowedSender } from './windowed-sender.js';

/**
 * INCRBY then EXPIRE for every key (ref §2.10: the TTL is refreshed on every request, as
 * upstream's pipeline does), answering the new values in order. One script call carries all
 * keys of a request: one command and one round trip, and half the client work of sending the
 * two commands per key (bench/redis-strategies.ts measures the alternatives).
 * ARGV holds hits and TTL per key: ARGV[2i-1], ARGV[2i].
 */
const INCREMENT_SCRIPT = `
local values = {}
for i = 1, #KEYS do
  values[i] = redis.call('INCRBY', KEYS[i], ARGV[2 * i - 1])
  redis.call('EXPIRE', KEYS[i], ARGV[2 * i])
end
return values`;

interface ScriptClient {
  rlIncrement(numberOfKeys: number, ...keysAndArgs: Array<string | number>): Promise<number[]>;
}

/** One deployment's connections, taken in turn, each with its send window. */
class Deployment {
  private readonly clients: RedisClient[] = [];
  private readonly senders: WindowedSender[] = [];
  private next = 0;
  readonly isCluster: boolean;

  constructor(
    readonly options: RedisConnectionOptions,
    events: ConnectionEvents,
  ) {
    this.isCluster = options.type === 'cluster';
    for (let i = 0; i < options.connections; i++) {
      const client = openRedisClient(options, events);
      client.defineCommand('rlIncrement', { lua: INCREMENT_SCRIPT });
      this.clients.push(client);
      this.senders.push(new WindowedSender(options.pipelineWindowMs, options.pipelineLimit));
    }
  }

  /** The next connection that is up, or undefined when none is (the request then fails at once). */
  pick(): { client: RedisClient; sender: WindowedSender } | undefined {
    const count = this.clients.length;
    for (let tries = 0; tries < count; tries++) {
      const i = this.next;
      this.next = (i + 1) % count;
      const client = this.clients[i] as RedisClient;
      // 'wait'/'connecting'/'connect' right after startup still queue (bounded by the command
      // timeout); a connection that was lost fails fast instead of piling requests up.
      if (client.status !== 'reconnecting' && client.status !== 'close' && client.status !== 'end') {
        return { client, sender: this.senders[i] as WindowedSender };
      }
    }
    return undefined;
  }

  async close(): Promise<void> {
    for (const sender of this.senders) sender.close();
    await Promise.all(this.clients.map((client) => client.quit().catch(() => client.disconnect())));
  }
}

/**
 * Counters in Redis (single, sentinel or cluster), keys and TTLs exactly as upstream (ref §2.5,
 * §2.6) so `redis-cli` shows the same thing. SECOND counters go to the per-second deployment
 * when there is one. Every thread opens its own connections.
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
    return this.run(increments, (deployment, group) => this.incrementOn(deployment, group));
  }

  read(increments: readonly CounterIncrement[]): Promise<number[]> {
    return this.run(increments, (deployment, group) => this.readOn(deployment, group));
  }

  async close(): Promise<void> {
    await Promise.all([this.main.close(), this.perSecond?.close()]);
  }

  /** TTL of a key (ref §2.6): its unit plus [0, jitter) seconds. */
  ttlOf(unit: Unit): number {
    const jitter = this.options.expirationJitterMaxSeconds;
    return unitSeconds(unit) + (jitter > 0 ? Math.floor(this.random() * jitter) : 0);
  }

  /** Splits the request by deployment (per-second or main), runs each part, puts the answers back in order. */
  private async run(
    increments: readonly CounterIncrement[],
    send: (deployment: Deployment, group: readonly CounterIncrement[]) => Promise<number[]>,
  ): Promise<number[]> {
    const perSecond = this.perSecond;
    if (perSecond === undefined || !increments.some((inc) => inc.unit === Unit.SECOND)) {
      return this.guard(send(this.main, increments));
    }
    const seconds: number[] = [];
    const others: number[] = [];
    increments.forEach((inc, i) => (inc.unit === Unit.SECOND ? seconds : others).push(i));
    const pick = (indices: number[]) => indices.map((i) => increments[i] as CounterIncrement);
    const [secondValues, otherValues] = await Promise.all([
      this.guard(send(perSecond, pick(seconds))),
      others.length === 0 ? Promise.resolve([]) : this.guard(send(this.main, pick(others))),
    ]);
    const values: number[] = new Array(increments.length);
    seconds.forEach((at, j) => (values[at] = secondValues[j] as number));
    others.forEach((at, j) => (values[at] = otherValues[j] as number));
    return values;
  }

  private incrementOn(deployment: Deployment, group: readonly CounterIncrement[]): Promise<number[]> {
    const connection = this.connectionOf(deployment);
    const call = (keys: readonly CounterIncrement[]) => {
      const args: Array<string | number> = [];
      for (const inc of keys) args.push(inc.key);
      for (const inc of keys) args.push(inc.hits, this.ttlOf(inc.unit));
      return (connection.client as unknown as ScriptClient).rlIncrement(keys.length, ...args);
    };
    // A cluster spreads a request's keys over slots; a script may only touch one, so each key
    // is its own call (auto-pipelined: the calls to one node go in one write).
    if (deployment.isCluster && group.length > 1) {
      return connection.sender.send(() => Promise.all(group.map((inc) => call([inc]).then((values) => values[0] as number))));
    }
    return connection.sender.send(() => call(group));
  }

  private readOn(deployment: Deployment, group: readonly CounterIncrement[]): Promise<number[]> {
    const connection = this.connectionOf(deployment);
    const keys = group.map((inc) => inc.key);
    const parse = (value: string | null) => (value === null ? 0 : Number.parseInt(value, 10) || 0);
    if (deployment.isCluster && keys.length > 1) {
      return connection.sender.send(() => Promise.all(keys.map((key) => connection.client.get(key).then(parse))));
    }
    return connection.sender.send(() => connection.client.mget(...keys).then((values) => values.map(parse)));
  }

  private connectionOf(deployment: Deployment): { client: RedisClient; sender: WindowedSender } {
    const connection = deployment.pick();
    if (connection === undefined) {
      throw new CounterStoreError(`key-value store ${deployment.options.url} is not connected (reconnecting)`);
    }
    return connection;
  }

  /** Every failure becomes a CounterStoreError whose message says what the store said. */
  private async guard(values: Promise<number[]>): Promise<number[]> {
    try {
      return await values;
    } catch (error) {
      if (error instanceof CounterStoreError) throw error;
      throw new CounterStoreError(`key-value store: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
}
