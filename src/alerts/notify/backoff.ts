/**
 * The waits between tries of a failed send, as Alertmanager's retry stage takes them
 * (cenkalti/backoff's defaults): 500 ms growing by 1.5 up to 60 s, each spread ±50% at random.
 */
export class Backoff {
  private interval = INITIAL_MS;

  constructor(private readonly random: () => number = Math.random) {}

  next(): number {
    const wait = this.interval * (1 - SPREAD + 2 * SPREAD * this.random());
    this.interval = Math.min(this.interval * MULTIPLIER, MAX_MS);
    return wait;
  }
}

const INITIAL_MS = 500;
const MULTIPLIER = 1.5;
const MAX_MS = 60_000;
const SPREAD = 0.5;
