import { MessageChannel, Worker, type MessagePort } from 'node:worker_threads';
import type { Logger } from '../../observability/index.js';
import type { Settings } from '../../settings/index.js';
import type { StatsCollector } from '../../threads/index.js';
import type { ApiThreadCommand, ApiThreadData, ApiThreadReport } from './api-thread-messages.js';
import { threadEntryFile } from '../thread-entries.js';

const WORKER_FILE = threadEntryFile('apiThread');
/** First wait before starting a crashed API thread again; doubles up to RESTART_MAX_MS. */
const RESTART_FIRST_MS = 100;
const RESTART_MAX_MS = 5000;
/** A stopping API thread that has not closed its stores by then is ended anyway. */
const STOP_TIMEOUT_MS = 5000;

/** Gives a front thread the port of the current API thread, again after every restart. */
export type PortDelivery = (port: MessagePort) => void;

/**
 * Main thread: runs the API thread, connects every HTTP front thread to it with a MessageChannel
 * of its own, and starts it again if it dies (each front then gets a port to the new one;
 * requests that were waiting get 503). Its state is on disk, so a restart loses nothing
 * acknowledged.
 */
export class ApiThreadHost {
  private worker: Worker | undefined;
  /** The current worker once it reported ready; fronts get ports to it only from then on. */
  private serving: Worker | undefined;
  private readonly fronts: PortDelivery[] = [];
  private stopping = false;
  private restartDelay = RESTART_FIRST_MS;
  private restartTimer: NodeJS.Timeout | undefined;
  /** API threads started so far, the first included. */
  starts = 0;
  /** Names of the APIs the current thread has opened. */
  private readonly opened = new Set<string>();
  private openWaiters: Array<() => void> = [];

  constructor(
    private readonly settings: Settings,
    private readonly logger: Logger,
    /** The main thread's end of the statistics channel the API thread reports on. */
    private readonly stats: StatsCollector,
  ) {}

  /**
   * Starts the API thread without waiting for it: the decision listeners never wait on the alert
   * and score APIs. Until it is ready, the fronts have no port and answer 503. A start that fails
   * is logged and tried again, backing off.
   */
  startInBackground(): void {
    this.start().catch((error: unknown) => {
      if (this.stopping) return;
      this.logger.error('the API thread did not start', { error: String(error) });
      this.scheduleRestart();
    });
  }

  /** Resolves once the API thread is ready to serve. */
  async start(): Promise<void> {
    const data: ApiThreadData = { settings: this.settings, statsChannel: this.stats.channelName };
    const worker = new Worker(WORKER_FILE, { workerData: data });
    const threadId = worker.threadId;
    worker.once('exit', () => this.stats.forget(threadId));
    this.worker = worker;
    this.starts++;
    const ready = new Promise<void>((resolve, reject) => {
      const onExit = (code: number) => reject(new Error(`the API thread exited with code ${code} before it was ready`));
      worker.once('error', reject);
      worker.once('exit', onExit);
      worker.once('message', (report: ApiThreadReport) => {
        worker.off('error', reject);
        worker.off('exit', onExit);
        if (report.type === 'ready') resolve();
        else if (report.type === 'failed') reject(new Error(report.message));
        else reject(new Error(`the API thread reported ${report.type} before it was ready`));
      });
    });
    try {
      await ready;
    } catch (error) {
      this.worker = undefined;
      throw error;
    }
    worker.on('message', (report: ApiThreadReport) => {
      if (report.type !== 'opened') return;
      this.opened.add(report.api);
      const waiters = this.openWaiters;
      this.openWaiters = [];
      for (const wake of waiters) wake();
    });
    worker.on('error', (error) => this.logger.error('the API thread failed', { error: String(error) }));
    worker.once('exit', (code) => this.exited(worker, code));
    this.serving = worker;
    for (const deliver of this.fronts) deliver(this.connect(worker));
  }

  /** Resolves once the current API thread has opened every API in `names` (tests wait on it). */
  async whenOpen(names: readonly string[]): Promise<void> {
    while (!names.every((name) => this.opened.has(name))) await new Promise<void>((wake) => this.openWaiters.push(wake));
  }

  /** Registers a front thread; it gets a port now (if the API thread runs) and after every restart. */
  addFront(deliver: PortDelivery): void {
    this.fronts.push(deliver);
    if (this.serving !== undefined) deliver(this.connect(this.serving));
  }

  /** The current API thread, for tests that need to kill it. */
  get thread(): Worker | undefined {
    return this.worker;
  }

  private connect(worker: Worker): MessagePort {
    const { port1, port2 } = new MessageChannel();
    const command: ApiThreadCommand = { type: 'serve', port: port2 };
    worker.postMessage(command, [port2]);
    return port1;
  }

  private exited(worker: Worker, code: number): void {
    if (this.worker === worker) this.worker = undefined;
    if (this.serving === worker) this.serving = undefined;
    this.opened.clear();
    if (this.stopping) return;
    this.logger.error('the API thread stopped; starting it again', { code, inMs: this.restartDelay });
    this.scheduleRestart();
  }

  private scheduleRestart(): void {
    if (this.stopping) return;
    this.restartTimer = setTimeout(() => {
      this.restartTimer = undefined;
      this.start().then(
        () => (this.restartDelay = RESTART_FIRST_MS),
        (error: unknown) => {
          this.logger.error('the API thread did not start', { error: String(error), retryInMs: this.restartDelay });
          this.restartDelay = Math.min(this.restartDelay * 2, RESTART_MAX_MS);
          this.scheduleRestart();
        },
      );
    }, this.restartDelay);
    this.restartTimer.unref();
  }

  /** Asks the API thread to finish and waits for it to exit. */
  async stop(): Promise<void> {
    this.stopping = true;
    clearTimeout(this.restartTimer);
    const worker = this.worker;
    if (worker === undefined) return;
    const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
    // Once it reports its stores closed, what it still waits on (a database connection being
    // attempted) holds nothing worth keeping: it is ended then, not after the timeout.
    worker.on('message', (report: ApiThreadReport) => {
      if (report.type === 'stopped') void worker.terminate();
    });
    const command: ApiThreadCommand = { type: 'stop' };
    worker.postMessage(command);
    const timer = setTimeout(() => void worker.terminate(), STOP_TIMEOUT_MS);
    await exited;
    clearTimeout(timer);
  }
}
