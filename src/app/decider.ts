import { fileURLToPath } from 'node:url';
import type { Clock, Decision, RateLimitRequest } from '../engine/index.js';
import type { StatsStore } from '../observability/index.js';
import { PooledDecider } from '../pool/index.js';
import type { Settings } from '../settings/index.js';
import { engineSettingsOf } from './engine-settings.js';
import type { DecisionWorkerData, SharedResources } from './shared-resources.js';
import { openThreadEngine } from './thread-engine.js';

const DECISION_WORKER = fileURLToPath(new URL('./decision-worker.js', import.meta.url));

/** How a front gets its decisions, whichever thread makes them. */
export interface Decider {
  decide(request: RateLimitRequest): Decision | Promise<Decision>;
  /**
   * Resolves once this thread decides by the configuration of `generation`. In pool mode it
   * resolves at once: the workers take a new configuration before their next decision.
   */
  inService(generation: number): Promise<void>;
  close(): Promise<void>;
}

/** DECISION_MODE: decide on the front's own thread (inline) or in a piscina pool (pool). */
export function createDecider(settings: Settings, resources: SharedResources, stats: StatsStore, clock: Clock): Decider {
  const engineSettings = engineSettingsOf(settings);
  if (settings.decisionMode === 'pool') {
    const workerData: DecisionWorkerData = { resources, engineSettings };
    const pooled = new PooledDecider({ workerFile: DECISION_WORKER, workerData, threads: settings.poolThreads });
    return { decide: (request) => pooled.decide(request), inService: () => Promise.resolve(), close: () => pooled.close() };
  }
  const engine = openThreadEngine(resources, engineSettings, clock, stats);
  return { decide: (request) => engine.decide(request), inService: (generation) => engine.whenInService(generation), close: () => engine.close() };
}
