import type { ConfigSource, RateLimitConfig } from '../config/model.js';
import type { Counter, HealthChecker, Logger, StatsStore } from '../observability/index.js';

export type LoadResult = { ok: true; config: RateLimitConfig } | { ok: false; error: string };

export interface ConfigReloaderDeps {
  readSources(): Promise<ConfigSource[]>;
  load(sources: ConfigSource[]): LoadResult;
  /** Puts a validated configuration into service. */
  apply(config: RateLimitConfig): void;
  stats: StatsStore;
  health: HealthChecker;
  logger: Logger;
}

/**
 * Loads the whole configuration again on every change. A configuration that fails any
 * check never replaces the one serving: the failure is counted and logged (ref §2.2).
 */
export class ConfigReloader {
  private readonly success: Counter;
  private readonly failure: Counter;
  private current: RateLimitConfig | undefined;
  private running: Promise<boolean> | undefined;
  private again = false;

  constructor(private readonly deps: ConfigReloaderDeps) {
    this.success = deps.stats.counter('ratelimit.service.config_load_success');
    this.failure = deps.stats.counter('ratelimit.service.config_load_error');
  }

  /** The configuration in service, undefined before the first successful load. */
  get config(): RateLimitConfig | undefined {
    return this.current;
  }

  /**
   * Reloads; resolves true when the new configuration is in service. Changes that arrive
   * while a load runs are folded into one more load after it.
   */
  reload(): Promise<boolean> {
    if (this.running !== undefined) {
      this.again = true;
      return this.running;
    }
    this.running = this.loadOnce().finally(() => {
      this.running = undefined;
      if (this.again) {
        this.again = false;
        void this.reload();
      }
    });
    return this.running;
  }

  private async loadOnce(): Promise<boolean> {
    const { logger } = this.deps;
    let result: LoadResult;
    try {
      result = this.deps.load(await this.deps.readSources());
    } catch (error) {
      result = { ok: false, error: (error as Error).message };
    }
    if (!result.ok) {
      this.failure.value++;
      logger.error(`Error loading new configuration: ${result.error}`);
      return false;
    }
    this.deps.apply(result.config);
    this.current = result.config;
    this.success.value++;
    this.deps.health.set('config', result.config.domains.length > 0);
    logger.info('Successfully loaded new configuration', { domains: result.config.domains.length });
    return true;
  }
}
