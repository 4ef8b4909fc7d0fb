import type { CounterIncrement, CounterStore } from '../engine/index.js';
import type { StatsStore } from '../observability/index.js';
import type { EnvReader } from '../settings/index.js';

/**
 * Everything the service knows of one counter store, in the store's own folder: its settings,
 * how the main thread runs it, how each deciding thread opens it, and how it is logged and
 * traced. registry.ts lists them; nothing outside backends/ names a store.
 *
 * `Settings` is the part of the service's settings the store reads itself (its fields join the
 * service's settings, so their names must not clash with another store's). `Shared` is what every
 * deciding thread opens the store from: plain data or shared memory, posted to each thread.
 *
 * Methods rather than function properties: a list of descriptors of different `Settings` and
 * `Shared` is then a list of SomeCounterStore.
 */
export interface CounterStoreDescriptor<Type extends string, Settings extends object, Shared> {
  /** BACKEND_TYPE's value for this store. */
  readonly type: Type;
  /** Other spellings BACKEND_TYPE accepts for it (upstream's names), lowercase. */
  readonly aliases: readonly string[];
  /** With BACKEND_TYPE unset, whether the environment chooses this store (KVSTORE_URL does). */
  chosenWhenUnset?(env: EnvReader): boolean;
  /** Reads and checks each value; every store's settings are read, whichever store is chosen. */
  readSettings(env: EnvReader): Settings;
  /** Combinations that cannot work; only the chosen store's are checked. Throws SettingsError. */
  checkSettings?(settings: Settings, env: EnvReader): void;
  /** On the main thread, once, before any thread decides. */
  start(settings: Settings, host: CounterStoreHost): RunningCounterStore<Shared>;
  /** The startup log line that says where counters live. */
  describe(settings: Settings, shared: Shared): LogLine;
  /**
   * On each thread that opens the store, once, before it does: the store's code with its client
   * library. A dynamic import, so that a thread loads only the chosen store's library (ioredis
   * alone costs a thread about a third of a second of CPU at its start).
   */
  load(): Promise<CounterStoreCode<Shared>>;
  /** The span each store call is traced as; none for a store that does no I/O. */
  span?(shared: Shared): StoreSpan;
}

/** A store's code, loaded on a thread. */
export interface CounterStoreCode<Shared> {
  /** This thread's store (its own connections, or the shared memory). */
  open(shared: Shared, context: CounterStoreThreadContext): CounterStore;
}

/** Any store, its settings and shared part unknown: what the registry holds. */
export type SomeCounterStore = CounterStoreDescriptor<string, object, unknown>;

export type LogLine = [message: string, fields: Record<string, unknown>];

/** What the main thread gives a store to run it. */
export interface CounterStoreHost {
  /** Threads that decide, each opening the store: a connection count is shared out over them. */
  decidingThreads: number;
  stats: StatsStore;
  /** The store's part of the service's health; a store that never calls it never makes the service unhealthy. */
  setHealthy(healthy: boolean): void;
  /** Connections to the store up now over every thread, as each thread's `connectionsChanged` reported them. */
  connectionsUp(): number;
  /** Logs `reason` and stops the service as SIGTERM does, with exit status 1: the store cannot count and will not. */
  stopService(reason: string): void;
}

/** A store as the main thread runs it. */
export interface RunningCounterStore<Shared> {
  shared: Shared;
  /** Called every 250 ms on the main thread (preparing tables, checking health). */
  maintain?(nowSeconds: number): void;
  /** Called before the statistics are read or flushed: the store's gauges. */
  refreshStats?(): void;
  close?(): Promise<void>;
}

/** What a deciding thread gives the store it opens. */
export interface CounterStoreThreadContext {
  stats: StatsStore;
  /** A log of this store's errors, `what` naming the store in each line; throttled per thread. */
  errorLog(what: string): (error: Error) => void;
  /** Connections of this thread's store that came up (positive) or went down (negative). */
  connectionsChanged(delta: number): void;
}

/** A tracing span around each store call: upstream's name and attributes for this store. */
export interface StoreSpan {
  name: string;
  attributes(increments: readonly CounterIncrement[]): Record<string, number>;
}
