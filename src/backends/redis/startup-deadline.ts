import type { CounterStoreHost } from '../counter-store-descriptor.js';

/**
 * KVSTORE_STARTUP_MAX_ELAPSED_TIME: the main thread's check, every maintenance tick, that some
 * thread's connection came up within that long of starting; if none did, the service stops
 * (exit status 1), as upstream stops when its startup retries run out. Once a connection has
 * been up, later outages never stop the service. Undefined for 0: wait forever.
 */
export function startupDeadline(maxElapsedMs: number, host: CounterStoreHost, now: () => number = Date.now): (() => void) | undefined {
  if (maxElapsedMs === 0) return undefined;
  const startedAt = now();
  let settled = false;
  return () => {
    if (settled) return;
    if (host.connectionsUp() > 0) {
      settled = true;
      return;
    }
    if (now() - startedAt < maxElapsedMs) return;
    settled = true;
    host.stopService(`no connection to the key-value store within KVSTORE_STARTUP_MAX_ELAPSED_TIME (${maxElapsedMs} ms); stopping`);
  };
}
