import { ConfigCompiler, CounterInspector, RateLimitService, type Clock, type CompiledConfig, type CounterStore, type Decision, type DecisionReuse, type EngineSettings, type RateLimitRequest } from '../../engine/index.js';
import { RuleStatsFactory, StatsStore } from '../../observability/index.js';
import { ConfigMailbox, SegmentReader } from '../../threads/index.js';

export interface ThreadEngineParts {
  /** The configuration mailbox the rules loader publishes to. */
  mailboxBuffer: SharedArrayBuffer;
  /** This thread's counter store, chosen by the composition root. */
  store: CounterStore;
  settings: EngineSettings;
  clock: Clock;
  /** The thread's statistics; the main thread passes the store its sinks read. */
  stats?: StatsStore;
}

/** Longest stretch of compiling a new configuration before the thread answers requests again. */
const COMPILE_SLICE_MS = 4;
/**
 * A configuration this small (its text, in UTF-16 code units) compiles at once, on the request
 * that notices it, in a few milliseconds: every request after a reload of a typical rules file
 * then sees the new rules, as before there were large ones to slice.
 */
const COMPILE_AT_ONCE_BELOW = 256 * 1024;
/** How often an idle thread looks for a new configuration, so it is ready before its next request. */
const MAILBOX_POLL_MS = 50;

/** A configuration being compiled between requests. */
interface Compilation {
  generation: number;
  reader: SegmentReader;
  compiler: ConfigCompiler;
  cancelled: boolean;
}

/**
 * One thread's decision engine: its own compiled configuration and statistics, the process-wide
 * counters. Before each decision it checks the configuration mailbox (one atomic load). A new
 * configuration is compiled beside the one in service, a few milliseconds at a time between
 * requests, and swapped in with one assignment, so no request waits for a large reload and none
 * sees half of one. The first configuration a thread gets is compiled at once: there is nothing
 * to serve before it.
 */
export class ThreadEngine {
  readonly stats: StatsStore;
  private readonly ruleStats: RuleStatsFactory;
  private readonly mailbox: ConfigMailbox;
  private readonly service: RateLimitService;
  private readonly store: CounterStore;
  private readonly nearLimitRatio: number;
  private readonly clock: Clock;
  private readonly cacheKeyPrefix: string;
  private compiled: CompiledConfig | undefined;
  /** Generation in service. */
  private generation = 0;
  /** Generation being compiled, or last seen busy; the hot path compares it with the mailbox's. */
  private seen = 0;
  private compilation: Compilation | undefined;
  private waiters: Array<{ generation: number; resolve: () => void }> = [];
  private readonly poll: NodeJS.Timeout;

  constructor(parts: ThreadEngineParts) {
    this.stats = parts.stats ?? new StatsStore();
    this.store = parts.store;
    this.nearLimitRatio = parts.settings.nearLimitRatio;
    this.clock = parts.clock;
    this.cacheKeyPrefix = parts.settings.cacheKeyPrefix;
    this.ruleStats = new RuleStatsFactory(this.stats);
    this.mailbox = ConfigMailbox.attach(parts.mailboxBuffer);
    this.service = new RateLimitService(this.store, parts.clock, this.stats, this.ruleStats, parts.settings);
    this.refresh();
    this.poll = setInterval(() => {
      if (this.mailbox.generation !== this.seen) this.refresh();
    }, MAILBOX_POLL_MS);
    this.poll.unref();
  }

  decide(request: RateLimitRequest, reuse?: DecisionReuse): Decision | Promise<Decision> {
    if (this.mailbox.generation !== this.seen) this.refresh();
    return this.service.shouldRateLimit(request, reuse);
  }

  /** Reads and resets counters by this thread's rules and store, as its decisions count them. */
  counters(storeName: string): CounterInspector {
    return new CounterInspector({
      store: this.store,
      storeName,
      clock: this.clock,
      cacheKeyPrefix: this.cacheKeyPrefix,
      config: () => {
        this.refresh();
        return this.compiled;
      },
    });
  }

  /** Closes this thread's store connections (the shared memory needs nothing). */
  close(): Promise<void> {
    clearInterval(this.poll);
    if (this.compilation !== undefined) this.compilation.cancelled = true;
    return this.store.close();
  }

  /** The generation in service on this thread. */
  get configGeneration(): number {
    return this.generation;
  }

  /** Resolves once the configuration of `generation` (or a newer one) is in service on this thread. */
  whenInService(generation: number): Promise<void> {
    this.refresh();
    if (this.generation >= generation) return Promise.resolve();
    return new Promise((resolve) => {
      this.waiters.push({ generation, resolve });
      // Read while the writer was writing: nothing is compiling it yet, so look again shortly.
      if (this.compilation === undefined) setTimeout(() => this.refresh(), 1).unref();
    });
  }

  /** Starts taking the newest published configuration, if any. */
  refresh(): void {
    const read = this.mailbox.readIfNewer(this.generation);
    if (read === 'unchanged') {
      this.seen = this.mailbox.generation;
      return;
    }
    if (read === 'busy') return; // `seen` unchanged: the next request looks again
    if (this.compilation?.generation === read.generation) return;
    if (this.compilation !== undefined) this.compilation.cancelled = true;
    this.seen = read.generation;
    const compilation: Compilation = {
      generation: read.generation,
      reader: new SegmentReader(read.text),
      compiler: new ConfigCompiler({ nearLimitRatio: this.nearLimitRatio }),
      cancelled: false,
    };
    if (this.generation === 0 || read.text.length < COMPILE_AT_ONCE_BELOW) {
      this.compileSlice(compilation, Infinity);
      return;
    }
    this.compilation = compilation;
    setImmediate(() => this.continueCompiling(compilation));
  }

  private continueCompiling(compilation: Compilation): void {
    if (compilation.cancelled) return;
    if (!this.compileSlice(compilation, COMPILE_SLICE_MS)) setImmediate(() => this.continueCompiling(compilation));
  }

  /** Compiles segments for up to `budgetMs`; true once the configuration is in service. */
  private compileSlice(compilation: Compilation, budgetMs: number): boolean {
    const until = performance.now() + budgetMs;
    for (;;) {
      const segment = compilation.reader.next();
      if (segment === undefined) break;
      compilation.compiler.add(segment.domain, segment.rules);
      if (performance.now() >= until) return false;
    }
    this.swap(compilation.generation, compilation.compiler.finish());
    if (this.compilation === compilation) this.compilation = undefined;
    return true;
  }

  private swap(generation: number, compiled: CompiledConfig): void {
    this.service.setConfig(compiled);
    this.compiled = compiled;
    this.generation = generation;
    const waiting = this.waiters;
    this.waiters = waiting.filter((w) => w.generation > generation);
    for (const waiter of waiting) if (waiter.generation <= generation) waiter.resolve();
  }
}
