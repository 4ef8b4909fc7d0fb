import type { Counter, Logger } from '../../observability/index.js';

/** At most one log line per this long about alerts refused for ALERTMANAGER_MAX_ALERTS. */
export const REFUSAL_LOG_INTERVAL_MS = 60_000;

/**
 * Alerts refused because ALERTMANAGER_MAX_ALERTS were held: each is counted in the statistic at
 * once, and logged at most once a minute with how many since the last line, so a flood of
 * refused posts costs one line a minute, and the last of them is still told.
 */
export class AlertRefusals {
  private unlogged = 0;
  private lastLogAt = Number.NEGATIVE_INFINITY;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly logger: Logger,
    private readonly counter: Counter,
    private readonly maxAlerts: number,
    private readonly now: () => number,
  ) {}

  refused(count: number): void {
    this.counter.value += count;
    this.unlogged += count;
    const wait = this.lastLogAt + REFUSAL_LOG_INTERVAL_MS - this.now();
    if (wait <= 0) this.log();
    else this.timer ??= setTimeout(() => this.log(), wait).unref();
  }

  /** Logs what is left (at shutdown). */
  close(): void {
    if (this.unlogged > 0) this.log();
  }

  private log(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.lastLogAt = this.now();
    this.logger.warn('new alerts refused: the alert store is full', { refused: this.unlogged, ALERTMANAGER_MAX_ALERTS: this.maxAlerts });
    this.unlogged = 0;
  }
}
