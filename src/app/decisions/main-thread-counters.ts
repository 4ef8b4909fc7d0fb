import type { Clock, CounterInspector } from '../../engine/index.js';
import type { StatsStore, Tracing } from '../../observability/index.js';
import type { ThreadEngine } from '../../ratelimit/decisions/index.js';
import type { ServiceSettings } from '../service-settings.js';
import type { SharedResources } from '../shared-resources.js';
import { engineSettingsOf } from './engine-settings.js';
import { openThreadEngine } from './open-thread-engine.js';

/** The engine the debug port's `/counters` reads and resets through, on the main thread. */
export interface MainThreadCounters {
  /** Hand it the main thread's inline decision engine (DECISION_MODE=inline), to share. */
  useEngine(engine: ThreadEngine): void;
  inspector(): CounterInspector;
  /** Closes the engine it opened itself, if any. */
  close(): Promise<void>;
}

/**
 * Inline, the main thread's own decision engine answers: same rules, same store handle. In pool
 * mode the main thread decides nothing, so an engine is opened on the first `/counters` request
 * (its rules compiled from the mailbox, its own store connections) and kept until the stop.
 */
export function mainThreadCounters(settings: ServiceSettings, resources: SharedResources, stats: StatsStore, clock: Clock, tracing?: Tracing): MainThreadCounters {
  let engine: ThreadEngine | undefined;
  let opened: ThreadEngine | undefined;
  let inspector: CounterInspector | undefined;
  return {
    useEngine: (inline) => {
      engine = inline;
    },
    inspector: () => {
      engine ??= opened = openThreadEngine(resources, engineSettingsOf(settings), clock, stats, tracing);
      return (inspector ??= engine.counters(settings.backendType));
    },
    close: () => opened?.close() ?? Promise.resolve(),
  };
}
