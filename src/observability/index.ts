export { Counter, StatsStore, RuleStatsFactory, Timer, sanitizeStatName, OVERFLOW_STAT, FOLDED_NAMES_STAT, DEFAULT_MAX_STAT_NAMES } from './stats.js';
export type { Gauge, RuleStats, StatsDelta } from './stats.js';
export { createLogger, silentLogger } from './logger.js';
export type { Logger, LogFields, LogFormat, LogLevel } from './logger.js';
export { HealthChecker } from './health.js';
export type { HealthComponent } from './health.js';
