import type { StatsStore } from '../../observability/index.js';
import { joinTags } from '../../observability/stat-tags.js';
import type { FailureReason, IntegrationKind } from './integration.js';

/**
 * Alertmanager's notification metrics, under its names, on the service's statistics (and so on
 * `/metrics`): `alertmanager_notifications_total` and `alertmanager_notifications_failed_total`
 * per integration (failures also per reason), and `alertmanager_notification_latency_seconds`.
 * Statistic names carry the labels as tags, which the Prometheus page turns back into labels.
 */
export class NotifyMetrics {
  constructor(private readonly stats: StatsStore) {}

  /** One try of one integration, its duration, and its failure reason when it failed. */
  attempted(kind: IntegrationKind, durationMs: number, failure: FailureReason | undefined): void {
    const integration: [string, string] = ['integration', kind];
    this.stats.counter(joinTags('alertmanager_notifications_total', [integration])).value += 1;
    this.stats.timer(joinTags('alertmanager_notification_latency_seconds', [integration])).record(durationMs);
    if (failure !== undefined) this.stats.counter(joinTags('alertmanager_notifications_failed_total', [integration, ['reason', failure]])).value += 1;
  }
}
