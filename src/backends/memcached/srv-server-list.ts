import { Resolver } from 'node:dns/promises';

/**
 * The memcached nodes named by an SRV record (OBJCACHE_SRV), sorted by `host:port` as upstream
 * does, looked up at start and every `refreshMs` (0: never again). A failed refresh keeps the
 * previous list.
 */
export class SrvServerList {
  readonly firstLookup: Promise<void>;
  private readonly resolver = new Resolver();
  private timer: NodeJS.Timeout | undefined;
  private current = '';

  constructor(
    private readonly name: string,
    dnsServer: string,
    refreshMs: number,
    private readonly onServers: (servers: string[]) => void,
    private readonly onError: (error: Error) => void,
  ) {
    if (dnsServer !== '') this.resolver.setServers([dnsServer]);
    this.firstLookup = this.lookup();
    if (refreshMs > 0) {
      this.timer = setInterval(() => void this.lookup(), refreshMs);
      this.timer.unref();
    }
  }

  close(): void {
    if (this.timer !== undefined) clearInterval(this.timer);
  }

  private async lookup(): Promise<void> {
    try {
      const records = await this.resolver.resolveSrv(this.name);
      const servers = records.map((record) => `${record.name}:${record.port}`).sort();
      const joined = servers.join(',');
      if (joined !== this.current) {
        this.current = joined;
        this.onServers(servers);
      }
    } catch (error) {
      this.onError(new Error(`SRV lookup of ${this.name} failed: ${error instanceof Error ? error.message : String(error)}`));
    }
  }
}
