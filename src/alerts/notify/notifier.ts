import type { Logger, StatsStore } from '../../observability/index.js';
import type { AlertmanagerConfig } from '../config/model.js';
import type { Alert } from '../model.js';
import type { AggregationGroup } from './aggregation-group.js';
import { systemClock, type Clock } from './clock.js';
import { Dispatcher } from './dispatcher.js';
import type { Integration } from './integration.js';
import { buildIntegrations } from './integrations.js';
import { NotificationLog } from './notification-log.js';
import type { AttemptQuery, NotificationAttempt, NotificationStore } from './notification-store.js';
import { NotifyMetrics } from './notify-metrics.js';
import { runPipeline, type Suppression } from './pipeline.js';

export interface NotifierOptions {
  config: AlertmanagerConfig;
  store: NotificationStore;
  stats: StatsStore;
  logger: Logger;
  /** `.ExternalURL` of notifications (ALERTMANAGER_EXTERNAL_URL). */
  externalUrl: string;
  /** The configuration file's directory: relative `*_file` paths start there. */
  baseDir: string;
  /** How long a notification log entry is kept (ALERTMANAGER_DATA_RETENTION). */
  logRetentionMs: number;
  /** How long the history keeps an attempt (ALERTMANAGER_NOTIFICATION_HISTORY_RETENTION). */
  historyRetentionMs: number;
  /** Whether alerts are held back at send time, from the alert state as it is then. */
  suppression(now: number): Suppression;
  clock?: Clock;
  random?: () => number;
}

/**
 * Sends notifications as Alertmanager does: alerts go to aggregation groups by route, groups
 * flush on their timers through the pipeline (inhibition, time intervals, silences, dedup
 * against the notification log, retries) to their receiver's integrations; every attempt is
 * kept in a history. A new configuration starts every group afresh (Alertmanager resets group
 * timers on reload); the notification log keeps that from sending anything twice.
 */
export class Notifier {
  private config: AlertmanagerConfig;
  private integrations: Map<string, Integration[]>;
  /** Some receiver has an integration: otherwise alerts are not routed to groups at all. */
  private sendsAnything: boolean;
  private dispatcher: Dispatcher;
  private readonly log: NotificationLog;
  private readonly clock: Clock;
  private readonly metrics: NotifyMetrics;

  constructor(private readonly options: NotifierOptions) {
    this.clock = options.clock ?? systemClock;
    this.config = options.config;
    this.log = new NotificationLog(options.store, options.logRetentionMs);
    this.metrics = new NotifyMetrics(options.stats);
    this.integrations = buildIntegrations(options.config, options.baseDir);
    this.sendsAnything = hasIntegrations(this.integrations);
    this.dispatcher = this.newDispatcher();
  }

  /** Alerts just stored (posted, or loaded at startup): into their groups. */
  alertsStored(alerts: Iterable<Alert>): void {
    // A configuration that sends nothing (receivers without integrations) routes nothing: ingest pays nothing for it.
    if (!this.sendsAnything) return;
    for (const alert of alerts) this.dispatcher.put(alert);
  }

  /** Puts a new configuration into service: groups start again from `alerts`, the ones held. */
  async reconfigure(config: AlertmanagerConfig, alerts: Iterable<Alert>): Promise<void> {
    const old = this.dispatcher;
    this.config = config;
    this.integrations = buildIntegrations(config, this.options.baseDir);
    this.sendsAnything = hasIntegrations(this.integrations);
    this.dispatcher = this.newDispatcher();
    await old.stop();
    this.alertsStored(alerts);
  }

  /** Whether a group still holds the alert: a resolved one is kept until its resolved notification went out. */
  holds(fingerprint: string): boolean {
    return this.dispatcher.holds(fingerprint);
  }

  get groupCount(): number {
    return this.dispatcher.groupCount;
  }

  history(query: AttemptQuery): NotificationAttempt[] {
    return this.options.store.attempts(query);
  }

  /** Drops log entries and history past their retention. */
  prune(now: number): void {
    this.log.prune(now);
    this.options.store.prune(now, now - this.options.historyRetentionMs);
  }

  /** Stops every group and ends the sends in progress. */
  async stop(): Promise<void> {
    await this.dispatcher.stop();
  }

  private newDispatcher(): Dispatcher {
    const config = this.config;
    const integrations = this.integrations;
    const sendsTo = (receiver: string) => (integrations.get(receiver)?.length ?? 0) > 0;
    return new Dispatcher(config.route, this.clock, sendsTo, (group: AggregationGroup, alerts, now, signals) =>
      runPipeline(
        {
          config,
          route: group.route,
          groupKey: group.key,
          groupLabels: group.labels,
          alerts,
          integrations: integrations.get(group.route.receiver) ?? [],
          suppression: this.options.suppression(now),
          now,
          signals,
        },
        {
          clock: this.clock,
          log: this.log,
          recordAttempt: (attempt) => this.options.store.addAttempt(attempt),
          metrics: this.metrics,
          logger: this.options.logger,
          externalUrl: this.options.externalUrl,
          random: this.options.random,
        },
      ),
    );
  }
}

function hasIntegrations(byReceiver: ReadonlyMap<string, readonly Integration[]>): boolean {
  for (const integrations of byReceiver.values()) if (integrations.length > 0) return true;
  return false;
}
