import type { Route } from '../config/model.js';
import { goQuote } from '../matchers/index.js';
import { sortedLabelNames } from '../fingerprint.js';
import type { LabelSet } from '../matchers/matcher.js';
import type { Alert } from '../model.js';
import { groupLabels, matchRoutes } from '../routing.js';
import { AggregationGroup, type FlushGroup } from './aggregation-group.js';
import type { Cancel, Clock } from './clock.js';

/** How often groups left empty are removed (Alertmanager's dispatcher maintenance). */
const MAINTENANCE_MS = 30_000;

/** Prometheus's LabelSet.String: `{a="b", c="d"}`, names sorted, values Go-quoted. */
export function labelSetString(labels: LabelSet): string {
  return `{${sortedLabelNames(labels)
    .map((name) => `${name}=${goQuote(labels[name] as string)}`)
    .join(', ')}}`;
}

/** An aggregation group's key, as Alertmanager prints it (the webhook's `groupKey`): the route's key, `:`, the group labels. */
export function groupKeyOf(route: Route, labels: LabelSet): string {
  return `${route.key}:${labelSetString(labels)}`;
}

/**
 * Alertmanager's dispatcher: each alert goes to the aggregation group of every route it
 * matches (by the route's group labels), a group is made by its first alert, and groups left
 * empty are removed at the next maintenance. Knows which alerts a group still holds, so a
 * resolved alert is kept until its resolved notification went out.
 */
export class Dispatcher {
  private readonly groups = new Map<string, AggregationGroup>();
  /** Per fingerprint, how many groups hold the alert. */
  private readonly holders = new Map<string, number>();
  private cancelMaintenance: Cancel;

  constructor(
    private readonly root: Route,
    private readonly clock: Clock,
    /** Whether a receiver has anything to send to: a receiver with no integrations gets no groups (nothing would be sent, nothing need be held). */
    private readonly sendsTo: (receiver: string) => boolean,
    private readonly flushGroup: FlushGroup,
  ) {
    this.cancelMaintenance = this.scheduleMaintenance();
  }

  get groupCount(): number {
    return this.groups.size;
  }

  put(alert: Alert): void {
    for (const route of matchRoutes(this.root, alert.labels)) {
      if (!this.sendsTo(route.receiver)) continue;
      const labels = groupLabels(route, alert.labels);
      const key = groupKeyOf(route, labels);
      let group = this.groups.get(key);
      if (group === undefined) {
        group = new AggregationGroup(key, route, labels, this.clock, this.flushGroup, (fingerprint) => this.release(fingerprint));
        this.groups.set(key, group);
      }
      if (group.insert(alert)) this.holders.set(alert.fingerprint, (this.holders.get(alert.fingerprint) ?? 0) + 1);
    }
  }

  /** Whether a group still holds the alert (it has not been notified as resolved everywhere). */
  holds(fingerprint: string): boolean {
    return this.holders.has(fingerprint);
  }

  /** Stops every group's timer and ends the sends in progress. */
  async stop(): Promise<void> {
    this.cancelMaintenance();
    await Promise.all([...this.groups.values()].map((group) => group.stop()));
  }

  private release(fingerprint: string): void {
    const count = (this.holders.get(fingerprint) ?? 1) - 1;
    if (count > 0) this.holders.set(fingerprint, count);
    else this.holders.delete(fingerprint);
  }

  private scheduleMaintenance(): Cancel {
    return this.clock.after(MAINTENANCE_MS, () => {
      for (const [key, group] of this.groups) {
        if (group.size > 0) continue;
        void group.stop();
        this.groups.delete(key);
      }
      this.cancelMaintenance = this.scheduleMaintenance();
    });
  }
}
