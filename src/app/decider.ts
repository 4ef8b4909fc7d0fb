import { fileURLToPath } from 'node:url';
import type { Clock, Decision, RateLimitRequest } from '../engine/index.js';
import { ServiceError } from '../errors/index.js';
import type { StatsStore, Tracing } from '../observability/index.js';
import { requestText } from '../ratelimit/index.js';
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

/**
 * DECISION_MODE: decide on the front's own thread (inline) or in a piscina pool (pool). With
 * tracing, each decision is a span, and so is each store call of an inline engine (the pool's
 * threads do not trace: their store calls are inside the decision span).
 */
export function createDecider(settings: Settings, resources: SharedResources, stats: StatsStore, clock: Clock, tracing?: Tracing): Decider {
  const engineSettings = engineSettingsOf(settings);
  let decider: Decider;
  if (settings.decisionMode === 'pool') {
    const workerData: DecisionWorkerData = { resources, engineSettings };
    const pooled = new PooledDecider({ workerFile: DECISION_WORKER, workerData, threads: settings.poolThreads });
    decider = { decide: (request) => pooled.decide(request), inService: () => Promise.resolve(), close: () => pooled.close() };
  } else {
    const engine = openThreadEngine(resources, engineSettings, clock, stats, tracing);
    decider = { decide: (request) => engine.decide(request), inService: (generation) => engine.whenInService(generation), close: () => engine.close() };
  }
  return tracing === undefined ? decider : tracedDecider(decider, tracing);
}

/** Upstream's `ShouldRateLimit Execution` span, with the domain and the request as attributes. */
function tracedDecider(decider: Decider, tracing: Tracing): Decider {
  const attributes = (request: RateLimitRequest) => () => ({ domain: request.domain, 'request string': requestText(request) });
  const failure = (decision: Decision) => (decision instanceof ServiceError ? decision.message : undefined);
  return {
    decide: (request) => tracing.inSpan('ShouldRateLimit Execution', attributes(request), () => decider.decide(request), failure),
    inService: (generation) => decider.inService(generation),
    close: () => decider.close(),
  };
}
