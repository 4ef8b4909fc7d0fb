/**
 * In-process statistics. Counters are plain objects whose `value` the hot path bumps
 * directly (`c.value += n`): no map lookup, no allocation, no I/O per hit, as in gostats.
 * Sinks (statsd, Prometheus) read the store on a flush interval; that comes later.
 */

export interface Counter {
  readonly name: string;
  value: number;
}

export interface Gauge {
  readonly name: string;
  value: number;
}

/** Durations of an operation, in milliseconds (statsd `|ms`). */
export class Timer {
  count = 0;
  sumMs = 0;
  maxMs = 0;

  constructor(readonly name: string) {}

  record(ms: number): void {
    this.count++;
    this.sumMs += ms;
    if (ms > this.maxMs) this.maxMs = ms;
  }
}

/**
 * What changed in one thread's statistics since its previous report: counter increments and
 * timer samples. Plain data, posted to the main thread, whose store is the one sinks read.
 */
export interface StatsDelta {
  counters: Array<[name: string, delta: number]>;
  timers: Array<[name: string, count: number, sumMs: number, maxMs: number]>;
  /** Gauges whose value changed, with their new value (absent when none did). */
  gauges?: Array<[name: string, value: number]>;
}

export class StatsStore {
  private readonly counters = new Map<string, Counter>();
  private readonly gauges = new Map<string, Gauge>();
  private readonly timers = new Map<string, Timer>();
  /** Counter values and timer counts/sums at the last takeDelta(). */
  private readonly reported = new Map<string, number>();
  private readonly reportedGauges = new Map<string, number>();
  /** Other threads' values of a gauge, by thread; a gauge reads as its own value plus these. */
  private readonly remoteGauges = new Map<string, Map<number, number>>();

  /** The counter named `name`, created at 0 on first use. */
  counter(name: string): Counter {
    let counter = this.counters.get(name);
    if (counter === undefined) {
      counter = { name, value: 0 };
      this.counters.set(name, counter);
    }
    return counter;
  }

  gauge(name: string): Gauge {
    let gauge = this.gauges.get(name);
    if (gauge === undefined) {
      gauge = { name, value: 0 };
      this.gauges.set(name, gauge);
    }
    return gauge;
  }

  timer(name: string): Timer {
    let timer = this.timers.get(name);
    if (timer === undefined) {
      timer = new Timer(name);
      this.timers.set(name, timer);
    }
    return timer;
  }

  /** Changes since the previous call; undefined when nothing changed. */
  takeDelta(): StatsDelta | undefined {
    const delta: StatsDelta = { counters: [], timers: [] };
    for (const counter of this.counters.values()) {
      const change = counter.value - (this.reported.get(counter.name) ?? 0);
      if (change !== 0) {
        delta.counters.push([counter.name, change]);
        this.reported.set(counter.name, counter.value);
      }
    }
    for (const timer of this.timers.values()) {
      const countKey = `${timer.name}\0count`;
      const sumKey = `${timer.name}\0sum`;
      const count = timer.count - (this.reported.get(countKey) ?? 0);
      if (count !== 0) {
        delta.timers.push([timer.name, count, timer.sumMs - (this.reported.get(sumKey) ?? 0), timer.maxMs]);
        this.reported.set(countKey, timer.count);
        this.reported.set(sumKey, timer.sumMs);
      }
    }
    const gauges: Array<[string, number]> = [];
    for (const gauge of this.gauges.values()) {
      if (this.reportedGauges.get(gauge.name) !== gauge.value) {
        gauges.push([gauge.name, gauge.value]);
        this.reportedGauges.set(gauge.name, gauge.value);
      }
    }
    if (gauges.length > 0) delta.gauges = gauges;
    return delta.counters.length === 0 && delta.timers.length === 0 && gauges.length === 0 ? undefined : delta;
  }

  /** Adds another thread's changes to this store; `source` tells threads' gauge values apart. */
  applyDelta(delta: StatsDelta, source = 0): void {
    for (const [name, value] of delta.gauges ?? []) {
      this.gauge(name);
      let bySource = this.remoteGauges.get(name);
      if (bySource === undefined) this.remoteGauges.set(name, (bySource = new Map()));
      bySource.set(source, value);
    }
    for (const [name, change] of delta.counters) this.counter(name).value += change;
    for (const [name, count, sumMs, maxMs] of delta.timers) {
      const timer = this.timer(name);
      timer.count += count;
      timer.sumMs += sumMs;
      if (maxMs > timer.maxMs) timer.maxMs = maxMs;
    }
  }

  /** Current value of a counter or gauge, 0 if it does not exist. */
  value(name: string): number {
    const counter = this.counters.get(name);
    if (counter !== undefined) return counter.value;
    const gauge = this.gauges.get(name);
    return gauge === undefined ? 0 : this.gaugeTotal(gauge);
  }

  /** A gauge summed over this thread and every thread that reported it (each has its own cache, say). */
  private gaugeTotal(gauge: Gauge): number {
    let total = gauge.value;
    for (const value of this.remoteGauges.get(gauge.name)?.values() ?? []) total += value;
    return total;
  }

  /** Every counter and gauge, and each timer's count, sum and max, as [name, value] sorted by name. */
  snapshot(): Array<[string, number]> {
    const all: Array<[string, number]> = [];
    for (const c of this.counters.values()) all.push([c.name, c.value]);
    for (const g of this.gauges.values()) all.push([g.name, this.gaugeTotal(g)]);
    for (const t of this.timers.values()) {
      all.push([`${t.name}.count`, t.count], [`${t.name}.sum_ms`, t.sumMs], [`${t.name}.max_ms`, t.maxMs]);
    }
    all.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
    return all;
  }
}

/** The six statistics of one rate limit rule, created together as upstream does. */
export interface RuleStats {
  totalHits: Counter;
  overLimit: Counter;
  nearLimit: Counter;
  overLimitWithLocalCache: Counter;
  withinLimit: Counter;
  shadowMode: Counter;
}

const RULE_PREFIX = 'ratelimit.service.rate_limit.';

/**
 * Statistic names may not contain `:` or `|` (statsd delimiters) nor dotted IPv4 addresses
 * (dots are path separators), so those become `_`, as upstream does since 2024-01.
 */
export function sanitizeStatName(name: string): string {
  let out = name.replace(/[:|]/g, '_');
  out = out.replace(/\b(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})\b/g, '$1_$2_$3_$4');
  return out;
}

/** Rule statistics for a FullKey (`domain.key_value.key`), cached by key. */
export class RuleStatsFactory {
  private readonly cache = new Map<string, RuleStats>();

  constructor(private readonly store: StatsStore) {}

  forKey(fullKey: string): RuleStats {
    let stats = this.cache.get(fullKey);
    if (stats === undefined) {
      const base = RULE_PREFIX + sanitizeStatName(fullKey) + '.';
      stats = {
        totalHits: this.store.counter(base + 'total_hits'),
        overLimit: this.store.counter(base + 'over_limit'),
        nearLimit: this.store.counter(base + 'near_limit'),
        overLimitWithLocalCache: this.store.counter(base + 'over_limit_with_local_cache'),
        withinLimit: this.store.counter(base + 'within_limit'),
        shadowMode: this.store.counter(base + 'shadow_mode'),
      };
      this.cache.set(fullKey, stats);
    }
    return stats;
  }
}
