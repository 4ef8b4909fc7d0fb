/**
 * In-process statistics. Counters are objects whose `value` the hot path bumps directly
 * (`c.value += n`): no map lookup, no allocation, no I/O per hit, as in gostats.
 * Sinks (statsd, Prometheus) read the store on a flush interval; that comes later.
 */

/**
 * A counter or gauge. The hot path bumps `value` directly (`c.value += n`); the setter also puts
 * the statistic on its store's list of changes once, so a delta costs what changed since the
 * last one, not every statistic that exists.
 */
export class Counter {
  private current = 0;
  /** Value at the last delta taken (a gauge: the value reported). */
  reported = 0;
  /** On the store's change list since the last delta. */
  changed = false;

  constructor(
    readonly name: string,
    private readonly changes: Counter[],
  ) {}

  get value(): number {
    return this.current;
  }

  set value(next: number) {
    this.current = next;
    if (!this.changed) {
      this.changed = true;
      this.changes.push(this);
    }
  }
}

/** A gauge is a counter whose current value, not its change, is what travels and what sinks show. */
export type Gauge = Counter;

/**
 * Upper bounds (ms) of the buckets a timer sorts its samples into. Sinks cannot send every
 * sample (that would be a line per request), so they send per bucket: statsd a line with the
 * bucket's mean and its count as a sample rate, Prometheus cumulative `le` buckets. The bounds
 * include every bucket of Prometheus' default histogram (5 ms to 10 s) and finer ones below it;
 * the first, 0, keeps apart the zeros of whole-millisecond timers (gRPC response_time).
 */
export const TIMER_BUCKET_BOUNDS_MS: readonly number[] = [
  0, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 25, 50, 100, 250, 500, 1000, 2500, 5000, 10_000,
];
/** Buckets per timer: one per bound, and one for samples above the last bound. */
export const TIMER_BUCKETS = TIMER_BUCKET_BOUNDS_MS.length + 1;

/** Index of the bucket `ms` falls in: the first whose bound is at least `ms`. */
export function timerBucketOf(ms: number): number {
  let i = 0;
  while (i < TIMER_BUCKET_BOUNDS_MS.length && ms > (TIMER_BUCKET_BOUNDS_MS[i] as number)) i++;
  return i;
}

/** Durations of an operation, in milliseconds (statsd `|ms`), with per-bucket counts and sums. */
export class Timer {
  count = 0;
  sumMs = 0;
  maxMs = 0;
  readonly bucketCounts: number[] = new Array<number>(TIMER_BUCKETS).fill(0);
  readonly bucketSumsMs: number[] = new Array<number>(TIMER_BUCKETS).fill(0);
  /** The bucket figures at the last delta taken. */
  readonly reportedCounts: number[] = new Array<number>(TIMER_BUCKETS).fill(0);
  readonly reportedSumsMs: number[] = new Array<number>(TIMER_BUCKETS).fill(0);
  changed = false;

  constructor(
    readonly name: string,
    private readonly changes: Timer[],
  ) {}

  record(ms: number): void {
    const bucket = timerBucketOf(ms);
    (this.bucketCounts[bucket] as number)++;
    (this.bucketSumsMs[bucket] as number) += ms;
    this.count++;
    this.sumMs += ms;
    if (ms > this.maxMs) this.maxMs = ms;
    this.markChanged();
  }

  /** Adds another thread's samples (a delta's buckets). */
  add(counts: readonly number[], sumsMs: readonly number[], maxMs: number): void {
    for (let i = 0; i < TIMER_BUCKETS; i++) {
      const count = counts[i] ?? 0;
      const sum = sumsMs[i] ?? 0;
      (this.bucketCounts[i] as number) += count;
      (this.bucketSumsMs[i] as number) += sum;
      this.count += count;
      this.sumMs += sum;
    }
    if (maxMs > this.maxMs) this.maxMs = maxMs;
    this.markChanged();
  }

  private markChanged(): void {
    if (!this.changed) {
      this.changed = true;
      this.changes.push(this);
    }
  }
}

