import { compileConfig, RateLimitService, type Clock, type CounterStore, type Decision, type EngineSettings, type RateLimitRequest } from '../engine/index.js';
import { RuleStatsFactory, StatsStore } from '../observability/index.js';
import { ConfigMailbox } from './config-mailbox.js';

export interface ThreadEngineParts {
  /** The configuration mailbox the main thread publishes to. */
  mailboxBuffer: SharedArrayBuffer;
  /** This thread's counter store, chosen by the composition root. */
  store: CounterStore;
  settings: EngineSettings;
  clock: Clock;
  /** The thread's statistics; the main thread passes the store its sinks read. */
  stats?: StatsStore;
}

/**
 * One thread's decision engine: its own compiled configuration and statistics, the process-wide
 * counters. Before each decision it checks the configuration mailbox, so a reload takes effect
 * in one assignment per thread and no request sees half of one.
 */
export class ThreadEngine {
  readonly stats: StatsStore;
  private readonly ruleStats: RuleStatsFactory;
  private readonly mailbox: ConfigMailbox;
  private readonly service: RateLimitService;
  private readonly store: CounterStore;
  private readonly nearLimitRatio: number;
  private generation = 0;

  constructor(parts: ThreadEngineParts) {
    this.stats = parts.stats ?? new StatsStore();
    this.store = parts.store;
    this.nearLimitRatio = parts.settings.nearLimitRatio;
    this.ruleStats = new RuleStatsFactory(this.stats);
    this.mailbox = ConfigMailbox.attach(parts.mailboxBuffer);
    this.service = new RateLimitService(this.store, parts.clock, this.stats, this.ruleStats, parts.settings);
    this.refresh();
  }

  decide(request: RateLimitRequest): Decision | Promise<Decision> {
    if (this.mailbox.generation !== this.generation) this.refresh();
    return this.service.shouldRateLimit(request);
  }

  /** Closes this thread's store connections (the shared memory needs nothing). */
  close(): Promise<void> {
    return this.store.close();
  }

  /** Takes the newest published configuration, if any. */
  refresh(): void {
    const next = this.mailbox.readIfNewer(this.generation);
    if (next === undefined) return;
    this.service.setConfig(compileConfig(next.config, { nearLimitRatio: this.nearLimitRatio, ruleStats: this.ruleStats }));
    this.generation = next.generation;
  }
}
