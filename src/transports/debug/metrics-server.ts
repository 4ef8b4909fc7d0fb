import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { MetricsPage } from './server.js';

export interface MetricsServerOptions {
  /** PROMETHEUS_ADDR: `host:port`, or `:port` for every address. */
  address: string;
  /** PROMETHEUS_PATH. */
  path: string;
  metrics: () => Promise<MetricsPage>;
  onError: (error: unknown) => void;
}

export interface MetricsServer {
  readonly port: number;
  close(): Promise<void>;
}

/** `[::1]:9090`, `127.0.0.1:9090` or `:9090` as node:http's host and port. */
function splitAddress(address: string): { host: string | undefined; port: number } {
  const colon = address.lastIndexOf(':');
  const host = address.slice(0, colon).replace(/^\[(.*)\]$/, '$1');
  return { host: host === '' ? undefined : host, port: Number(address.slice(colon + 1)) };
}

/**
 * The listener USE_PROMETHEUS starts, as upstream's sink does: PROMETHEUS_PATH on PROMETHEUS_ADDR
 * answers the metrics page, every other path 404. Scrapes are rare, so node:http serves it.
 */
export async function startMetricsServer(options: MetricsServerOptions): Promise<MetricsServer> {
  const server = http.createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    if (path !== options.path || (req.method !== 'GET' && req.method !== 'HEAD')) {
      res.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8' });
      res.end('404 page not found\n');
      return;
    }
    options.metrics().then(
      (page) => {
        res.writeHead(200, { 'Content-Type': page.contentType, 'Content-Length': Buffer.byteLength(page.body) });
        res.end(req.method === 'HEAD' ? undefined : page.body);
      },
      (error: unknown) => {
        options.onError(error);
        res.writeHead(500, { 'Content-Type': 'text/plain; charset=utf-8' });
        res.end('internal error\n');
      },
    );
  });
  const { host, port } = splitAddress(options.address);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