/** One timer's samples since the previous delta, by bucket (TIMER_BUCKET_BOUNDS_MS). */
export interface TimerDelta {
  name: string;
  counts: number[];
  sumsMs: number[];
  /** The largest sample the timer has ever seen (not only since the previous delta). */
  maxMs: number;
}

/**
 * What changed in one thread's statistics since its previous report: counter increments and
 * timer samples. Plain data, posted to the main thread, whose store is the one sinks read.
 */
export interface StatsDelta {
  counters: Array<[name: string, delta: number]>;
  timers: TimerDelta[];
  /** Gauges whose value changed, with their new value (absent when none did). */
  gauges?: Array<[name: string, value: number]>;
}

/** Where increments of statistics past the STATS_MAX_NAMES bound go. */
export const OVERFLOW_STAT = 'ratelimit.stats.overflow';
/** How many times a new statistic name was refused for the bound (a gauge, summed over threads). */
export const FOLDED_NAMES_STAT = 'ratelimit.stats.names_folded';
/** The default bound on distinct statistic names per store (STATS_MAX_NAMES). */
export const DEFAULT_MAX_STAT_NAMES = 100_000;

/**
 * One thread's statistics. Distinct names are bounded: names from client input (per-value
 * `detailed_metric` rules, limit overrides, unknown domains) could otherwise grow the store, and
 * every sink that reads it, without end. Past `maxNames`, a new counter or timer is the shared
 * overflow counter, and each refusal is counted, so `/stats` says how much was folded.
 */
export class StatsStore {
  private readonly counters = new Map<string, Counter>();
  private readonly gauges = new Map<string, Gauge>();
  private readonly timers = new Map<string, Timer>();
  private readonly changedCounters: Counter[] = [];
  private readonly changedGauges: Gauge[] = [];
  private readonly changedTimers: Timer[] = [];
  /** Other threads' values of a gauge, by thread; a gauge reads as its own value plus these. */
  private readonly remoteGauges = new Map<string, Map<number, number>>();
  private readonly overflow: Counter;
  private readonly folded: Gauge;
  private onFirstFold: (() => void) | undefined;

  constructor(
    readonly maxNames = DEFAULT_MAX_STAT_NAMES,
    /** Called once, when the bound is first reached (a log line). */
    onFirstFold?: () => void,
  ) {
    this.onFirstFold = onFirstFold;
    this.overflow = new Counter(OVERFLOW_STAT, this.changedCounters);
    this.counters.set(OVERFLOW_STAT, this.overflow);
    this.folded = new Counter(FOLDED_NAMES_STAT, this.changedGauges);
    this.gauges.set(FOLDED_NAMES_STAT, this.folded);
  }

  get size(): number {
    return this.counters.size + this.gauges.size + this.timers.size;
  }

  /** Whether another name may be created; counts the refusal when not. */
  private admits(): boolean {
    if (this.size < this.maxNames) return true;
    this.folded.value++;
    if (this.onFirstFold !== undefined) {
      const notify = this.onFirstFold;
      this.onFirstFold = undefined;
      notify();
    }
    return false;
  }

  /** Whether the store has reached its bound (new names are folded). */
  get full(): boolean {
    return this.size >= this.maxNames;
  }

  /** The counter named `name`, created at 0 on first use; the overflow counter past the bound. */
  counter(name: string): Counter {
    let counter = this.counters.get(name);
    if (counter === undefined) {
      if (!this.admits()) return this.overflow;
      counter = new Counter(name, this.changedCounters);
      this.counters.set(name, counter);
    }
    return counter;
  }

  /** Gauges are named by the code, never by client input, so they are not bounded. */
  gauge(name: string): Gauge {
    let gauge = this.gauges.get(name);
    if (gauge === undefined) {
      gauge = new Counter(name, this.changedGauges);
      this.gauges.set(name, gauge);
    }
    return gauge;
  }

  timer(name: string): Timer {
    let timer = this.timers.get(name);
    if (timer === undefined) {
      if (!this.admits()) return new Timer(name, []);
      timer = new Timer(name, this.changedTimers);
      this.timers.set(name, timer);
    }
    return timer;
  }

