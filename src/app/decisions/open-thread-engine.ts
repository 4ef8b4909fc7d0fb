import type { Clock, EngineSettings } from '../../engine/index.js';
import { createLogger, type StatsStore, type Tracing } from '../../observability/index.js';
import { ThreadEngine } from '../../ratelimit/decisions/index.js';
import { openCounterStore } from './open-counter-store.js';
import type { SharedResources } from '../shared-resources.js';
import { boundedStatsStore } from '../stats/stats-store.js';

/**
 * A decision engine for the calling thread, on the counter store the settings chose (the thread
 * loaded its code first: loadThreadCounterStore). With
 * tracing, calls to Redis and memcached are spans (the embedded store does no I/O to trace).
 */
export function openThreadEngine(resources: SharedResources, settings: EngineSettings, clock: Clock, stats?: StatsStore, tracing?: Tracing): ThreadEngine {
  stats ??= boundedStatsStore(resources, createLogger(resources.storeLog.logLevel, resources.storeLog.logFormat), 'decision worker');
  const store = openCounterStore(resources, stats, tracing);
  return new ThreadEngine({ mailboxBuffer: resources.mailboxBuffer, store, settings, clock, stats });
}
