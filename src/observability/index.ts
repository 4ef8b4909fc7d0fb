export { StatsStore, RuleStatsFactory, Timer, sanitizeStatName } from './stats.js';
export type { Counter, Gauge, RuleStats, StatsDelta } from './stats.js';
export { createLogger, silentLogger } from './logger.js';
export type { Logger, LogFields, LogFormat, LogLevel } from './logger.js';
export { HealthChecker } from './health.js';
export type { HealthComponent } from './health.js';
