/** Source of "now" in whole Unix seconds; injected so window logic is testable without sleeping. */
export interface Clock {
  nowSeconds(): number;
  /**
   * Now in Unix milliseconds, for the sliding window and token bucket, which count within a
   * window; a clock without it is read as the start of its current second.
   */
  nowMilliseconds?(): number;
}

export const systemClock: Clock = {
  nowSeconds: () => Math.floor(Date.now() / 1000),
  nowMilliseconds: () => Date.now(),
};

/** A clock tests set by hand. */
export class ManualClock implements Clock {
  /** Milliseconds past `now`'s second, in [0, 1000). */
  milliseconds = 0;

  constructor(public now: number) {}
  nowSeconds(): number {
    return this.now;
  }
  nowMilliseconds(): number {
    return this.now * 1000 + this.milliseconds;
  }
  /** Sets the time to a Unix millisecond. */
  setMilliseconds(ms: number): void {
    this.now = Math.floor(ms / 1000);
    this.milliseconds = ms - this.now * 1000;
  }
}
