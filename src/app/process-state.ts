import { startCounterStore } from '../backends/index.js';
import type { Clock } from '../engine/index.js';
import { HealthChecker, ProcessStats, type Logger, type StatsStore } from '../observability/index.js';
import { ConfigMailbox, SharedHealth, StatsCollector, newStatsChannelName } from '../threads/index.js';
import { BodyBudget } from '../transports/http/index.js';
import { counterStoreHost } from './decisions/counter-store-host.js';
import type { Lifecycle } from './lifecycle.js';
import type { ServiceSettings } from './service-settings.js';
import type { SharedResources } from './shared-resources.js';
import { boundedStatsStore } from './stats/stats-store.js';

/** What the main thread holds of the state every thread shares. */
export interface ProcessState {
  stats: StatsStore;
  health: HealthChecker;
  bodyBudget: BodyBudget;
  /** The main thread's end of the channel other threads report their statistics on. */
  collector: StatsCollector;
  /** What each thread attaches to (posted through workerData). */
  resources: SharedResources;
  /** Every thread's latest changes and the figures read on demand, before a flush or a read. */
  refreshStats(): Promise<void>;
}

/** How often the counter store is looked after (the embedded store prepares the next window's tables off the hot path). */
const STORE_MAINTENANCE_MS = 250;

/**
 * Creates the shared memory and channels every thread attaches to (statistics, health, the rules
 * mailbox, the body budget) and starts the counter store the deciding threads count in.
 */
export function startProcessState(settings: ServiceSettings, logger: Logger, clock: Clock, lifecycle: Lifecycle): ProcessState {
  const stats = boundedStatsStore(settings, logger, 'main');
  const health = new HealthChecker({ requireConfig: settings.healthyWithAtLeastOneConfigLoaded });
  const sharedHealth = new SharedHealth();
  sharedHealth.set(health.isHealthy());
  health.onChange((healthy) => sharedHealth.set(healthy));
  const mailbox = ConfigMailbox.create(settings.configMaxBytes);
  const bodyBudget = BodyBudget.create(settings.apiMaxBodyBytesInFlight);

  const counterStore = startCounterStore(settings, counterStoreHost(settings, stats, health, sharedHealth, logger));
  lifecycle.add('the counter store', () => counterStore.running.close?.());
  logger.info(...counterStore.description);
  maintainPeriodically(counterStore.running, clock, lifecycle);

  const collector = new StatsCollector(newStatsChannelName(), stats);
  lifecycle.add('the statistics channel', () => collector.close());
  const processStats = new ProcessStats(stats, 'main', { processWide: true });
  lifecycle.add('the process statistics', () => processStats.close());

  return {
    stats,
    health,
    bodyBudget,
    collector,
    resources: {
      mailboxBuffer: mailbox.buffer,
      healthBuffer: sharedHealth.buffer,
      bodyBudgetBuffer: bodyBudget.buffer,
      statsChannel: collector.channelName,
      counterStore: counterStore.forThreads,
      storeLog: { logLevel: settings.logLevel, logFormat: settings.logFormat },
      statsMaxNames: settings.statsMaxNames,
    },
    async refreshStats() {
      await collector.flush();
      counterStore.running.refreshStats?.();
      processStats.sample();
    },
  };
}

function maintainPeriodically(store: { maintain?(nowSeconds: number): void }, clock: Clock, lifecycle: Lifecycle): void {
  const maintenance = setInterval(() => store.maintain?.(clock.nowSeconds()), STORE_MAINTENANCE_MS);
  maintenance.unref();
  lifecycle.add('the store maintenance', () => clearInterval(maintenance));
}
