import type { TimerDelta } from '../stats.js';

/** One flush of the statistics, every name already carrying EXTRA_TAGS. */
export interface StatsBatch {
  /** Counters that changed since the previous flush, with the change (zero changes are left out). */
  counters: ReadonlyArray<readonly [name: string, delta: number]>;
  /** Every gauge, with its value now (gauges are sent on every flush). */
  gauges: ReadonlyArray<readonly [name: string, value: number]>;
  /** Timers with samples since the previous flush, by bucket. */
  timers: readonly TimerDelta[];
}

/** Where a flush goes. `send` never throws and never waits: failures go to the sink's error callback. */
export interface StatsSink {
  /** False while the sink cannot send (a connection waiting to be replaced): the flush is left for later. */
  ready?(): boolean;
  send(batch: StatsBatch): void;
  /** Sends what is buffered and releases the connection. */
  close(): Promise<void>;
}

/** A timer's samples as statsd lines: one per non-empty bucket, its mean sent with `1/count` as the sample rate. */
export function timerSamples(timer: TimerDelta): Array<{ valueMs: number; count: number }> {
  const samples: Array<{ valueMs: number; count: number }> = [];
  for (let i = 0; i < timer.counts.length; i++) {
    const count = timer.counts[i] as number;
    if (count > 0) samples.push({ valueMs: (timer.sumsMs[i] as number) / count, count });
  }
  return samples;
}

/** `value|ms` with the sample rate suffix statsd servers scale counts by (`|@0.25` for 4 samples). */
export function timerLineSuffix(valueMs: number, count: number): string {
  const value = Number(valueMs.toFixed(3));
  return count === 1 ? `${value}|ms` : `${value}|ms|@${Number((1 / count).toPrecision(6))}`;
}
