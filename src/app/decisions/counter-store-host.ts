import type { CounterStoreHost } from '../../backends/index.js';
import type { HealthChecker, Logger, StatsStore } from '../../observability/index.js';
import type { Settings } from '../../settings/index.js';
import type { SharedHealth } from '../../threads/index.js';

/**
 * Threads that decide, and so open their own store connections: the main thread (gRPC, and HTTP
 * when HTTP_WORKERS=0) and each HTTP thread; in pool mode every front has POOL_THREADS workers.
 */
export function decidingThreads(settings: Settings): number {
  const fronts = settings.httpWorkers + 1;
  return settings.decisionMode === 'pool' ? fronts * settings.poolThreads : fronts;
}

/**
 * What the main thread gives the counter store it starts: the store's health is the `store`
 * component of the service's, and its connections are those every thread counts in the shared
 * health buffer. A store that gives up stops the service the way SIGTERM does.
 */
export function counterStoreHost(settings: Settings, stats: StatsStore, health: HealthChecker, sharedHealth: SharedHealth, logger: Logger): CounterStoreHost {
  return {
    decidingThreads: decidingThreads(settings),
    stats,
    setHealthy: (healthy) => health.set('store', healthy),
    connectionsUp: () => sharedHealth.storeConnections(),
    stopService(reason) {
      logger.error(reason);
      // The operator's way out: main.ts drains and exits on SIGTERM, with this status.
      process.exitCode = 1;
      process.kill(process.pid, 'SIGTERM');
    },
  };
}
