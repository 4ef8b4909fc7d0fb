import type { RateLimitRequest, RateLimitResponse } from '../../../engine/index.js';
import type { ErrorCode } from '../../../errors/index.js';

/** One piscina task: every decision a front collected in one event-loop turn. */
export interface DecisionBatch {
  requests: RateLimitRequest[];
}

/** A ServiceError does not survive structured cloning as a class, so it travels as data. */
export type WireDecision = RateLimitResponse | { error: { code: ErrorCode; message: string } };

export interface DecisionBatchResult {
  decisions: WireDecision[];
}
