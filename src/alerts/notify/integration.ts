import type { LabelSet } from '../matchers/matcher.js';
import type { Alert } from '../model.js';

/**
 * One receiver integration (a `webhook_configs`, `email_configs`, ... entry) as the notification
 * pipeline drives it: it is handed a group's alerts, builds its own message from them, sends it
 * once, and says how that went. Retries, deduplication and the notification log are the
 * pipeline's; an integration never retries by itself.
 */
export interface Integration {
  /** Alertmanager's integration name, as in its metrics' `integration` label: `webhook`, `email`, `slack`, `pagerduty`, `msteams`. */
  readonly kind: IntegrationKind;
  /** Position among the receiver's integrations of this kind (Alertmanager's `idx`). */
  readonly index: number;
  /** `send_resolved`: whether resolved alerts are sent at all. */
  readonly sendResolved: boolean;
  notify(request: NotifyRequest): Promise<NotifyResult>;
}

export type IntegrationKind = 'webhook' | 'email' | 'slack' | 'pagerduty' | 'msteams';

/** What one send is about: the group, and the alerts to send (resolved ones already left out unless `sendResolved`). */
export interface NotifyRequest {
  /** The receiver's name as configured. */
  receiver: string;
  /** The aggregation group's key, as in the webhook's `groupKey`. */
  groupKey: string;
  groupLabels: LabelSet;
  /** Firing alerts carry their `endsAt` zeroed (Go's zero time), as Alertmanager sends them. */
  alerts: readonly Alert[];
  /** Where the service is reached (`ALERTMANAGER_EXTERNAL_URL`), as in templates' `.ExternalURL`. */
  externalUrl: string;
  /** Ends the attempt: the retry deadline passed or the service stops. */
  signal: AbortSignal;
  now: number;
}

/**
 * Why a send failed, as the `reason` label of `alertmanager_notifications_failed_total`
 * (Alertmanager's notify.Reason).
 */
export type FailureReason = 'clientError' | 'serverError' | 'other' | 'contextCanceled' | 'contextDeadlineExceeded';

export type NotifyResult = { ok: true } | { ok: false; retry: boolean; reason: FailureReason; error: string };
