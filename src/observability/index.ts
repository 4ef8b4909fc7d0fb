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
export { StatsdSink } from './sinks/statsd-sink.js';
export { StdoutSink } from './sinks/stdout-sink.js';
export type { StatsBatch, StatsSink } from './sinks/stats-sink.js';
export { StatsFlusher, SINK_ERRORS_STAT } from './stats-flusher.js';
export { ProcessStats, PROCESS_STATS_PREFIX } from './process-stats.js';
export { createLogger, silentLogger } from './logger.js';
export type { Logger, LogFields, LogFormat, LogLevel } from './logger.js';
export { HealthChecker } from './health.js';
export type { HealthComponent } from './health.js';
export { PrometheusExposition } from './prometheus/exposition.js';
export { StatsdMapping, MappingError, DEFAULT_BUCKETS } from './prometheus/statsd-mapping.js';
export { DEFAULT_MAPPING_YAML } from './prometheus/default-mapping.js';
export { startTracing } from './tracing/start-tracing.js';
export type { Tracing, TracingOptions, ServerSpan, SpanAttributes, CarrierGetter } from './tracing/tracing.js';
