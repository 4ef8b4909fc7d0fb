import { StatsFlusher, StdoutSink, type Logger, type StatsSink, type StatsStore } from '../../observability/index.js';
import type { Settings } from '../../settings/index.js';

/** The push side of the statistics: the sink STATS selects, flushed every STATS_FLUSH_INTERVAL. */
export interface StatsOutput {
  /** Flushes now (tests, and a last flush at stop). */
  flush(): Promise<void>;
  close(): Promise<void>;
}

const NO_OUTPUT: StatsOutput = { flush: () => Promise.resolve(), close: () => Promise.resolve() };

/**
 * Starts the flusher for the selected sink. DISABLE_STATS and Prometheus push nothing:
 * Prometheus reads the same store when scraped.
 */
export async function startStatsOutput(settings: Settings, store: StatsStore, refresh: () => Promise<void>, logger: Logger): Promise<StatsOutput> {
  if (settings.statsSink === 'disabled' || settings.statsSink === 'prometheus') return NO_OUTPUT;
  let flusher: StatsFlusher | undefined;
  const onError = (error: Error) => flusher?.onSinkError(error);
  let sink: StatsSink;
  let sinkName: string;
  if (settings.statsSink === 'stdout') {
    sink = new StdoutSink();
    sinkName = 'stdout';
  } else {
    const tagged = settings.statsSink === 'tagged-metricsd';
    // hot-shots loads only when statistics go to a daemon.
    const { StatsdSink } = await import('../../observability/sinks/statsd-sink.js');
    sink = new StatsdSink({
      host: settings.metricsdHost,
      port: settings.metricsdPort,
      protocol: settings.metricsdProtocol,
      format: tagged ? { kind: 'tagged', mogrifiers: settings.mogrifiers } : { kind: 'plain' },
      onError,
    });
    sinkName = `${tagged ? 'tagged metrics daemon' : 'metrics daemon'} ${settings.metricsdProtocol}://${settings.metricsdHost}:${settings.metricsdPort}`;
  }
  flusher = new StatsFlusher({ store, sink, intervalMs: settings.statsFlushIntervalMs, extraTags: settings.extraTags, refresh, logger, sinkName });
  const started = flusher;
  logger.info('statistics flushed to a sink', { sink: sinkName, interval: `${settings.statsFlushIntervalMs}ms` });
  return { flush: () => started.flush(), close: () => started.close() };
}
