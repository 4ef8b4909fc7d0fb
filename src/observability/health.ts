/**
 * Overall health is the AND of the active components, as in upstream's health checker:
 * the counter store (always), configuration (only with HEALTHY_WITH_AT_LEAST_ONE_CONFIG_LOADED)
 * and the termination signal. Transports ask `isHealthy()`; listeners hear every change.
 */
export type HealthComponent = 'store' | 'config' | 'sigterm';

export class HealthChecker {
  private readonly unhealthy = new Set<HealthComponent>();
  private readonly listeners: Array<(healthy: boolean) => void> = [];
  private readonly configActive: boolean;

  constructor(options: { requireConfig: boolean }) {
    this.configActive = options.requireConfig;
    if (this.configActive) this.unhealthy.add('config');
  }

  isHealthy(): boolean {
    return this.unhealthy.size === 0;
  }

  set(component: HealthComponent, healthy: boolean): void {
    if (component === 'config' && !this.configActive) return;
    const before = this.isHealthy();
    if (healthy) this.unhealthy.delete(component);
    else this.unhealthy.add(component);
    if (before !== this.isHealthy()) for (const listener of this.listeners) listener(this.isHealthy());
  }

  /** Called with the new overall state whenever it changes. */
  onChange(listener: (healthy: boolean) => void): void {
    this.listeners.push(listener);
  }
}
