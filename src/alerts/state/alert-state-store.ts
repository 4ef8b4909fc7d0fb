import type { Alert, Silence } from '../model.js';

export interface StoredState {
  alerts: Alert[];
  silences: Silence[];
}

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
  /**
   * Everything stored, at startup: the changes to apply in order (a later write of an alert or
   * silence replaces an earlier one), read a page at a time so the reader can yield between them.
   */
  read(): Iterable<StateChange> | AsyncIterable<StateChange>;
  /** Writes alerts (by fingerprint) and silences (by id) at once; removes the ids listed. */
  write(change: StateChange): void | Promise<void>;
  /**
   * True when the store would have its history replaced by the whole state, which now holds
   * `stateEntries` alerts and silences: a store that appends changes asks once what it holds has
   * outgrown the state it describes.
   */
  wantsCompaction(stateEntries: number): boolean;
  /** Replaces everything stored by exactly this state, at once. */
  compact(state: Readonly<StoredState>): void | Promise<void>;
  close(): void | Promise<void>;
}

/**
 * A held alert posted again with only its times changed (Prometheus re-sends every firing alert at
 * each evaluation): stored as those times alone, applied to the alert of that fingerprint.
 */
export interface AlertRenewal {
  fingerprint: string;
  endsAt: number;
  updatedAt: number;
  timeout: boolean;
}

/** A whole alert, not a renewal (an alert has every field a renewal has). */
export function isWholeAlert(write: Alert | AlertRenewal): write is Alert {
  return 'labels' in write;
}

export interface StateChange {
  /** In order: an alert replaces the one of its fingerprint; a renewal changes its times. */
  alerts?: readonly (Alert | AlertRenewal)[];
  silences?: readonly Silence[];
  removedAlerts?: readonly string[];
  removedSilences?: readonly string[];
}
