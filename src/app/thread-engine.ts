import type { Clock, EngineSettings } from '../engine/index.js';
import { createLogger, type StatsStore } from '../observability/index.js';
import { ThreadEngine } from '../threads/index.js';
import { openCounterStore } from './open-counter-store.js';
import type { SharedResources } from './shared-resources.js';
import { boundedStatsStore } from './stats-store.js';

/** A decision engine for the calling thread, on the counter store the settings chose. */
export function openThreadEngine(resources: SharedResources, settings: EngineSettings, clock: Clock, stats?: StatsStore): ThreadEngine {
  stats ??= boundedStatsStore(resources, createLogger(resources.storeLog.logLevel, resources.storeLog.logFormat), 'decision worker');
  const store = openCounterStore(resources.backend, resources.storeBuffer, resources.healthBuffer, stats, resources.storeLog);
  return new ThreadEngine({ mailboxBuffer: resources.mailboxBuffer, store, settings, clock, stats });
}
