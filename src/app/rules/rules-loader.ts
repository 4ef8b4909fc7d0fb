import { Worker } from 'node:worker_threads';
import { ServiceError, type Result } from '../../errors/index.js';
import type { XdsResource } from '../../config/index.js';
import type { Logger } from '../../observability/index.js';
import type { LoadedRules, LoadReply, LoadRequest } from './rules-loader-messages.js';
import type { RulesLoaderData } from './rules-loader-thread.js';
import { threadEntryFile } from '../thread-entries.js';

const WORKER_FILE = threadEntryFile('rulesLoader');

export interface RulesLoaderOptions {
  data: RulesLoaderData;
  /** CONFIG_LOADER_MAX_HEAP_MB: the loader thread's old-generation heap. */
  maxHeapMb: number;
  /** CONFIG_LOAD_TIMEOUT: a load that takes longer is abandoned (its thread is ended). */
  timeoutMs: number;
  logger: Logger;
}

/**
 * Main thread: runs each load of the rules on the rules loader thread and waits for its answer.
 * A loader thread that runs out of its heap, crashes or takes too long is replaced for the next
 * load, and the load that killed it is a failed load: the rules in service stay.
 */
export class RulesLoader {
  private worker: Worker | undefined;
  private nextId = 1;

  constructor(private readonly options: RulesLoaderOptions) {}

  /** Loads the rules files, or with `resources` the rules an xDS server sent. */
  load(resources?: XdsResource[]): Promise<Result<LoadedRules>> {
    const worker = (this.worker ??= this.spawn());
    const id = this.nextId++;
    // Held while a load runs (at startup nothing else keeps the process alive); idle, it must not.
    worker.ref();
    return new Promise((resolve) => {
      const finish = (result: Result<LoadedRules>) => {
        worker.unref();
        clearTimeout(timer);
        worker.off('message', onMessage);
        worker.off('error', onError);
        worker.off('exit', onExit);
        resolve(result);
      };
      const onMessage = (reply: LoadReply) => {
        if (reply.id !== id) return;
        finish(reply.ok ? { ok: true, value: reply.rules } : { ok: false, error: new ServiceError(reply.error.code, reply.error.message) });
      };
      const onError = (error: Error & { code?: string }) => {
        this.discard(worker);
        const outOfMemory = error.code === 'ERR_WORKER_OUT_OF_MEMORY';
        finish({
          ok: false,
          error: outOfMemory
            ? new ServiceError('CFG_TOO_LARGE', `loading the rules needed more than CONFIG_LOADER_MAX_HEAP_MB (${this.options.maxHeapMb} MiB) of memory`)
            : new ServiceError('CFG_INVALID', `the rules loader failed: ${error.message}`),
        });
      };
      const onExit = (code: number) => {
        this.discard(worker);
        finish({ ok: false, error: new ServiceError('CFG_INVALID', `the rules loader stopped (exit code ${code})`) });
      };
      const timer = setTimeout(() => {
        this.discard(worker);
        void worker.terminate();
        finish({ ok: false, error: new ServiceError('CFG_INVALID', `loading the rules took longer than CONFIG_LOAD_TIMEOUT (${this.options.timeoutMs} ms)`) });
      }, this.options.timeoutMs);
      worker.on('message', onMessage);
      worker.once('error', onError);
      worker.once('exit', onExit);
      const request: LoadRequest = { id, resources };
      worker.postMessage(request);
    });
  }

  private spawn(): Worker {
    const worker = new Worker(WORKER_FILE, {
      workerData: this.options.data,
      resourceLimits: { maxOldGenerationSizeMb: this.options.maxHeapMb },
    });
    return worker;
  }

  private discard(worker: Worker): void {
    if (this.worker === worker) this.worker = undefined;
  }

  async close(): Promise<void> {
    const worker = this.worker;
    this.worker = undefined;
    await worker?.terminate();
  }
}
