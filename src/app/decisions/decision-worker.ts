/**
 * Entry point of a piscina decision worker: decides whole batches. The pool runs with atomics
 * disabled, so this thread stays event-driven between tasks and its statistics reporter's timer
 * runs.
 */
import { threadId, workerData } from 'node:worker_threads';
import { systemClock } from '../../engine/index.js';
import { ProcessStats } from '../../observability/index.js';
import { batchDecider } from '../../ratelimit/decisions/index.js';
import { StatsReporter } from '../../threads/index.js';
import type { DecisionWorkerData } from '../shared-resources.js';
import { loadThreadCounterStore } from './open-counter-store.js';
import { openThreadEngine } from './open-thread-engine.js';

const data = workerData as DecisionWorkerData;
await loadThreadCounterStore(data.resources);
const engine = openThreadEngine(data.resources, data.engineSettings, systemClock);
const processStats = new ProcessStats(engine.stats, `decision_${threadId}`, { processWide: false });
new StatsReporter(data.resources.statsChannel, engine.stats, () => processStats.sample());

export default batchDecider(engine);
