/** One request's part of a batch: where its values start in the batch's answer, and how many. */
interface Waiter {
  start: number;
  count: number;
  resolve(values: number[]): void;
  reject(error: unknown): void;
}

/**
 * Merges the increments of many requests into one script call: every request that arrives in
 * the same event-loop turn (or, with KVSTORE_PIPELINE_WINDOW, within the window; or until
 * KVSTORE_PIPELINE_LIMIT keys wait) shares one command and one round trip. At the rates a
 * sidecar sees, the client's cost per command (a Command object, its promise, the reply parse)
 * is most of the cost per decision, so sharing it is what makes Redis keep up with the fronts.
 * Flushing on setImmediate adds no wait: it runs right after the turn's sockets were read.
 */
export class IncrementBatcher {
  private keys: string[] = [];
  /** hits, ttl per key, in key order. */
  private args: number[] = [];
  private waiters: Waiter[] = [];
  private scheduled = false;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    /** Sends one batch: KEYS = keys, ARGV = hits/ttl pairs; resolves with a value per key. */
    private readonly send: (keys: string[], args: number[]) => Promise<number[]>,
    private readonly windowMs: number,
    private readonly limit: number,
  ) {}

  add(keys: readonly string[], hitsAndTtls: readonly number[]): Promise<number[]> {
    return new Promise((resolve, reject) => {
      this.waiters.push({ start: this.keys.length, count: keys.length, resolve, reject });
      for (const key of keys) this.keys.push(key);
      for (const value of hitsAndTtls) this.args.push(value);
      if (this.limit > 0 && this.keys.length >= this.limit) this.flush();
      else this.schedule();
    });
  }

  /** Sends whatever waits now. */
  flush(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
    this.scheduled = false;
    if (this.waiters.length === 0) return;
    const { keys, args, waiters } = this;
    this.keys = [];
    this.args = [];
    this.waiters = [];
    let sent: Promise<number[]>;
    try {
      sent = this.send(keys, args);
    } catch (error) {
      for (const waiter of waiters) waiter.reject(error);
      return;
    }
    sent.then(
      (values) => {
        for (const waiter of waiters) waiter.resolve(values.slice(waiter.start, waiter.start + waiter.count));
      },
      (error: unknown) => {
        for (const waiter of waiters) waiter.reject(error);
      },
    );
  }

  private schedule(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    if (this.windowMs > 0) this.timer = setTimeout(() => this.flush(), this.windowMs);
    else setImmediate(() => this.flush());
  }
}
