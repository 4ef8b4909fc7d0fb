import { ServiceError } from '../../errors/index.js';
import { Exchange } from './exchange.js';
import { InFlight } from './in-flight.js';
import type { HttpRoute } from './route.js';
import { loadUws, type ListenSocket, type TemplatedApp } from './uws.js';

export interface HttpServer {
  readonly port: number;
  /** Stops accepting, waits for in-flight requests (up to drainMs), then closes every connection. */
  close(drainMs?: number): Promise<void>;
}

export interface HttpServerOptions {
  host: string;
  port: number;
  /** The whole route table (app/route-table.ts builds it); paths no route takes get a 404. */
  routes: readonly HttpRoute[];
}

/** Same body and type as Go's http.NotFound, which upstream's gorilla mux answers with. */
const NOT_FOUND = new ServiceError('HTTP_NOT_FOUND', '404 page not found');
/** How long no request may arrive before a draining server closes its remaining connections. */
const DRAIN_QUIET_MS = 250;

type ClosableApp = TemplatedApp & { close(): void };

/** A uWS app on host:port serving `routes`; knows nothing of what the routes do. */
export function startHttpServer(options: HttpServerOptions): Promise<HttpServer> {
  const uws = loadUws();
  const app = uws.App() as ClosableApp;
  const inFlight = new InFlight();
  // HEAD first, so uWS finds these before an `any` route of the same pattern: a HEAD answer is
  // the GET answer's status and headers without its body. Routes that say what HEAD does keep it.
  const explicitHead = new Set(options.routes.filter((r) => r.method === 'head').map((r) => r.pattern));
  for (const route of options.routes) {
    if (route.method === 'head' || ((route.method === 'any' || route.method === 'get') && !explicitHead.has(route.pattern))) {
      const handle = route.handle;
      app.head(route.pattern, (res, req) => handle(new Exchange(res, inFlight, true), req));
    }
  }
  for (const route of options.routes) {
    if (route.method === 'head') continue;
    const handle = route.handle;
    app[route.method](route.pattern, (res, req) => handle(new Exchange(res, inFlight), req));
  }
  app.head('/*', (res) => new Exchange(res, inFlight, true).replyError(NOT_FOUND));
  app.any('/*', (res) => new Exchange(res, inFlight).replyError(NOT_FOUND));

  return new Promise((resolve, reject) => {
    app.listen(options.host, options.port, (token: ListenSocket | false) => {
      if (token === false) {
        // Closing the app releases uWS's loop handle; a worker thread exiting with it open aborts the process.
        app.close();
        reject(new Error(`HTTP server could not listen on ${options.host}:${options.port}`));
        return;
      }
      let listening: ListenSocket | undefined = token;
      resolve({
        port: uws.us_socket_local_port(token as never),
        async close(drainMs = 10_000) {
          if (listening !== undefined) uws.us_listen_socket_close(listening);
          listening = undefined;
          inFlight.draining = true;
          await inFlight.settled(DRAIN_QUIET_MS, drainMs);
          app.close();
        },
      });
    });
  });
}
