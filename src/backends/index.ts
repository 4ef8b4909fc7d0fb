export { loadCounterStoreCode, openSharedCounterStore, readCounterStoreSettings, startCounterStore, type CounterStoreSettings, type SharedCounterStore } from './counter-stores.js';
export type { CounterStoreHost, StoreSpan } from './counter-store-descriptor.js';
