import type { Alert, Silence } from '../model.js';

/**
 * Where the alert API's state survives the process: every acknowledged write (alerts posted,
 * silences created, updated or expired) is written here before the client gets its answer, so
 * it survives kill -9 and a restart. Alertmanager itself keeps alerts only in memory and
 * snapshots silences every 15 minutes.
 *
 * The embedded implementation is SQLite; several instances sharing state need one on a shared
 * store (a later one on Redis), hence the interface and the possibly asynchronous results.
 */
export interface AlertStateStore {
  /** Everything stored, at startup. */
  load(): { alerts: Alert[]; silences: Silence[] } | Promise<{ alerts: Alert[]; silences: Silence[] }>;
  /** Writes alerts (by fingerprint) and silences (by id) in one transaction; removes the ids listed. */
  write(change: StateChange): void | Promise<void>;
  close(): void | Promise<void>;
}

export interface StateChange {
  alerts?: readonly Alert[];
  silences?: readonly Silence[];
  removedAlerts?: readonly string[];
  removedSilences?: readonly string[];
}
