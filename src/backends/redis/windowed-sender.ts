/**
 * KVSTORE_PIPELINE_WINDOW and KVSTORE_PIPELINE_LIMIT: commands issued within the window wait and
 * are written back to back, or as soon as `limit` of them wait. With a window of 0 (the default)
 * every command is written at once; each request is one command already, and Redis answers
 * commands on one connection in order, so nothing waits for a batch.
 */
export class WindowedSender {
  private queue: Array<() => void> = [];
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly windowMs: number,
    private readonly limit: number,
  ) {}

  send<T>(issue: () => Promise<T>): Promise<T> {
    if (this.windowMs === 0) return issue();
    return new Promise<T>((resolve, reject) => {
      this.queue.push(() => issue().then(resolve, reject));
      if (this.limit > 0 && this.queue.length >= this.limit) this.flush();
      else this.timer ??= setTimeout(() => this.flush(), this.windowMs);
    });
  }

  /** Issues every waiting command now (they share one write). */
  flush(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
    const queue = this.queue;
    this.queue = [];
    for (const issue of queue) issue();
  }

  close(): void {
    this.flush();
  }
}
