import { loadCounterStoreCode, openSharedCounterStore } from '../../backends/index.js';
import type { CounterStore } from '../../engine/index.js';
import { createLogger, type StatsStore, type Tracing } from '../../observability/index.js';
import type { SharedResources, StoreLogSettings } from '../shared-resources.js';
import { SharedHealth } from '../../threads/index.js';
import { tracedCounterStore } from './traced-counter-store.js';

/** A store that is down reports an error per attempt; one line per this long and thread is enough. */
const ERROR_LOG_INTERVAL_MS = 5000;

function throttledErrorLog(log: StoreLogSettings, what: string): (error: Error) => void {
  const logger = createLogger(log.logLevel, log.logFormat);
  let last = 0;
  let suppressed = 0;
  return (error) => {
    const now = Date.now();
    if (now - last < ERROR_LOG_INTERVAL_MS) {
      suppressed++;
      return;
    }
    logger.warn(`${what} error`, { error: error.message, ...(suppressed > 0 ? { suppressed } : {}) });
    last = now;
    suppressed = 0;
  };
}

/** On a thread that will decide or read counters, before it opens an engine: loads the chosen store's code, once. */
export function loadThreadCounterStore(resources: SharedResources): Promise<void> {
  return loadCounterStoreCode(resources.counterStore);
}

/**
 * This thread's counter store, as the main thread chose and started it: the process-wide shared
 * memory, or this thread's own connections. Connections that come up or go down are counted in
 * the shared health buffer. With tracing, each call to a store that does I/O is a span.
 */
export function openCounterStore(resources: SharedResources, stats: StatsStore, tracing: Tracing | undefined): CounterStore {
  const health = new SharedHealth(resources.healthBuffer);
  const { store, span } = openSharedCounterStore(resources.counterStore, {
    stats,
    errorLog: (what) => throttledErrorLog(resources.storeLog, what),
    connectionsChanged: (delta) => health.addStoreConnections(delta),
  });
  return tracing === undefined || span === undefined ? store : tracedCounterStore(store, tracing, span);
}
