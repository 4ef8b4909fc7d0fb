export { ConfigMailbox } from './config-mailbox.js';
export { SharedHealth } from './shared-health.js';
export { ThreadEngine } from './thread-engine.js';
export type { SharedResources } from './thread-engine.js';
export { StatsReporter, StatsCollector, newStatsChannelName, STATS_REPORT_MS } from './stats-channel.js';
export { openCounterStore } from './open-counter-store.js';
export type { BackendSpec, StoreLogSettings } from './open-counter-store.js';
