/**
 * Where decisions are made: each thread's engine (the compiled rules from the config mailbox and
 * a counter store), and the hand-off to it, inline on the front's thread or batched to a piscina
 * pool.
 */
export { createDecider } from './decider.js';
export type { Decider, DeciderParts } from './decider.js';
export { ThreadEngine } from './thread-engine.js';
export type { ThreadEngineParts } from './thread-engine.js';
export { batchDecider } from './pool/batch-decider.js';
export type { BatchEngine } from './pool/batch-decider.js';
export type { DecisionBatch, DecisionBatchResult, WireDecision } from './pool/messages.js';