  /** Changes since the previous call, in proportion to what changed; undefined when nothing did. */
  takeDelta(): StatsDelta | undefined {
    const delta: StatsDelta = { counters: [], timers: [] };
    for (const counter of this.changedCounters) {
      counter.changed = false;
      const change = counter.value - counter.reported;
      if (change !== 0) delta.counters.push([counter.name, change]);
      counter.reported = counter.value;
    }
    this.changedCounters.length = 0;
    for (const timer of this.changedTimers) {
      timer.changed = false;
      const counts = new Array<number>(TIMER_BUCKETS);
      const sumsMs = new Array<number>(TIMER_BUCKETS);
      let samples = 0;
      for (let i = 0; i < TIMER_BUCKETS; i++) {
        counts[i] = (timer.bucketCounts[i] as number) - (timer.reportedCounts[i] as number);
        sumsMs[i] = (timer.bucketSumsMs[i] as number) - (timer.reportedSumsMs[i] as number);
        samples += counts[i] as number;
        timer.reportedCounts[i] = timer.bucketCounts[i] as number;
        timer.reportedSumsMs[i] = timer.bucketSumsMs[i] as number;
      }
      if (samples !== 0) delta.timers.push({ name: timer.name, counts, sumsMs, maxMs: timer.maxMs });
    }
    this.changedTimers.length = 0;
    const gauges: Array<[string, number]> = [];
    for (const gauge of this.changedGauges) {
      gauge.changed = false;
      if (gauge.reported !== gauge.value) gauges.push([gauge.name, gauge.value]);
      gauge.reported = gauge.value;
    }
    this.changedGauges.length = 0;
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
    for (const timer of delta.timers) this.timer(timer.name).add(timer.counts, timer.sumsMs, timer.maxMs);
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

  /** Every gauge with its value summed over the threads that report it. */
  gaugeValues(): Array<[string, number]> {
    const all: Array<[string, number]> = [];
    for (const g of this.gauges.values()) all.push([g.name, this.gaugeTotal(g)]);
    return all;
  }

  /** Every counter with its total so far, for sinks that read totals (Prometheus). */
  counterValues(): Array<[string, number]> {
    const all: Array<[string, number]> = [];
    for (const c of this.counters.values()) all.push([c.name, c.value]);
    return all;
  }

  /** Every timer, with its totals and buckets so far. */
  timerValues(): readonly Timer[] {
    return [...this.timers.values()];
  }

  /** Drops the gauge values a thread reported, once it has gone. */
  forgetSource(source: number): void {
    for (const bySource of this.remoteGauges.values()) bySource.delete(source);
  }

  /** Every counter and gauge, and each timer's count, sum and max, as [name, value] sorted by name. */
  snapshot(): Array<[string, number]> {
    const all = [...this.counterValues(), ...this.gaugeValues()];
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

/**
 * Rule statistics for a FullKey (`domain.key_value.key`), cached by key. Once the store is full
 * the cache stops growing too: the statistics of a new key are the overflow counter, not cached.
 */
export class RuleStatsFactory {
  private readonly cache = new Map<string, RuleStats>();

  constructor(private readonly store: StatsStore) {}

  forKey(fullKey: string): RuleStats {
    let stats = this.cache.get(fullKey);
    if (stats === undefined) {
      const base = RULE_PREFIX + sanitizeStatName(fullKey) + '.';
      const full = this.store.full;
      stats = {
        totalHits: this.store.counter(base + 'total_hits'),
        overLimit: this.store.counter(base + 'over_limit'),
        nearLimit: this.store.counter(base + 'near_limit'),
        overLimitWithLocalCache: this.store.counter(base + 'over_limit_with_local_cache'),
        withinLimit: this.store.counter(base + 'within_limit'),
        shadowMode: this.store.counter(base + 'shadow_mode'),
      };
      if (!full) this.cache.set(fullKey, stats);
    }
    return stats;
  }
}
