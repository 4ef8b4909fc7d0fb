import { Resolver } from 'node:dns/promises';

/** Retries of a lookup that has not found any node yet start this far apart and double. */
const FIRST_RETRY_MS = 100;
const MAX_RETRY_MS = 5000;

/**
 * The memcached nodes named by an SRV record (OBJCACHE_SRV), sorted by `host:port` as upstream
 * does, looked up at start and every `refreshMs` (0: never again). Until a lookup has found
 * nodes it is retried with backoff whatever `refreshMs` says (upstream exits instead; a service
 * that starts before its DNS record exists should begin counting once it does). A failed
 * refresh keeps the previous list.
 */
export class SrvServerList {
  private readonly resolver = new Resolver();
  private timer: NodeJS.Timeout | undefined;
  private retry: NodeJS.Timeout | undefined;
  private retryMs = FIRST_RETRY_MS;
  private current = '';
  private closed = false;

  constructor(
    private readonly name: string,
    dnsServer: string,
    refreshMs: number,
    private readonly onServers: (servers: string[]) => void,
    private readonly onError: (error: Error) => void,
  ) {
    if (dnsServer !== '') this.resolver.setServers([dnsServer]);
    void this.lookup();
    if (refreshMs > 0) {
      this.timer = setInterval(() => void this.lookup(), refreshMs);
      this.timer.unref();
    }
  }

  close(): void {
    if (this.timer !== undefined) clearInterval(this.timer);
    if (this.retry !== undefined) clearTimeout(this.retry);
    this.retry = undefined;
    this.closed = true;
  }

  /** Until some lookup has found nodes, look again after a growing pause. */
  private retryIfNone(): void {
    if (this.current !== '' || this.closed || this.retry !== undefined) return;
    this.retry = setTimeout(() => {
      this.retry = undefined;
      void this.lookup();
    }, this.retryMs);
    this.retry.unref();
    this.retryMs = Math.min(this.retryMs * 2, MAX_RETRY_MS);
  }

  private async lookup(): Promise<void> {
    try {
      const records = await this.resolver.resolveSrv(this.name);
      const servers = records.map((record) => `${record.name}:${record.port}`).sort();
      const joined = servers.join(',');
      if (servers.length > 0 && joined !== this.current) {
        this.current = joined;
        this.onServers(servers);
      }
    } catch (error) {
      this.onError(new Error(`SRV lookup of ${this.name} failed: ${error instanceof Error ? error.message : String(error)}`));
    }
    this.retryIfNone();
  }
}
