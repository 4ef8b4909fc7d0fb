import type { Logger } from '../../observability/index.js';
import { startDebugServer, startMetricsServer, type DebugJsonRoute } from '../../transports/debug/index.js';
import type { Lifecycle } from '../lifecycle.js';
import type { ProcessState } from '../process-state.js';
import type { RunningRules } from '../rules/start-rules.js';
import type { ServiceSettings } from '../service-settings.js';
import { createMetricsPage } from './metrics-page.js';
import { startStatsOutput, type StatsOutput } from './stats-output.js';

/** Where the statistics can be read or go. */
export interface StatsServers {
  debugPort: number;
  /** The USE_PROMETHEUS listener's port; undefined without it. */
  prometheusPort: number | undefined;
  statsOutput: StatsOutput;
}

/**
 * The debug port (`/stats`, `/rlconfig`, `/metrics`), upstream's Prometheus listener with
 * USE_PROMETHEUS, and the sink STATS chooses, flushed every STATS_FLUSH_INTERVAL.
 */
export async function startStatsServers(
  settings: ServiceSettings,
  state: ProcessState,
  rules: RunningRules,
  logger: Logger,
  lifecycle: Lifecycle,
  /** Endpoints the APIs add to the debug port (the decision API's `/counters`). */
  jsonRoutes: readonly DebugJsonRoute[] = [],
): Promise<StatsServers> {
  const { stats, refreshStats } = state;
  const metricsPage = await createMetricsPage(settings, stats, refreshStats);
  const debug = await startDebugServer({
    host: settings.debugHost,
    port: settings.debugPort,
    stats: async () => {
      await refreshStats();
      return stats.snapshot();
    },
    rlconfig: () => rules.rlconfig,
    metrics: metricsPage,
    token: settings.debugToken,
    logger,
    jsonRoutes,
  });
  lifecycle.add('the debug server', () => debug.close());

  let prometheusPort: number | undefined;
  if (settings.statsSink === 'prometheus') {
    const prometheus = await startMetricsServer({
      address: settings.prometheusAddr,
      path: settings.prometheusPath,
      metrics: metricsPage,
      onError: (error) => logger.error('metrics page failed', { error: String(error) }),
    });
    lifecycle.add('the Prometheus listener', () => prometheus.close());
    prometheusPort = prometheus.port;
  }

  const statsOutput = await startStatsOutput(settings, stats, refreshStats, logger);
  // Registered before the servers, so it closes after they drained: the last flush holds their last requests.
  lifecycle.add('the statistics sink', () => statsOutput.close());
  return { debugPort: debug.port, prometheusPort, statsOutput };
}
