import type { Route } from '../config/model.js';
import { compareAlertsInGroup } from '../fingerprint.js';
import type { LabelSet } from '../matchers/matcher.js';
import type { Alert } from '../model.js';
import { ZERO_TIME } from '../time.js';
import type { Cancel, Clock } from './clock.js';

/** A flush's sends get at least this long (Alertmanager's notify.MinTimeout), whatever group_interval says. */
const MIN_FLUSH_TIMEOUT_MS = 10_000;
/** At a stop, a send under way gets this long to finish (and be logged) before it is ended: a receiver that hangs must not hold the stop. */
export const STOP_GRACE_MS = 2000;

/**
 * Ends of one flush: `sends` aborts sends in progress (the flush's deadline passed); `waits`
 * also ends the waits between tries when the service stops, so a stop lets a send that is under
 * way finish (and be logged) but starts no other.
 */
export interface FlushSignals {
  sends: AbortSignal;
  waits: AbortSignal;
}

/** What a group hands to the pipeline at each flush; resolves true when every integration is done with it. */
export type FlushGroup = (group: AggregationGroup, alerts: readonly Alert[], now: number, signals: FlushSignals) => Promise<boolean>;

/**
 * Alertmanager's aggregation group: the alerts of one route node with the same group labels,
 * flushed `group_wait` after the group is created (at once when an alert that arrives before the
 * first flush started longer than group_wait ago), then every `group_interval`. A flush still
 * sending when the next is due delays it. After a flush every integration was done with, its
 * resolved alerts leave the group unless they changed meanwhile.
 */
export class AggregationGroup {
  private readonly alerts = new Map<string, Alert>();
  private hasFlushed = false;
  private cancelTimer: Cancel;
  private flushing: Promise<void> | undefined;
  /** The timer fired while a flush was still running. */
  private dueAgain = false;
  private readonly stopping = new AbortController();
  /** Ends the sends of the flush under way (its deadline, or a stop's grace running out). */
  private sending: AbortController | undefined;

  constructor(
    readonly key: string,
    readonly route: Route,
    readonly labels: LabelSet,
    private readonly clock: Clock,
    private readonly flushGroup: FlushGroup,
    /** Told when an alert leaves the group (resolved and notified). */
    private readonly released: (fingerprint: string) => void,
  ) {
    this.cancelTimer = clock.after(route.groupWaitMs, () => this.due());
  }

  get size(): number {
    return this.alerts.size;
  }

  /** Adds or replaces an alert; true when the group did not hold its fingerprint before. */
  insert(alert: Alert): boolean {
    const added = !this.alerts.has(alert.fingerprint);
    this.alerts.set(alert.fingerprint, alert);
    if (!this.hasFlushed && alert.startsAt + this.route.groupWaitMs < this.clock.now()) {
      this.cancelTimer();
      this.cancelTimer = this.clock.after(0, () => this.due());
    }
    return added;
  }

  /** Stops the timer and the waits between tries; resolves once a send under way has ended (at most STOP_GRACE_MS later). */
  async stop(): Promise<void> {
    this.cancelTimer();
    this.stopping.abort('stopped');
    if (this.flushing === undefined) return;
    // Real time, not the group's clock: the grace bounds how long the process takes to stop.
    const grace = setTimeout(() => this.sending?.abort('stopped'), STOP_GRACE_MS);
    grace.unref();
    await this.flushing;
    clearTimeout(grace);
  }

  private due(): void {
    if (this.stopping.signal.aborted) return;
    if (this.flushing !== undefined) {
      this.dueAgain = true;
      return;
    }
    this.flushing = this.flush()
      .catch(() => undefined)
      .finally(() => {
        this.flushing = undefined;
        if (this.dueAgain) {
          this.dueAgain = false;
          this.due();
        }
      });
  }

  private async flush(): Promise<void> {
    this.cancelTimer();
    this.cancelTimer = this.clock.after(this.route.groupIntervalMs, () => this.due());
    this.hasFlushed = true;
    if (this.alerts.size === 0) return;
    const now = this.clock.now();
    const held = [...this.alerts.values()];
    const resolved = held.filter((alert) => alert.endsAt <= now);
    // Alerts do not resolve while the flush runs: a firing alert goes out with no end.
    const snapshot = held.map((alert) => (alert.endsAt <= now ? alert : { ...alert, endsAt: ZERO_TIME })).sort(compareAlertsInGroup);
    const deadline = new AbortController();
    this.sending = deadline;
    const cancelDeadline = this.clock.after(Math.max(this.route.groupIntervalMs, MIN_FLUSH_TIMEOUT_MS), () => deadline.abort('deadline'));
    const signals = { sends: deadline.signal, waits: AbortSignal.any([deadline.signal, this.stopping.signal]) };
    try {
      const done = await this.flushGroup(this, snapshot, now, signals);
      if (!done) return;
      for (const alert of resolved) {
        if (this.alerts.get(alert.fingerprint) !== alert) continue;
        this.alerts.delete(alert.fingerprint);
        this.released(alert.fingerprint);
      }
    } finally {
      cancelDeadline();
      this.sending = undefined;
    }
  }
}
