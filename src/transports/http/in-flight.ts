/** Counts requests that have been accepted but not yet answered, so shutdown can drain them. */
export class InFlight {
  count = 0;
  /** Set once shutdown began: every response then closes its connection (`Connection: close`). */
  draining = false;
  private waiters: Array<() => void> = [];

  /** Requests begun so far; `settled` uses it to tell a quiet moment from a busy one. */
  private started = 0;

  begin(): void {
    this.count++;
    this.started++;
  }

  end(): void {
    this.count--;
    if (this.count === 0) {
      const waiters = this.waiters;
      this.waiters = [];
      for (const wake of waiters) wake();
    }
  }

  /** Resolves when nothing is in flight, or after `timeoutMs`. */
  drained(timeoutMs: number): Promise<void> {
    if (this.count === 0) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, timeoutMs);
      this.waiters.push(() => {
        clearTimeout(timer);
        resolve();
      });
    });
  }

  /**
   * Resolves once nothing has been in flight for `quietMs` (or after `timeoutMs`). Requests already
   * sent on kept-alive connections keep arriving for a moment after the listener closes; each is
   * answered with `Connection: close`, and only a quiet connection set is closed.
   */
  async settled(quietMs: number, timeoutMs: number): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      await this.drained(Math.max(0, deadline - Date.now()));
      const seen = this.started;
      await new Promise((resolve) => setTimeout(resolve, quietMs));
      // A starved thread runs due timers before it polls sockets; setImmediate runs after a poll,
      // so bytes that arrived meanwhile have become requests before the check.
      await new Promise((resolve) => setImmediate(resolve));
      if ((this.count === 0 && this.started === seen) || Date.now() >= deadline) return;
    }
  }
}
