/**
 * Long loops on the API thread (loading the state, listing 100,000 alerts, marking them against
 * the silences) run in slices: after `budgetMs` of work the loop awaits `pause()`, which lets the
 * event loop answer what is waiting (`/-/healthy`, other requests) before the loop goes on.
 *
 *   const slicer = new Slicer();
 *   for (const item of items) {
 *     work(item);
 *     if (slicer.due()) await slicer.pause();
 *   }
 */
export class Slicer {
  private sliceStart = performance.now();

  constructor(
    private readonly budgetMs = DEFAULT_SLICE_MS,
    /** Aborted: the next pause throws the abort reason (the service is closing). */
    private readonly signal?: AbortSignal,
  ) {}

  /** True once this slice has used its budget. */
  due(): boolean {
    return performance.now() - this.sliceStart >= this.budgetMs;
  }

  /** Yields to the event loop (after the sockets are polled), then starts a new slice. */
  async pause(): Promise<void> {
    await new Promise<void>((resolve) => setImmediate(resolve));
    this.signal?.throwIfAborted();
    this.sliceStart = performance.now();
  }
}

/** Longest stretch of one loop before the API thread answers other requests again. */
export const DEFAULT_SLICE_MS = 10;
