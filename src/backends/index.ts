export {
  openSharedCounterStore,
  readCounterStoreSettings,
  startCounterStore,
  type CounterStoreSettings,
  type CounterStoreType,
  type SharedCounterStore,
  type StartedCounterStore,
} from './counter-stores.js';
export type { CounterStoreHost, CounterStoreThreadContext, StoreSpan } from './counter-store-descriptor.js';
