import type { Clock } from '../../engine/index.js';
import type { StatsStore, Tracing } from '../../observability/index.js';
import { createDecider, type Decider, type ThreadEngine } from '../../ratelimit/decisions/index.js';
import type { Settings } from '../../settings/index.js';
import { engineSettingsOf } from './engine-settings.js';
import type { DecisionWorkerData, SharedResources } from '../shared-resources.js';
import { loadThreadCounterStore } from './open-counter-store.js';
import { openThreadEngine } from './open-thread-engine.js';
import { threadEntryFile } from '../thread-entries.js';

const DECISION_WORKER = threadEntryFile('decisionPool');

/**
 * This thread's decider, as DECISION_MODE chooses: its own engine, on the store whose code it
 * loads first, or the pool's threads (decision-worker.ts), which load it themselves.
 */
export async function deciderFor(
  settings: Settings,
  resources: SharedResources,
  stats: StatsStore,
  clock: Clock,
  tracing?: Tracing,
  /** Told the inline engine once it is open (the main thread's counters use it too). */
  onEngine?: (engine: ThreadEngine) => void,
): Promise<Decider> {
  const engineSettings = engineSettingsOf(settings);
  if (settings.decisionMode === 'pool') {
    const workerData: DecisionWorkerData = { resources, engineSettings };
    return createDecider({ mode: 'pool', workerFile: DECISION_WORKER, workerData, threads: settings.poolThreads, tracing });
  }
  await loadThreadCounterStore(resources);
  const openEngine = () => {
    const engine = openThreadEngine(resources, engineSettings, clock, stats, tracing);
    onEngine?.(engine);
    return engine;
  };
  return createDecider({ mode: 'inline', openEngine, tracing });
}
