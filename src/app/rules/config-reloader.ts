import type { Result } from '../../errors/index.js';
import type { ServiceError } from '../../errors/index.js';
import type { Counter, HealthChecker, Logger, StatsStore } from '../../observability/index.js';
import type { XdsResource } from '../../config/index.js';
import type { LoadedRules } from './rules-loader-messages.js';

export interface ConfigReloaderDeps {
  /** Reads, validates and publishes the rules files, or the xDS resources given (on the rules loader thread). */
  load(resources?: XdsResource[]): Promise<Result<LoadedRules>>;
  /** Resolves once this thread decides by the rules of `generation` (compiled, in service). */
  inService(generation: number): Promise<void>;
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
  private current: LoadedRules | undefined;
  private running: Promise<boolean> | undefined;
  private again = false;

  constructor(private readonly deps: ConfigReloaderDeps) {
    this.success = deps.stats.counter('ratelimit.service.config_load_success');
    this.failure = deps.stats.counter('ratelimit.service.config_load_error');
  }

  /** The debug server's `/rlconfig` text of the rules in service ('' before the first load). */
  get rlconfig(): string {
    return this.current?.rlconfig ?? '';
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

  /**
   * Applies the full set of rules an xDS server sent, as a reload of files; resolves undefined
   * once they are in service, or the error text the server is told in the NACK.
   */
  async apply(resources: XdsResource[]): Promise<string | undefined> {
    const result = await this.deps.load(resources);
    if (!result.ok) {
      this.refuse(result.error);
      return result.error.message;
    }
    await this.serve(result.value);
    return undefined;
  }

  private async loadOnce(): Promise<boolean> {
    const result = await this.deps.load();
    if (!result.ok) return this.refuse(result.error);
    await this.serve(result.value);
    return true;
  }

  private async serve(rules: LoadedRules): Promise<void> {
    await this.deps.inService(rules.generation);
    this.current = rules;
    this.success.value++;
    this.deps.health.set('config', rules.domains > 0);
    this.deps.logger.info('Successfully loaded new configuration', { domains: rules.domains });
  }

  private refuse(error: ServiceError): false {
    this.failure.value++;
    this.deps.logger.error(`Error loading new configuration: ${error.message}`, { code: error.code });
    return false;
  }
}
