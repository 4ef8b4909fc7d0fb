import { fork, type ChildProcess } from 'node:child_process';
import type { Socket } from 'node:net';
import { setPriority } from 'node:os';
import { ExportFailed, ExportOverLimit } from './export-errors.js';
import { JobLimiter } from './job-limiter.js';
import type { NotationRender, NotationRenderer } from './notation-renderer.js';
import type { RenderLimits, RenderTask, RenderTaskOutcome } from './render-tasks.js';

/** A render process's only argument, as JSON (its entry file is app/apis/render-worker.ts). */
export interface RenderProcessData {
  limits: RenderLimits;
}

export interface RenderRequest {
  id: number;
  task: RenderTask;
}

/** What a render process sends: that it is ready for tasks (verovio loaded), then one reply per task. */
export type RenderProcessMessage = { kind: 'ready' } | { kind: 'reply'; id: number; outcome: RenderTaskOutcome };

export interface RenderPoolOptions {
  entryFile: string;
  /** SCORES_RENDER_THREADS: processes engraving at once. */
  processes: number;
  /** Nice value of the processes, so decisions keep the CPU first. */
  nice: number;
  limits: RenderLimits;
  /** SCORES_RENDER_TIMEOUT: a task running longer ends with its process. */
  timeoutMs: number;
  /** SCORES_EXPORT_MAX_QUEUED: tasks waiting for a process; more are refused. */
  maxQueued: number;
  /** A process idle this long stops, and verovio's memory goes with it. */
  idleMs?: number;
}

interface RenderProcess {
  child: ChildProcess;
  /** Settles once the process has loaded verovio: a task's budget starts when the process can work on it. */
  ready: Promise<void>;
  /** The end of what it wrote to stderr: why it stopped, when it did. */
  stderr: string;
  /** V8 said its heap ran out (before the stack trace that follows, which may push it out of `stderr`). */
  heapExhausted: boolean;
  idleTimer?: NodeJS.Timeout;
}

const TASK_NAMES: Readonly<Record<RenderTask['kind'], string>> = { engrave: 'engraving', json: 'the JSON export', pdf: 'the PDF export', png: 'the PNG export' };
const STDERR_KEPT = 4096;
/**
 * How long a new process may take to load verovio (about a second; more on a loaded machine).
 * Not a task's budget: it does not depend on the score, only on the machine.
 */
const READY_WITHIN_MS = 30_000;
/** What V8 writes when a heap passes --max-old-space-size, before it aborts the process. */
const HEAP_EXHAUSTED = /JavaScript heap out of memory/;

/** The last thing a process wrote to stderr, as the end of a sentence ('' when nothing). */
function lastLine(stderr: string): string {
  const line = stderr.trim().split('\n').pop()?.trim() ?? '';
  return line === '' ? '' : `: ${line.slice(0, 200)}`;
}

function describeStop(code: number | null, signal: NodeJS.Signals | null): string {
  return signal === null ? `exit code ${code}` : `signal ${signal}`;
}

/**
 * Engraving in processes of its own, each task within a budget: a 50-page score keeps a process
 * busy for seconds, which must be none of the threads answering HTTP or decisions, and a hostile
 * score must not take the service with it. Processes rather than worker threads: a worker
 * thread's heap limit is best effort, and a thread that passes it can abort the whole process
 * (nodejs/node#47224); a process that does is only itself. A task that runs past
 * SCORES_RENDER_TIMEOUT, or whose process runs out of SCORES_RENDER_MAX_MEMORY_MB, fails at once
 * with an error naming the setting; its process is ended and the tasks queued behind it go on in
 * a fresh one. Processes start on first use and stop when idle, so a service that never exports
 * never pays for verovio's memory.
 */
export class PooledNotationRenderer implements NotationRenderer {
  private readonly limiter: JobLimiter;
  private readonly idle: RenderProcess[] = [];
  private readonly processes = new Set<RenderProcess>();
  private nextId = 1;
  private closed = false;

  constructor(private readonly options: RenderPoolOptions) {
    this.limiter = new JobLimiter(options.processes, options.maxQueued, 'SCORES_EXPORT_MAX_QUEUED');
  }

  async render(musicXml: string): Promise<NotationRender> {
    return (await this.limiter.run(() => this.inProcess({ kind: 'engrave', musicXml }))) as NotationRender;
  }

  async toJson(musicXml: string): Promise<string> {
    return (await this.limiter.run(() => this.inProcess({ kind: 'json', musicXml }))) as string;
  }

  async pdf(svgFiles: readonly string[], title: string, pdfFile: string): Promise<void> {
    await this.limiter.run(() => this.inProcess({ kind: 'pdf', svgFiles, title, pdfFile }));
  }

  async png(svgFile: string, dpi: number, pngFile: string): Promise<void> {
    await this.limiter.run(() => this.inProcess({ kind: 'png', svgFile, dpi, pngFile }));
  }

  close(): Promise<void> {
    this.closed = true;
    for (const worker of [...this.processes]) this.discard(worker);
    return Promise.resolve();
  }

