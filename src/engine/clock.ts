/** Source of "now" in whole Unix seconds; injected so window logic is testable without sleeping. */
export interface Clock {
  nowSeconds(): number;
}

export const systemClock: Clock = {
  nowSeconds: () => Math.floor(Date.now() / 1000),
};

/** A clock tests set by hand. */
export class ManualClock implements Clock {
  constructor(public now: number) {}
  nowSeconds(): number {
    return this.now;
  }
}
