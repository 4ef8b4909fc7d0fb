export { PooledDecider } from './pooled-decider.js';
export type { PooledDeciderOptions } from './pooled-decider.js';
export { batchDecider } from './batch-decider.js';
export type { BatchEngine } from './batch-decider.js';
export type { DecisionBatch, DecisionBatchResult, WireDecision } from './messages.js';
