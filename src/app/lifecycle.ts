import type { Logger } from '../observability/index.js';

/** Undoes one part; `leftMs` is what remains of the stop's deadline, for a part that drains. */
type Closer = (leftMs: number) => Promise<void> | void;

/**
 * What undoes each started part of the service, in one stack: a part registers its closer as soon
 * as it has started, and `close` unwinds them in reverse, the same way after a failed start as at
 * a stop. Every closer runs within what is left of one deadline: a sink or store that never calls
 * back is logged and left behind, so a stop always ends.
 */
export class Lifecycle {
  private readonly closers: Array<{ name: string; close: Closer; maxMs: number }> = [];
  private closing: Promise<void> | undefined;

  constructor(private readonly logger: Logger) {}

  /**
   * Registers how to undo a part that has just started; `maxMs` bounds that part alone, for one
   * whose last work is worth a moment but not the whole deadline.
   */
  add(name: string, close: Closer, maxMs = Infinity): void {
    this.closers.push({ name, close, maxMs });
  }

  /** Closes every part, last started first, all within `deadlineMs`; resolves in time whatever a part does. */
  close(deadlineMs: number): Promise<void> {
    this.closing ??= this.unwind(performance.now() + deadlineMs);
    return this.closing;
  }

  private async unwind(deadline: number): Promise<void> {
    for (const { name, close, maxMs } of this.closers.reverse()) {
      const leftMs = Math.min(maxMs, Math.max(0, deadline - performance.now()));
      const outcome = await withinMs(leftMs, () => close(leftMs));
      if (outcome === 'late') this.logger.error(`stopping ${name} did not finish in time; left behind`);
      else if (outcome instanceof Error) this.logger.error(`stopping ${name} failed`, { error: outcome.message });
    }
  }
}

async function withinMs(ms: number, work: () => Promise<void> | void): Promise<'done' | 'late' | Error> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<'late'>((resolve) => (timer = setTimeout(() => resolve('late'), ms)));
  try {
    return await Promise.race([Promise.resolve().then(work).then(() => 'done' as const), late]);
  } catch (error) {
    return error instanceof Error ? error : new Error(String(error));
  } finally {
    clearTimeout(timer);
  }
}
