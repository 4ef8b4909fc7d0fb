import type { Decide } from '../../engine/index.js';
import type { Logger, Tracing } from '../../observability/index.js';
import type { Settings } from '../../settings/index.js';
import { startHttpServer, type BodyBudget, type HttpServer } from '../../transports/http/index.js';
import { ApiThreadClient } from '../../transports/http/handoff/index.js';
import type { ApiThreadHost } from '../apis/api-thread-host.js';
import { buildRouteTable, portRouteSet } from './route-table.js';
import type { WebFront } from './web-front.js';

export interface MainThreadHttpParts {
  settings: Settings;
  /** Where the HTTP port listens (behind Node's TLS, a loopback port: see web-front.ts). */
  frontSettings: Settings;
  web: WebFront | undefined;
  logger: Logger;
  decide: Decide;
  isHealthy(): boolean;
  apiThread: ApiThreadHost;
  bodyBudget: BodyBudget;
  tracing: Tracing | undefined;
}

/** HTTP_WORKERS=0: the main thread serves HTTP too, with its own end of the hand-off. */
export async function startMainThreadHttp(parts: MainThreadHttpParts): Promise<HttpServer> {
  const { settings, frontSettings, apiThread } = parts;
  const client = new ApiThreadClient(settings.apiMaxPending);
  apiThread.addFront((port) => client.attach(port));
  const access = parts.web?.accessForMainThread();
  const routes = buildRouteTable({ ...parts, apiThread: client, admit: access?.admit }, portRouteSet(settings));
  const server = await startHttpServer({ host: frontSettings.host, port: frontSettings.port, routes, ...access?.serverOptions });
  access?.attach(server);
  return {
    port: server.port,
    async close(drainMs) {
      await server.close(drainMs);
      client.close();
    },
  };
}
