import type { EngineSettings, RateLimitRequest, RateLimitResponse } from '../engine/index.js';
import type { ErrorCode } from '../errors/index.js';
import type { SharedResources } from '../threads/index.js';

/** workerData of a decision worker. */
export interface DecisionWorkerData {
  resources: SharedResources;
  engineSettings: EngineSettings;
}

/** One piscina task: every decision a front collected in one event-loop turn. */
export interface DecisionBatch {
  requests: RateLimitRequest[];
}

/** A RateLimitError does not survive structured cloning as a class, so it travels as data. */
export type WireDecision = RateLimitResponse | { error: { code: ErrorCode; message: string } };

export interface DecisionBatchResult {
  decisions: WireDecision[];
}
