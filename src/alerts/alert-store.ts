import type { Alert } from './model.js';

/**
 * The alerts Alertmanager holds, by fingerprint, with its merge rules for a re-posted label set
 * (provider/mem.Put and types.Alert.Merge). Resolved alerts stay until `collect` drops them.
 */
export class AlertStore {
  private readonly alerts = new Map<string, Alert>();

  get size(): number {
    return this.alerts.size;
  }

  get(fingerprint: string): Alert | undefined {
    return this.alerts.get(fingerprint);
  }

  values(): IterableIterator<Alert> {
    return this.alerts.values();
  }

  /** Loads alerts as they were stored (on startup), without merging. */
  restore(alert: Alert): void {
    this.alerts.set(alert.fingerprint, alert);
  }

  /**
   * Stores `alert`, merged with the one of the same fingerprint when their intervals overlap
   * (strictly), replacing it otherwise. Returns what was stored.
   */
  put(alert: Alert, now: number): Alert {
    const old = this.alerts.get(alert.fingerprint);
    const stored = old !== undefined && overlaps(old, alert) ? merge(old, alert, now) : alert;
    this.alerts.set(alert.fingerprint, stored);
    return stored;
  }

  /** Removes every alert resolved at `now`; returns their fingerprints (for the durable store). */
  collect(now: number): string[] {
    const gone: string[] = [];
    for (const [fingerprint, alert] of this.alerts) {
      if (alert.endsAt <= now) {
        this.alerts.delete(fingerprint);
        gone.push(fingerprint);
      }
    }
    return gone;
  }
}

function overlaps(old: Alert, next: Alert): boolean {
  return (next.endsAt > old.startsAt && next.endsAt < old.endsAt) || (next.startsAt > old.startsAt && next.startsAt < old.endsAt);
}

/**
 * types.Alert.Merge: a copy of the newer alert (by updatedAt) with the earliest start; the end
 * of the other one survives only when it is later and was not a resolve_timeout default, or
 * when both are resolved and the other resolved later.
 */
function merge(a: Alert, b: Alert, now: number): Alert {
  const [older, newer] = b.updatedAt >= a.updatedAt ? [a, b] : [b, a];
  const merged: Alert = { ...newer, startsAt: Math.min(older.startsAt, newer.startsAt) };
  const newerResolved = newer.endsAt <= now;
  if (newerResolved) {
    if (older.endsAt <= now && older.endsAt > newer.endsAt) merged.endsAt = older.endsAt;
  } else if (older.endsAt > newer.endsAt && !older.timeout) {
    merged.endsAt = older.endsAt;
  }
  return merged;
}