  private spawn(): RenderProcess {
    const { entryFile, nice, limits } = this.options;
    const data: RenderProcessData = { limits };
    // Its own V8 flags, not the service's (NODE_OPTIONS included): the heap limit is the budget, and nothing else is inherited.
    const env = { ...process.env };
    delete env['NODE_OPTIONS'];
    const child = fork(entryFile, [JSON.stringify(data)], { env, execArgv: [`--max-old-space-size=${limits.maxMemoryMb}`], serialization: 'advanced', stdio: ['ignore', 'ignore', 'pipe', 'ipc'] });
    if (child.pid !== undefined) {
      try {
        setPriority(child.pid, nice);
      } catch {
        // Already gone: its failure is reported below.
      }
    }
    const worker: RenderProcess = { child, ready: Promise.resolve(), stderr: '', heapExhausted: false };
    child.stderr?.on('data', (chunk: Buffer) => {
      const text = worker.stderr + chunk.toString('utf8');
      if (HEAP_EXHAUSTED.test(text)) worker.heapExhausted = true;
      worker.stderr = text.slice(-STDERR_KEPT);
    });
    worker.ready = new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`it was not ready within ${READY_WITHIN_MS / 1000} s`)), READY_WITHIN_MS);
      const onMessage = (message: RenderProcessMessage) => {
        if (message.kind !== 'ready') return;
        clearTimeout(timer);
        child.off('message', onMessage);
        resolve();
      };
      child.on('message', onMessage);
      child.once('error', (error) => (clearTimeout(timer), reject(error)));
      child.once('close', (code, signal) => {
        clearTimeout(timer);
        const why = worker.heapExhausted ? `: its heap ran out (SCORES_RENDER_MAX_MEMORY_MB is ${limits.maxMemoryMb})` : lastLine(worker.stderr);
        reject(new Error(`it stopped (${describeStop(code, signal)})${why}`));
      });
    });
    // Observed by the task that waits for it; this keeps one that fails unwatched from being unhandled.
    worker.ready.catch(() => undefined);
    // A process that dies while idle is simply gone; one that dies on a task fails that task (below).
    child.on('error', () => this.discard(worker));
    child.on('close', () => this.discard(worker));
    this.processes.add(worker);
    return worker;
  }

  /** Runs one task in an idle process, or a new one: the limiter lets no more tasks through than there may be processes. */
  private async inProcess(task: RenderTask): Promise<NotationRender | string | null> {
    if (this.closed) throw new ExportFailed('the service is stopping');
    const worker = this.idle.pop() ?? this.spawn();
    clearTimeout(worker.idleTimer);
    this.holdOpen(worker, true);
    try {
      await worker.ready;
    } catch (error) {
      this.discard(worker);
      throw new ExportFailed(`a render process could not start: ${(error as Error).message}`);
    }
    return this.runIn(worker, task);
  }

  /** The task in a ready process, within SCORES_RENDER_TIMEOUT and SCORES_RENDER_MAX_MEMORY_MB; past either, the process ends. */
  private runIn(worker: RenderProcess, task: RenderTask): Promise<NotationRender | string | null> {
    const { child } = worker;
    const id = this.nextId++;
    const { timeoutMs, limits } = this.options;
    const name = TASK_NAMES[task.kind];
    return new Promise((resolve, reject) => {
      const settle = (keepProcess: boolean, result: () => void) => {
        clearTimeout(timer);
        child.off('message', onMessage);
        child.off('close', onClose);
        if (keepProcess) this.release(worker);
        else this.discard(worker);
        result();
      };
      const onMessage = (message: RenderProcessMessage) => {
        if (message.kind !== 'reply' || message.id !== id) return;
        const { outcome } = message;
        if (outcome.ok) return settle(true, () => resolve(outcome.value));
        settle(!outcome.retire, () => reject(outcome.overLimit ? new ExportOverLimit(outcome.message) : new ExportFailed(outcome.message)));
      };
      const onClose = (code: number | null, signal: NodeJS.Signals | null) => {
        const error = worker.heapExhausted
          ? new ExportOverLimit(`${name} needed more than SCORES_RENDER_MAX_MEMORY_MB (${limits.maxMemoryMb} MiB) of memory`)
          : new ExportFailed(`the render process stopped (${describeStop(code, signal)})`);
        settle(false, () => reject(error));
      };
      const timer = setTimeout(() => settle(false, () => reject(new ExportOverLimit(`${name} took longer than SCORES_RENDER_TIMEOUT (${timeoutMs} ms)`))), timeoutMs);
      child.on('message', onMessage);
      child.once('close', onClose);
      const request: RenderRequest = { id, task };
      child.send(request);
    });
  }

  /** A busy process keeps the thread that owns the pool alive; an idle one must not. */
  private holdOpen(worker: RenderProcess, busy: boolean): void {
    const handles = [worker.child, worker.child.channel, worker.child.stderr as Socket | null];
    for (const handle of handles) {
      if (busy) handle?.ref();
      else handle?.unref();
    }
  }

  private release(worker: RenderProcess): void {
    if (!this.processes.has(worker)) return;
    this.holdOpen(worker, false);
    this.idle.push(worker);
    worker.idleTimer = setTimeout(() => this.discard(worker), this.options.idleMs ?? 60_000);
    worker.idleTimer.unref();
  }

  /** Ends a process that failed, ran over its budget, or idled: the next task gets a fresh one. */
  private discard(worker: RenderProcess): void {
    if (!this.processes.delete(worker)) return;
    clearTimeout(worker.idleTimer);
    const idleAt = this.idle.indexOf(worker);
    if (idleAt >= 0) this.idle.splice(idleAt, 1);
    worker.child.kill('SIGKILL');
  }
}
