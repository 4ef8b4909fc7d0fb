import { DueQueue } from './due-queue.js';
import type { Alert } from './model.js';

/**
 * The alerts Alertmanager holds, by fingerprint, with its merge rules for a re-posted label set
 * (provider/mem.Put and types.Alert.Merge). A resolved alert stays `resolvedRetentionMs` after
 * its end (Alertmanager keeps it until its next GC, for the resolved notification), then
 * `dropResolved` removes it: the alerts in the queue of drops due come out first, so a drop
 * costs the alerts it removes, not a walk over every alert.
 */
export class AlertStore {
  private readonly alerts = new Map<string, Alert>();
  private readonly drops = new DueQueue();

  constructor(private readonly resolvedRetentionMs: number) {}

  get size(): number {
    return this.alerts.size;
  }

  get(fingerprint: string): Alert | undefined {
    return this.alerts.get(fingerprint);
  }

  has(fingerprint: string): boolean {
    return this.alerts.has(fingerprint);
  }

  values(): IterableIterator<Alert> {
    return this.alerts.values();
  }

  /** Loads an alert as it was stored (on startup), without merging; `scheduleAll` follows the last one. */
  restore(alert: Alert): void {
    this.alerts.set(alert.fingerprint, alert);
  }

  /** Gives the held alert of that fingerprint the times the durable store says it was renewed with (on startup). */
  restoreRenewal(renewal: { fingerprint: string; endsAt: number; updatedAt: number; timeout: boolean }): void {
    const held = this.alerts.get(renewal.fingerprint);
    if (held !== undefined) this.alerts.set(held.fingerprint, { ...held, endsAt: renewal.endsAt, updatedAt: renewal.updatedAt, timeout: renewal.timeout });
  }

  /** Removes an alert the durable store says was removed (on startup). */
  forget(fingerprint: string): void {
    this.alerts.delete(fingerprint);
  }

  /** Schedules the drop of every alert held, afresh (after loading, and when stale entries pile up). */
  scheduleAll(): void {
    this.drops.rebuild([...this.alerts.values()].map((alert) => [alert.fingerprint, this.dropTime(alert)]));
  }

  /**
   * Stores `alert`, merged with the one of the same fingerprint when their intervals overlap
   * (strictly), replacing it otherwise. Returns what was stored.
   */
  put(alert: Alert, now: number): Alert {
    return this.putOver(alert, this.alerts.get(alert.fingerprint), now);
  }

  /**
   * `put`, for a caller that has just looked up the alert held under `alert`'s fingerprint
   * (`old`, from `get`): a POST of new label sets would otherwise look each up twice in a map of
   * every alert held.
   */
  putOver(alert: Alert, old: Alert | undefined, now: number): Alert {
    const stored = old !== undefined && overlaps(old, alert) ? merge(old, alert, now) : alert;
    this.alerts.set(alert.fingerprint, stored);
    // The old entry serves when the drop time did not move.
    if (old === undefined || this.dropTime(old) !== this.dropTime(stored)) this.drops.push(stored.fingerprint, this.dropTime(stored));
    return stored;
  }

  /** Whether `alert` would be dropped at `now` already (resolved longer ago than the retention). */
  isPastRetention(alert: Alert, now: number): boolean {
    return this.dropTime(alert) <= now;
  }

  /**
   * Removes every alert resolved `resolvedRetentionMs` or more before `now`, except those `keep`
   * holds on to for now (a resolved notification still to go out), which are tried again a
   * retention later; returns the fingerprints removed.
   */
  dropResolved(now: number, keep?: (fingerprint: string) => boolean): string[] {
    const gone: string[] = [];
    const later: string[] = [];
    while (this.drops.peekTime() <= now) {
      const fingerprint = this.drops.pop() as string;
      const alert = this.alerts.get(fingerprint);
      // An entry of an alert since re-posted with a later end, or already dropped.
      if (alert === undefined || this.dropTime(alert) > now) continue;
      if (keep?.(fingerprint) === true) {
        later.push(fingerprint);
        continue;
      }
      this.alerts.delete(fingerprint);
      gone.push(fingerprint);
    }
    for (const fingerprint of later) this.drops.push(fingerprint, now + Math.max(this.resolvedRetentionMs, 1000));
    // Re-posts leave an entry each; Prometheus re-sends every alert about once a minute.
    if (this.drops.size > 2 * this.alerts.size + 1024) this.scheduleAll();
    return gone;
  }

  private dropTime(alert: Alert): number {
    return Number.isFinite(alert.endsAt) ? alert.endsAt + this.resolvedRetentionMs : Number.NEGATIVE_INFINITY;
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
