import type { Decision, RateLimitRequest } from '../../../engine/index.js';
import { ServiceError } from '../../../errors/index.js';
import type { DecisionBatch, DecisionBatchResult, WireDecision } from './messages.js';

export interface BatchEngine {
  decide(request: RateLimitRequest): Decision | Promise<Decision>;
}

function toWire(decision: Decision): WireDecision {
  return decision instanceof ServiceError ? { error: { code: decision.code, message: decision.message } } : decision;
}

/** The piscina task function of a decision worker: decides a whole batch on `engine`. */
export function batchDecider(engine: BatchEngine): (batch: DecisionBatch) => Promise<DecisionBatchResult> {
  return async (batch) => {
    const pending: Array<Decision | Promise<Decision>> = batch.requests.map((request) => engine.decide(request));
    return { decisions: (await Promise.all(pending)).map(toWire) };
  };
}
