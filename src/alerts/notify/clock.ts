/**
 * Time as the notification pipeline sees it: the wall clock and one-shot timers. Tests drive
 * group_wait, group_interval and retries with a clock they move themselves.
 */
export interface Clock {
  now(): number;
  /** Calls `fire` once, `ms` from now (at once for 0 or less); `cancel` stops it. */
  after(ms: number, fire: () => void): Cancel;
}

export type Cancel = () => void;

export const systemClock: Clock = {
  now: () => Date.now(),
  after(ms, fire) {
    const timer = setTimeout(fire, Math.max(0, ms));
    // A pending flush must not keep a stopping process alive.
    timer.unref();
    return () => clearTimeout(timer);
  },
};

/** Resolves after `ms` on `clock`, or rejects when `signal` ends first. */
export function sleep(clock: Clock, ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) {
      reject(signal.reason as Error);
      return;
    }
    const onAbort = () => {
      cancel();
      reject(signal.reason as Error);
    };
    const cancel = clock.after(ms, () => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    });
    signal.addEventListener('abort', onAbort, { once: true });
  });
}
