import { Code, compileConfig, RateLimitService, secondsUntilReset, Unit, type CounterStore, type DescriptorStatus, type EngineSettings } from '../../engine/index.js';
import { ServiceError } from '../../errors/index.js';
import { RuleStatsFactory, StatsStore } from '../../observability/index.js';

const DOMAIN = 'scores';
const KEY = 'failed_enrollment';

/** The engine as this guard uses it: one rule, no headers, no local cache. */
const ENGINE_SETTINGS: EngineSettings = {
  nearLimitRatio: 0.8,
  shadowMode: false,
  cacheKeyPrefix: '',
  responseHeaders: undefined,
  maxDescriptorsPerRequest: 1,
  localCacheSizeBytes: 0,
  stopIncrementWhenOverLimit: false,
};

/**
 * Failed enrolments (unknown enrollment codes) per account, counted by the service's own rate
 * limit engine on a counter store the API thread owns: once an account has failed `perMinute`
 * times in a minute, it waits for the next minute before any code is looked up, so codes cannot
 * be guessed faster than that. Enrolments that succeed are not counted.
 */
export class EnrolmentGuard {
  private readonly engine: RateLimitService;
  /** While the store cannot count (full), every account waits until then (epoch seconds): failing closed. */
  private blockedUntil = 0;

  constructor(
    store: CounterStore,
    perMinute: number,
    private readonly now: () => number,
  ) {
    const stats = new StatsStore(100);
    this.engine = new RateLimitService(store, { nowSeconds: () => this.nowSeconds() }, stats, new RuleStatsFactory(stats), ENGINE_SETTINGS);
    const rateLimit = { unit: Unit.MINUTE, requestsPerUnit: perMinute, unlimited: false, name: '', replaces: [] };
    const rule = { key: KEY, value: '', rateLimit, shadowMode: false, detailedMetric: false, shareThreshold: false, descriptors: [] };
    this.engine.setConfig(compileConfig({ domains: [{ domain: DOMAIN, descriptors: [rule] }] }, { nearLimitRatio: ENGINE_SETTINGS.nearLimitRatio }));
  }

  private nowSeconds(): number {
    return Math.floor(this.now() / 1000);
  }

  /** Seconds the account must wait before its next attempt; 0 when it may try now. */
  async waitSeconds(accountId: string): Promise<number> {
    const now = this.nowSeconds();
    if (now < this.blockedUntil) return this.blockedUntil - now;
    // hits 0 reads the account's count without adding to it.
    const decision = await this.engine.shouldRateLimit({ domain: DOMAIN, descriptors: [{ entries: [{ key: KEY, value: accountId }], hitsAddend: 0 }], hitsAddend: 0 });
    if (decision instanceof ServiceError) return this.block(now);
    const status = decision.statuses[0] as DescriptorStatus;
    const spent = status.code === Code.OVER_LIMIT || status.limitRemaining === 0;
    return spent ? secondsUntilReset(now, Unit.MINUTE) : 0;
  }

  /** Counts a failed attempt of the account. */
  async recordFailure(accountId: string): Promise<void> {
    const decision = await this.engine.shouldRateLimit({ domain: DOMAIN, descriptors: [{ entries: [{ key: KEY, value: accountId }] }], hitsAddend: 1 });
    if (decision instanceof ServiceError) this.block(this.nowSeconds());
  }

  private block(now: number): number {
    const wait = secondsUntilReset(now, Unit.MINUTE);
    this.blockedUntil = now + wait;
    return wait;
  }
}
