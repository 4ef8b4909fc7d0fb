/**
 * Piscina worker: decides whole batches. The pool runs with atomics disabled, so this thread
 * stays event-driven between tasks and its statistics reporter's timer runs.
 */
import { workerData } from 'node:worker_threads';
import { systemClock, type Decision } from '../engine/index.js';
import { RateLimitError } from '../errors/index.js';
import { StatsReporter, ThreadEngine } from '../threads/index.js';
import { type DecisionBatch, type DecisionBatchResult, type DecisionWorkerData, type WireDecision } from './messages.js';

const data = workerData as DecisionWorkerData;
const engine = new ThreadEngine(data.resources, data.engineSettings, systemClock);
new StatsReporter(data.resources.statsChannel, engine.stats);

function toWire(decision: Decision): WireDecision {
  return decision instanceof RateLimitError ? { error: { code: decision.code, message: decision.message } } : decision;
}

export default async function decideBatch(batch: DecisionBatch): Promise<DecisionBatchResult> {
  const pending: Array<Decision | Promise<Decision>> = batch.requests.map((request) => engine.decide(request));
  return { decisions: (await Promise.all(pending)).map(toWire) };
}
