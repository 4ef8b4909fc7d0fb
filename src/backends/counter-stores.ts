import type { CounterStore } from '../engine/index.js';
import { SettingsError, type EnvReader } from '../settings/index.js';
import type { CounterStoreCode, CounterStoreHost, CounterStoreThreadContext, LogLine, RunningCounterStore, SomeCounterStore, StoreSpan } from './counter-store-descriptor.js';
import { COUNTER_STORES, DEFAULT_COUNTER_STORE } from './registry.js';

type RegisteredStore = (typeof COUNTER_STORES)[number];

/** BACKEND_TYPE as the service names its stores. */
export type CounterStoreType = RegisteredStore['type'];

/** `A | B` to `A & B`: each store's settings join the service's settings side by side. */
type Joined<U> = (U extends unknown ? (part: U) => void : never) extends (part: infer I) => void ? I : never;

/** BACKEND_TYPE and the settings of every registered store. */
export type CounterStoreSettings = { backendType: CounterStoreType } & Joined<ReturnType<RegisteredStore['readSettings']>>;

/** The chosen store as every deciding thread opens it: plain data (or shared memory), posted to each thread. */
export interface SharedCounterStore {
  type: CounterStoreType;
  shared: unknown;
}

/** The chosen store on the main thread. */
export interface StartedCounterStore {
  running: RunningCounterStore<unknown>;
  /** What to post to the deciding threads. */
  forThreads: SharedCounterStore;
  /** The startup log line that says where counters live. */
  description: LogLine;
}

const STORES: readonly SomeCounterStore[] = COUNTER_STORES;

function storeOfType(type: string): SomeCounterStore {
  const store = STORES.find((candidate) => candidate.type === type);
  if (store === undefined) throw new Error(`no counter store of type ${type} is registered`);
  return store;
}

/**
 * BACKEND_TYPE (a store's type or alias, any case; unset: the store the environment chooses, or
 * the default), then every store's settings, so that a malformed value fails whichever store is
 * chosen; combinations are checked for the chosen store only.
 */
export function readCounterStoreSettings(env: EnvReader): CounterStoreSettings {
  const chosen = chooseStore(env);
  const settings = Object.assign({ backendType: chosen.type }, ...STORES.map((store) => store.readSettings(env))) as CounterStoreSettings;
  chosen.checkSettings?.(settings, env);
  return settings;
}

function chooseStore(env: EnvReader): SomeCounterStore {
  const raw = env.string(['BACKEND_TYPE'], '');
  if (raw === '') return STORES.find((store) => store.chosenWhenUnset?.(env) === true) ?? DEFAULT_COUNTER_STORE;
  const name = raw.toLowerCase();
  const chosen = STORES.find((store) => store.type === name || store.aliases.includes(name));
  if (chosen === undefined) {
    throw new SettingsError(`invalid value for BACKEND_TYPE: ${JSON.stringify(raw)} (expected one of ${STORES.map((store) => store.type).join(', ')})`);
  }
  return chosen;
}

/** On the main thread, once: the store BACKEND_TYPE chose, running. */
export function startCounterStore(settings: CounterStoreSettings, host: CounterStoreHost): StartedCounterStore {
  const store = storeOfType(settings.backendType);
  const running = store.start(settings, host);
  return {
    running,
    forThreads: { type: settings.backendType, shared: running.shared },
    description: store.describe(settings, running.shared),
  };
}

/** The stores' code this thread loaded, by type: each thread is a module instance of its own. */
const loadedCode = new Map<string, CounterStoreCode<unknown>>();

/** On a thread that will open the chosen store, before it does: loads that store's code, once. */
export async function loadCounterStoreCode(shared: SharedCounterStore): Promise<void> {
  if (!loadedCode.has(shared.type)) loadedCode.set(shared.type, await storeOfType(shared.type).load());
}

/** On a deciding thread: its own store, and the span its calls are traced as (none for a store without I/O). */
export function openSharedCounterStore(shared: SharedCounterStore, context: CounterStoreThreadContext): { store: CounterStore; span: StoreSpan | undefined } {
  const code = loadedCode.get(shared.type);
  if (code === undefined) throw new Error(`the ${shared.type} counter store is opened on a thread that did not load its code (loadCounterStoreCode)`);
  return { store: code.open(shared.shared, context), span: storeOfType(shared.type).span?.(shared.shared) };
}
