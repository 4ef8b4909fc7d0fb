import { randomUUID } from 'node:crypto';
import { BroadcastChannel, threadId } from 'node:worker_threads';
import type { StatsDelta, StatsStore } from '../observability/index.js';

/** How often a thread reports its statistics changes unasked. */
export const STATS_REPORT_MS = 100;

type Message =
  | { type: 'delta'; thread: number; delta: StatsDelta | undefined; flush?: number }
  | { type: 'bye'; thread: number }
  | { type: 'flush'; id: number };

/** A channel name unique to one running service (tests run several in one process). */
export function newStatsChannelName(): string {
  return `ratelimit-stats-${randomUUID()}`;
}

/**
 * Runs in every thread other than the main one (HTTP fronts, decision pool workers): sends the
 * thread's statistics changes to the main thread every STATS_REPORT_MS, and at once when asked.
 * A BroadcastChannel reaches the main thread from piscina workers too, which have no port of
 * their own; it is unref'd so it never keeps a thread alive.
 */
export class StatsReporter {
  private readonly channel: BroadcastChannel;
  private readonly timer: NodeJS.Timeout;

  constructor(
    channelName: string,
    private readonly stats: StatsStore,
    /** Runs before the thread answers a flush: figures read only then (heap, event-loop delay). */
    private readonly beforeFlush: () => void = () => {},
  ) {
    this.channel = new BroadcastChannel(channelName);
    this.channel.unref();
    this.channel.onmessage = (event) => {
      const message = (event as { data: Message }).data;
      if (message.type === 'flush') {
        this.beforeFlush();
        this.send(message.id);
      }
    };
    this.timer = setInterval(() => this.send(undefined), STATS_REPORT_MS);
    this.timer.unref();
    // Introduces the thread, so the main thread waits for it when it flushes.
    this.channel.postMessage({ type: 'delta', thread: threadId, delta: this.stats.takeDelta() } satisfies Message);
  }

  private send(flush: number | undefined): void {
    const delta = this.stats.takeDelta();
    if (delta === undefined && flush === undefined) return;
    const message: Message = { type: 'delta', thread: threadId, delta, ...(flush === undefined ? {} : { flush }) };
    this.channel.postMessage(message);
  }

  /** Sends what is left and leaves the channel. */
  close(): void {
    clearInterval(this.timer);
    this.send(undefined);
    this.channel.postMessage({ type: 'bye', thread: threadId } satisfies Message);
    this.channel.close();
  }
}

/**
 * Main thread: adds every thread's reports to the store sinks read, and can ask all threads for
 * their latest changes before a read (so `/stats` is exact, not up to 100 ms behind).
 */
export class StatsCollector {
  private readonly channel: BroadcastChannel;
  private readonly threads = new Set<number>();
  private nextFlush = 1;
  private readonly waiting = new Map<number, { pending: Set<number>; done: () => void }>();

  constructor(
    readonly channelName: string,
    private readonly stats: StatsStore,
  ) {
    this.channel = new BroadcastChannel(channelName);
    this.channel.unref();
    this.channel.onmessage = (event) => this.receive((event as { data: Message }).data);
  }

  private receive(message: Message): void {
    if (message.type === 'bye') return this.forget(message.thread);
    if (message.type !== 'delta') return;
    this.threads.add(message.thread);
    if (message.delta !== undefined) this.stats.applyDelta(message.delta, message.thread);
    if (message.flush !== undefined) {
      const wait = this.waiting.get(message.flush);
      if (wait !== undefined) this.answered(wait, message.thread);
    }
  }

  /**
   * Stops waiting for `thread`: it said goodbye, or it died without a word (a terminated thread
   * never does), and flushes must not wait out their timeout for it.
   */
  forget(thread: number): void {
    this.threads.delete(thread);
    this.stats.forgetSource(thread);
    for (const wait of this.waiting.values()) this.answered(wait, thread);
  }

  private answered(wait: { pending: Set<number>; done: () => void }, thread: number): void {
    wait.pending.delete(thread);
    if (wait.pending.size === 0) wait.done();
  }

  /** Resolves once every known thread has sent its latest changes (or after `timeoutMs`). */
  flush(timeoutMs = 2000): Promise<void> {
    if (this.threads.size === 0) return Promise.resolve();
    const id = this.nextFlush++;
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.waiting.delete(id);
        resolve();
      };
      const timer = setTimeout(done, timeoutMs);
      this.waiting.set(id, { pending: new Set(this.threads), done });
      this.channel.postMessage({ type: 'flush', id } satisfies Message);
    });
  }

  close(): void {
    this.channel.close();
  }
}
