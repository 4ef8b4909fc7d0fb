import { Piscina } from 'piscina';
import type { NotationRender, NotationRenderer } from './notation-renderer.js';

/** A task for the render worker (its entry file is app/render-worker.ts). */
export type RenderTask = { kind: 'engrave'; musicXml: string } | { kind: 'json'; musicXml: string };

export interface RenderPoolOptions {
  workerFile: string;
  threads: number;
  /** Nice value the worker threads set on themselves. */
  nice: number;
}

/**
 * Engraving on a piscina pool: a 50-page score keeps a thread busy for seconds, which must be
 * none of the threads answering HTTP or decisions. Threads start on first use and stop when idle,
 * so a service that never exports never pays for verovio's memory.
 */
export class PooledNotationRenderer implements NotationRenderer {
  private readonly pool: Piscina<RenderTask, NotationRender | string>;

  constructor({ workerFile, threads, nice }: RenderPoolOptions) {
    this.pool = new Piscina({ filename: workerFile, workerData: { nice }, minThreads: 0, maxThreads: threads, idleTimeout: 60_000 });
  }

  async render(musicXml: string): Promise<NotationRender> {
    return (await this.pool.run({ kind: 'engrave', musicXml })) as NotationRender;
  }

  async toJson(musicXml: string): Promise<string> {
    return (await this.pool.run({ kind: 'json', musicXml })) as string;
  }

  close(): Promise<void> {
    return this.pool.destroy();
  }
}
