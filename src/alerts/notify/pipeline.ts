import type { Logger } from '../../observability/index.js';
import type { AlertmanagerConfig, Route } from '../config/model.js';
import type { LabelSet } from '../matchers/matcher.js';
import type { Alert } from '../model.js';
import { mutedBy } from '../muting.js';
import { ZERO_TIME } from '../time.js';
import { Backoff } from './backoff.js';
import { sleep, type Clock } from './clock.js';
import { sendReason, type SendReason } from './dedup.js';
import type { FlushSignals } from './aggregation-group.js';
import type { Integration, NotifyResult } from './integration.js';
import type { NotificationLog } from './notification-log.js';
import type { NotificationAttempt } from './notification-store.js';
import type { NotifyMetrics } from './notify-metrics.js';

/** Whether an alert is held back at send time: inhibited by another alert, or silenced. */
export interface Suppression {
  inhibited(alert: Alert): boolean;
  silenced(alert: Alert): boolean;
}

export interface PipelineParts {
  clock: Clock;
  log: NotificationLog;
  /** Keeps one attempt in the history. */
  recordAttempt(attempt: NotificationAttempt): void;
  metrics: NotifyMetrics;
  logger: Logger;
  externalUrl: string;
  /** Spreads retry waits; Math.random unless a test fixes it. */
  random?: () => number;
}

/** One flush of one aggregation group, as the group hands it over. */
export interface GroupFlush {
  config: AlertmanagerConfig;
  route: Route;
  groupKey: string;
  groupLabels: LabelSet;
  /** The group's alerts at the flush, sorted; firing ones with `endsAt` zeroed. */
  alerts: readonly Alert[];
  integrations: readonly Integration[];
  suppression: Suppression;
  now: number;
  /** End the flush's sends (its deadline) and its waits between tries (the deadline, or a stop). */
  signals: FlushSignals;
}

/** Alertmanager's `integration[index]` naming of one receiver entry, as in its logs and our history. */
export function integrationName(integration: Integration): string {
  return `${integration.kind}[${integration.index}]`;
}

/**
 * Alertmanager's notification pipeline for one flush: inhibited alerts out, nothing sent while
 * the route is muted (active and mute time intervals), silenced alerts out; then per
 * integration, at once: the dedup decision against the notification log, the send with retries
 * until the flush's deadline, and the log entry, written before the flush counts as done.
 * True when every integration is done with this group (sent, or had nothing to send): only then
 * are the resolved alerts taken out of the group.
 */
export async function runPipeline(flush: GroupFlush, parts: PipelineParts): Promise<boolean> {
  const notInhibited = flush.alerts.filter((alert) => !flush.suppression.inhibited(alert));
  if (notInhibited.length === 0) return true;
  if (mutedBy(flush.config, flush.route, new Date(flush.now)).length > 0) return true;
  const alerts = notInhibited.filter((alert) => !flush.suppression.silenced(alert));
  if (alerts.length === 0) return true;
  const outcomes = await Promise.all(flush.integrations.map((integration) => notifyIntegration(flush, integration, alerts, parts)));
  return outcomes.every(Boolean);
}

/** Firing: no end (a flush zeroes the end of firing alerts) or an end still to come. */
function isFiring(alert: Alert, now: number): boolean {
  return alert.endsAt === ZERO_TIME || alert.endsAt > now;
}

async function notifyIntegration(flush: GroupFlush, integration: Integration, alerts: readonly Alert[], parts: PipelineParts): Promise<boolean> {
  const name = integrationName(integration);
  const firing = new Set<string>();
  const resolved = new Set<string>();
  for (const alert of alerts) (isFiring(alert, flush.now) ? firing : resolved).add(alert.fingerprint);
  const receiver = flush.route.receiver;
  const last = parts.log.get(flush.groupKey, receiver, name);
  const reason = sendReason(last, firing, resolved, integration.sendResolved, flush.route.repeatIntervalMs, flush.now);
  if (reason === undefined) return true;
  // Only resolved alerts left and they are not sent: done, and logged, so the next decision knows.
  const sent = integration.sendResolved ? alerts : alerts.filter((alert) => firing.has(alert.fingerprint));
  if (sent.length > 0) {
    const delivered = await sendWithRetries(flush, integration, sent, reason, parts);
    if (!delivered) return false;
  }
  await parts.log.record(flush.groupKey, receiver, name, { firing: [...firing], resolved: [...resolved], at: flush.now });
  return true;
}

/**
 * Tries until a send succeeds, fails for good (a 4xx), or the flush's deadline passes; waits
 * between tries with Alertmanager's backoff. Every try is counted and kept in the history.
 */
async function sendWithRetries(flush: GroupFlush, integration: Integration, alerts: readonly Alert[], reason: SendReason, parts: PipelineParts): Promise<boolean> {
  const name = integrationName(integration);
  const backoff = new Backoff(parts.random);
  const receiver = flush.route.receiver;
  const sentFiring = alerts.filter((alert) => isFiring(alert, flush.now)).map((alert) => alert.fingerprint);
  const sentResolved = alerts.filter((alert) => !isFiring(alert, flush.now)).map((alert) => alert.fingerprint);
  let lastError = '';
  for (let attempt = 1; ; attempt++) {
    const started = parts.clock.now();
    const result: NotifyResult = await integration
      .notify({ receiver, groupKey: flush.groupKey, groupLabels: flush.groupLabels, alerts, externalUrl: parts.externalUrl, signal: flush.signals.sends, now: flush.now })
      .catch((error: unknown): NotifyResult => ({ ok: false, retry: true, reason: 'other', error: String(error) }));
    const durationMs = parts.clock.now() - started;
    parts.metrics.attempted(integration.kind, durationMs, result.ok ? undefined : result.reason);
    const willRetry = !result.ok && result.retry && !flush.signals.waits.aborted;
    parts.recordAttempt({
      at: started,
      receiver,
      integration: name,
      groupKey: flush.groupKey,
      groupLabels: flush.groupLabels,
      firing: sentFiring,
      resolved: sentResolved,
      reason,
      attempt,
      outcome: result.ok ? 'sent' : 'failed',
      ...(result.ok ? {} : { failure: { reason: result.reason, error: result.error, willRetry } }),
      durationMs,
    });
    if (result.ok) return true;
    if (!willRetry) {
      parts.logger.error('notify failed', { receiver, integration: name, group: flush.groupKey, attempts: attempt, error: result.error });
      return false;
    }
    // Alertmanager logs a retried failure once per distinct error.
    if (result.error !== lastError) parts.logger.warn('notify attempt failed, will retry later', { receiver, integration: name, group: flush.groupKey, attempts: attempt, error: result.error });
    lastError = result.error;
    try {
      await sleep(parts.clock, backoff.next(), flush.signals.waits);
    } catch {
      parts.logger.error('notify retry canceled', { receiver, integration: name, group: flush.groupKey, attempts: attempt, error: lastError });
      return false;
    }
  }
}
