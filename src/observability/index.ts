/**
 * What every thread uses of observability. The statistics' outputs, the statsd sink
 * (sinks/statsd-sink.ts) and the Prometheus page (prometheus/index.ts), are the main thread's
 * alone: exporting them here would load hot-shots, prom-client and yaml into every thread.
 */
export {
  Counter,
  StatsStore,
  RuleStatsFactory,
  Timer,
  sanitizeStatName,
  OVERFLOW_STAT,
  FOLDED_NAMES_STAT,
  DEFAULT_MAX_STAT_NAMES,
  TIMER_BUCKET_BOUNDS_MS,
  TIMER_BUCKETS,
} from './stats.js';
export type { Gauge, RuleStats, StatsDelta, TimerDelta } from './stats.js';
export { splitTags, joinTags, withExtraTags, parseTagList } from './stat-tags.js';
export type { StatTag } from './stat-tags.js';
export { compileMogrifier, mogrify } from './sinks/mogrifier.js';
export type { Mogrifier, MogrifierSpec } from './sinks/mogrifier.js';
export { StdoutSink } from './sinks/stdout-sink.js';
export type { StatsBatch, StatsSink } from './sinks/stats-sink.js';
export { StatsFlusher, SINK_ERRORS_STAT } from './stats-flusher.js';
export { ProcessStats, PROCESS_STATS_PREFIX } from './process-stats.js';
export { createLogger, silentLogger } from './logger.js';
export type { Logger, LogFields, LogFormat, LogLevel } from './logger.js';
export { HealthChecker } from './health.js';
export type { HealthComponent } from './health.js';
export { startTracing } from './tracing/start-tracing.js';
export type { Tracing, TracingOptions, ServerSpan, SpanAttributes, CarrierGetter } from './tracing/tracing.js';
