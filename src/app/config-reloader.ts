import type { ConfigSource } from '../config/index.js';
import type { RateLimitConfig } from '../engine/index.js';
import { ServiceError, type Result } from '../errors/index.js';
import type { Counter, HealthChecker, Logger, StatsStore } from '../observability/index.js';

export interface ConfigReloaderDeps {
  readSources(): Promise<ConfigSource[]>;
  load(sources: ConfigSource[]): Result<RateLimitConfig>;
  /** Puts a validated configuration into service; a configuration it cannot carry is refused. */
  apply(config: RateLimitConfig): ServiceError | undefined;
  stats: StatsStore;
  health: HealthChecker;
  logger: Logger;
}

/**
 * Loads the whole configuration again on every change. A configuration that fails any
 * check never replaces the one serving: the failure is counted and logged, as upstream's
 * runner does (`config_load_success` / `config_load_error`).
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
    let result: Result<RateLimitConfig>;
    try {
      result = this.deps.load(await this.deps.readSources());
    } catch (error) {
      result = { ok: false, error: new ServiceError('CFG_UNREADABLE', (error as Error).message) };
    }
    if (!result.ok) return this.refuse(result.error);
    const config = result.value;
    const refused = this.deps.apply(config);
    if (refused !== undefined) return this.refuse(refused);
    this.current = config;
    this.success.value++;
    this.deps.health.set('config', config.domains.length > 0);
    logger.info('Successfully loaded new configuration', { domains: config.domains.length });
    return true;
  }

  private refuse(error: ServiceError): false {
    this.failure.value++;
    this.deps.logger.error(`Error loading new configuration: ${error.message}`, { code: error.code });
    return false;
  }
}
