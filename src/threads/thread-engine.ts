import type { CounterStore } from '../backends/counter-store.js';
import { compileConfig, RateLimitService, type Clock, type Decision, type EngineSettings, type RateLimitRequest } from '../engine/index.js';
import { RuleStatsFactory, StatsStore } from '../observability/index.js';
import { ConfigMailbox } from './config-mailbox.js';
import { openCounterStore, type BackendSpec, type StoreLogSettings } from './open-counter-store.js';

/** Shared memory every thread of the process attaches to (posted through workerData). */
export interface SharedResources {
  storeBuffer: SharedArrayBuffer;
  mailboxBuffer: SharedArrayBuffer;
  healthBuffer: SharedArrayBuffer;
  /** BroadcastChannel name on which threads report statistics to the main thread. */
  statsChannel: string;
  /** The counter store each thread opens (the shared buffer above, or its own connections). */
  backend: BackendSpec;
  storeLog: StoreLogSettings;
}

/**
 * One thread's decision engine: its own compiled configuration and statistics, the process-wide
 * counters. Before each decision it checks the configuration mailbox, so a reload takes effect
 * in one assignment per thread and no request sees half of one.
 */
export class ThreadEngine {
  private readonly ruleStats: RuleStatsFactory;
  private readonly mailbox: ConfigMailbox;
  private readonly service: RateLimitService;
  private generation = 0;
  private readonly store: CounterStore;

  constructor(
    resources: SharedResources,
    private readonly settings: EngineSettings,
    clock: Clock,
    /** The thread's statistics; the main thread passes the store its sinks read. */
    readonly stats: StatsStore = new StatsStore(),
  ) {
    this.ruleStats = new RuleStatsFactory(stats);
    this.mailbox = ConfigMailbox.attach(resources.mailboxBuffer);
    this.store = openCounterStore(resources.backend, resources.storeBuffer, resources.healthBuffer, this.stats, resources.storeLog);
    this.service = new RateLimitService(this.store, clock, this.stats, this.ruleStats, settings);
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
    this.service.setConfig(compileConfig(next.config, { nearLimitRatio: this.settings.nearLimitRatio, ruleStats: this.ruleStats }));
    this.generation = next.generation;
  }
}
