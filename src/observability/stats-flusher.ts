import type { Logger } from './logger.js';
import { withExtraTags, type StatTag } from './stat-tags.js';
import type { StatsBatch, StatsSink } from './sinks/stats-sink.js';
import type { Counter, StatsStore } from './stats.js';

/** Failed sends to the statistics sink (a daemon down or unreachable, a backed-up connection). */
export const SINK_ERRORS_STAT = 'ratelimit.stats.sink_errors';

/** A sink that keeps failing is logged at most this often. */
const SINK_ERROR_LOG_INTERVAL_MS = 60_000;

export interface StatsFlusherOptions {
  /** The main thread's store, where every thread's changes add up. */
  store: StatsStore;
  sink: StatsSink;
  intervalMs: number;
  extraTags: readonly StatTag[];
  /** Brings the store up to date before a flush: the other threads' latest changes, sampled gauges. */
  refresh: () => Promise<void>;
  logger: Logger;
  /** Names the sink in log lines. */
  sinkName: string;
  /** Milliseconds now (tests set it); Date.now by default. */
  now?: () => number;
}

/**
 * Sends the statistics to the sink every STATS_FLUSH_INTERVAL, as upstream's gostats store does:
 * counters as their change since the previous flush (unchanged ones left out), every gauge, and the
 * timers' samples. It runs on the main thread, off every request path; a failing sink is counted in
 * `ratelimit.stats.sink_errors` and logged at most once a minute.
 */
export class StatsFlusher {
  private readonly timer: NodeJS.Timeout;
  private readonly sinkErrors: Counter;
  private readonly taggedNames = new Map<string, string>();
  private flushing: Promise<void> | undefined;
  private lastErrorLogAt = -Infinity;
  /** Failures since the last line logged, which the next line counts. */
  private unloggedErrors = 0;
  private closed = false;

  constructor(private readonly options: StatsFlusherOptions) {
    this.sinkErrors = options.store.counter(SINK_ERRORS_STAT);
    this.timer = setInterval(() => void this.flush(), options.intervalMs);
    this.timer.unref();
  }

  /**
   * Called by the sink for each failed send. The first failure is logged at once; while the sink
   * keeps failing, one line a minute says how many failed since (a daemon that is down for a day
   * writes 1,440 lines, not one per flush).
   */
  readonly onSinkError = (error: Error): void => {
    this.sinkErrors.value++;
    this.unloggedErrors++;
    const now = (this.options.now ?? Date.now)();
    if (now - this.lastErrorLogAt < SINK_ERROR_LOG_INTERVAL_MS) return;
    this.lastErrorLogAt = now;
    this.options.logger.warn('statistics sink failed; statistics of this flush may be lost', {
      sink: this.options.sinkName,
      error: error.message,
      failedSinceLastLine: this.unloggedErrors,
      errors: this.sinkErrors.value,
    });
    this.unloggedErrors = 0;
  };

  /** One flush now (a flush already running is joined, not doubled). */
  flush(): Promise<void> {
    this.flushing ??= this.flushOnce().finally(() => {
      this.flushing = undefined;
    });
    return this.flushing;
  }

  private async flushOnce(): Promise<void> {
    // Not ready: the changes stay in the store and go with the next flush that can send.
    if (this.options.sink.ready?.() === false && !this.closed) return;
    await this.options.refresh();
    const batch = this.takeBatch();
    try {
      this.options.sink.send(batch);
    } catch (error) {
      this.onSinkError(error instanceof Error ? error : new Error(String(error)));
    }
  }

  private takeBatch(): StatsBatch {
    const delta = this.options.store.takeDelta();
    const tagged = (name: string) => this.tagged(name);
    return {
      counters: (delta?.counters ?? []).map(([name, change]) => [tagged(name), change] as const),
      gauges: this.options.store.gaugeValues().map(([name, value]) => [tagged(name), value] as const),
      timers: (delta?.timers ?? []).map((timer) => ({ ...timer, name: tagged(timer.name) })),
    };
  }

  /** The name with EXTRA_TAGS, computed once per name (names are bounded by STATS_MAX_NAMES). */
  private tagged(name: string): string {
    let full = this.taggedNames.get(name);
    if (full === undefined) {
      full = withExtraTags(name, this.options.extraTags);
      this.taggedNames.set(name, full);
    }
    return full;
  }

  /** A last flush, so nothing counted before a stop is lost, then the sink's connection closes. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    clearInterval(this.timer);
    await this.flush();
    await this.options.sink.close();
  }
}
