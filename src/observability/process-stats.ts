import { monitorEventLoopDelay, performance, PerformanceObserver, type EventLoopUtilization, type IntervalHistogram } from 'node:perf_hooks';
import { getHeapStatistics } from 'node:v8';
import type { Counter, Gauge, StatsStore } from './stats.js';

/** Every process statistic is `ratelimit.node.<figure>`, tagged with the thread it describes. */
export const PROCESS_STATS_PREFIX = 'ratelimit.node.';

/** How finely the event-loop delay is sampled: coarse enough to cost nothing next to the requests. */
const DELAY_RESOLUTION_MS = 20;

/**
 * One thread's figures (the counterpart of upstream's `ratelimit.go.*` runtime statistics), read
 * when statistics are flushed: heap, event-loop delay and utilization since the previous flush, and
 * garbage-collection pauses. The main thread also reports the process's resident memory and CPU.
 */
export class ProcessStats {
  private readonly gauges: Record<'heapUsed' | 'heapTotal' | 'external' | 'delayMax' | 'delayP99' | 'utilization', Gauge>;
  private readonly gcCount: Counter;
  private readonly gcPause: Counter;
  private readonly process: { rss: Gauge; cpuUser: Counter; cpuSystem: Counter } | undefined;
  private readonly delay: IntervalHistogram;
  private readonly gcObserver: PerformanceObserver;
  private lastUtilization: EventLoopUtilization;
  private lastCpu = process.cpuUsage();

  constructor(store: StatsStore, thread: string, options: { processWide: boolean }) {
    const name = (figure: string) => `${PROCESS_STATS_PREFIX}${figure}.__thread=${thread}`;
    this.gauges = {
      heapUsed: store.gauge(name('heap_used_bytes')),
      heapTotal: store.gauge(name('heap_total_bytes')),
      external: store.gauge(name('external_bytes')),
      delayMax: store.gauge(name('event_loop_delay_max_ms')),
      delayP99: store.gauge(name('event_loop_delay_p99_ms')),
      utilization: store.gauge(name('event_loop_utilization_percent')),
    };
    this.gcCount = store.counter(name('gc_count'));
    this.gcPause = store.counter(name('gc_pause_us'));
    this.process = options.processWide
      ? {
          rss: store.gauge(`${PROCESS_STATS_PREFIX}rss_bytes`),
          cpuUser: store.counter(`${PROCESS_STATS_PREFIX}cpu_user_us`),
          cpuSystem: store.counter(`${PROCESS_STATS_PREFIX}cpu_system_us`),
        }
      : undefined;
    this.delay = monitorEventLoopDelay({ resolution: DELAY_RESOLUTION_MS });
    this.delay.enable();
    this.lastUtilization = performance.eventLoopUtilization();
    this.gcObserver = new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) {
        this.gcCount.value++;
        this.gcPause.value += Math.round(entry.duration * 1000);
      }
    });
    this.gcObserver.observe({ entryTypes: ['gc'] });
  }

  /** Reads the figures into the store; delay and utilization cover the time since the previous call. */
  sample(): void {
    const heap = getHeapStatistics();
    this.gauges.heapUsed.value = heap.used_heap_size;
    this.gauges.heapTotal.value = heap.total_heap_size;
    this.gauges.external.value = heap.external_memory;
    // Each sample is the time between two ticks of a DELAY_RESOLUTION_MS timer, so the delay is
    // what exceeds the resolution. An empty histogram (no tick yet) reads as a sentinel, not 0.
    const count = this.delay.count;
    const delayMs = (ns: number) => (count > 0 ? Math.max(0, Math.round(ns / 1e6 - DELAY_RESOLUTION_MS)) : 0);
    this.gauges.delayMax.value = delayMs(this.delay.max);
    this.gauges.delayP99.value = delayMs(this.delay.percentile(99));
    this.delay.reset();
    const utilization = performance.eventLoopUtilization(this.lastUtilization);
    this.lastUtilization = performance.eventLoopUtilization();
    this.gauges.utilization.value = Math.round(utilization.utilization * 100);
    if (this.process !== undefined) {
      this.process.rss.value = process.memoryUsage.rss();
      const cpu = process.cpuUsage();
      this.process.cpuUser.value += cpu.user - this.lastCpu.user;
      this.process.cpuSystem.value += cpu.system - this.lastCpu.system;
      this.lastCpu = cpu;
    }
  }

  close(): void {
    this.delay.disable();
    this.gcObserver.disconnect();
  }
}
