import { ExportBusy } from './export-errors.js';

interface Waiting {
  start(): void;
}

/**
 * At most `concurrency` jobs at once; up to `maxQueued` more wait their turn in order, and any
 * beyond that are refused at once with ExportBusy naming `setting`, so a burst of exports cannot
 * pile up work (or memory) without end.
 */
export class JobLimiter {
  private running = 0;
  private readonly waiting: Waiting[] = [];

  constructor(
    private readonly concurrency: number,
    private readonly maxQueued: number,
    private readonly setting: string,
  ) {}

  run<T>(job: () => Promise<T>): Promise<T> {
    if (this.running < this.concurrency) return this.start(job);
    if (this.waiting.length >= this.maxQueued) {
      return Promise.reject(new ExportBusy(`${this.waiting.length} exports already wait their turn, as many as ${this.setting} (${this.maxQueued}) allows; try again later`));
    }
    return new Promise<T>((resolve, reject) => {
      this.waiting.push({ start: () => void this.start(job).then(resolve, reject) });
    });
  }

  private async start<T>(job: () => Promise<T>): Promise<T> {
    this.running++;
    try {
      return await job();
    } finally {
      this.running--;
      this.waiting.shift()?.start();
    }
  }
}
