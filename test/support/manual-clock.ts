/**
 * A clock a test moves itself, for code that takes a `Clock` (the alert notification pipeline):
 * timers fire in time order as `advance` passes their due time, and the promises they start get
 * to run between firings.
 *
 *   const clock = new ManualClock(Date.parse('2026-11-21T22:39:24Z'));
 *   await clock.advance(1000); // fires what was due within the next second, in order
 */
import type { Cancel, Clock } from '../../src/alerts/notify/clock.js';

interface PendingTimer {
  at: number;
  order: number;
  fire: () => void;
}

/** Lets callbacks started by a timer run (promise jobs and I/O callbacks already due). */
export function settle(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

export class ManualClock implements Clock {
  private current: number;
  private readonly timers = new Set<PendingTimer>();
  private order = 0;

  constructor(start: number) {
    this.current = start;
  }

  now(): number {
    return this.current;
  }

  after(ms: number, fire: () => void): Cancel {
    const timer: PendingTimer = { at: this.current + Math.max(0, ms), order: this.order++, fire };
    this.timers.add(timer);
    return () => this.timers.delete(timer);
  }

  /** Moves time forward by `ms`, firing every timer due on the way at its own time. */
  async advance(ms: number): Promise<void> {
    const target = this.current + ms;
    for (;;) {
      await settle();
      let next: PendingTimer | undefined;
      for (const timer of this.timers) if (timer.at <= target && (next === undefined || timer.at < next.at || (timer.at === next.at && timer.order < next.order))) next = timer;
      if (next === undefined) break;
      this.timers.delete(next);
      this.current = Math.max(this.current, next.at);
      next.fire();
    }
    this.current = target;
    await settle();
  }

  /** When the next timer is due, if any. */
  nextDue(): number | undefined {
    let at: number | undefined;
    for (const timer of this.timers) if (at === undefined || timer.at < at) at = timer.at;
    return at;
  }
}
