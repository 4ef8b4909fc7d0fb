import type { Decide, Decision, RateLimitRequest } from '../../engine/index.js';
import { ServiceError } from '../../errors/index.js';
import type { Tracing } from '../../observability/index.js';
import { requestText } from '../request-text.js';
import type { ThreadEngine } from './thread-engine.js';

/** How a front gets its decisions, whichever thread makes them. */
export interface Decider {
  decide: Decide;
  /**
   * Resolves once this thread decides by the configuration of `generation`. In pool mode it
   * resolves at once: the workers take a new configuration before their next decision.
   */
  inService(generation: number): Promise<void>;
  close(): Promise<void>;
}

export type DeciderParts =
  /** Decide on the calling thread, with the engine `openEngine` opens on it. */
  | { mode: 'inline'; openEngine(): ThreadEngine; tracing?: Tracing }
  /** Send each event-loop turn's decisions as one task to a piscina pool of `threads` running `workerFile`. */
  | { mode: 'pool'; workerFile: string; workerData: unknown; threads: number; tracing?: Tracing };

/**
 * DECISION_MODE: decide on the front's own thread (inline) or in a piscina pool (pool). With
 * tracing, each decision is a span, and so is each store call of an inline engine (the pool's
 * threads do not trace: their store calls are inside the decision span).
 */
export async function createDecider(parts: DeciderParts): Promise<Decider> {
  let decider: Decider;
  if (parts.mode === 'pool') {
    // piscina loads only in pool mode.
    const { PooledDecider } = await import('./pool/pooled-decider.js');
    const pooled = new PooledDecider({ workerFile: parts.workerFile, workerData: parts.workerData, threads: parts.threads });
    decider = { decide: (request) => pooled.decide(request), inService: () => Promise.resolve(), close: () => pooled.close() };
  } else {
    const engine = parts.openEngine();
    decider = { decide: (request, reuse) => engine.decide(request, reuse), inService: (generation) => engine.whenInService(generation), close: () => engine.close() };
  }
  return parts.tracing === undefined ? decider : tracedDecider(decider, parts.tracing);
}

/** Upstream's `ShouldRateLimit Execution` span, with the domain and the request as attributes. */
function tracedDecider(decider: Decider, tracing: Tracing): Decider {
  const attributes = (request: RateLimitRequest) => () => ({ domain: request.domain, 'request string': requestText(request) });
  const failure = (decision: Decision) => (decision instanceof ServiceError ? decision.message : undefined);
  return {
    decide: (request, reuse) => tracing.inSpan('ShouldRateLimit Execution', attributes(request), () => decider.decide(request, reuse), failure),
    inService: (generation) => decider.inService(generation),
    close: () => decider.close(),
  };
}
