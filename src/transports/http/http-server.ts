import { loadUws, type ListenSocket, type TemplatedApp } from './uws.js';

/** A group of routes (rate limit, later alerts and scores) mounted on the shared HTTP front. */
export interface HttpRoutes {
  register(app: TemplatedApp, inFlight: InFlight): void;
}

/** Counts requests that have been accepted but not yet answered, so shutdown can drain them. */
export class InFlight {
  count = 0;
  /** Set once shutdown began: every response then closes its connection (`Connection: close`). */
  draining = false;
  private waiters: Array<() => void> = [];

  /** Requests begun so far; `settled` uses it to tell a quiet moment from a busy one. */
  private started = 0;

  begin(): void {
    this.count++;
    this.started++;
  }

  end(): void {
    this.count--;
    if (this.count === 0) {
      const waiters = this.waiters;
      this.waiters = [];
      for (const wake of waiters) wake();
    }
  }

  /** Resolves when nothing is in flight, or after `timeoutMs`. */
  drained(timeoutMs: number): Promise<void> {
    if (this.count === 0) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, timeoutMs);
      this.waiters.push(() => {
        clearTimeout(timer);
        resolve();
      });
    });
  }

  /**
   * Resolves once nothing has been in flight for `quietMs` (or after `timeoutMs`). Requests already
   * sent on kept-alive connections keep arriving for a moment after the listener closes; each is
   * answered with `Connection: close`, and only a quiet connection set is closed.
   */
  async settled(quietMs: number, timeoutMs: number): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      await this.drained(Math.max(0, deadline - Date.now()));
      const seen = this.started;
      await new Promise((resolve) => setTimeout(resolve, quietMs));
      // A starved thread runs due timers before it polls sockets; setImmediate runs after a poll,
      // so bytes that arrived meanwhile have become requests before the check.
      await new Promise((resolve) => setImmediate(resolve));
      if ((this.count === 0 && this.started === seen) || Date.now() >= deadline) return;
    }
  }
}

export interface HttpServer {
  readonly port: number;
  /** Stops accepting, waits for in-flight requests (up to drainMs), then closes every connection. */
  close(drainMs?: number): Promise<void>;
}

export interface HttpServerOptions {
  host: string;
  port: number;
  routes: readonly HttpRoutes[];
}

const NOT_FOUND = '404 page not found\n';
/** How long no request may arrive before a draining server closes its remaining connections. */
const DRAIN_QUIET_MS = 250;

export function startHttpServer(options: HttpServerOptions): Promise<HttpServer> {
  const uws = loadUws();
  const app = uws.App();
  const inFlight = new InFlight();
  for (const routes of options.routes) routes.register(app, inFlight);
  // Same body and type as Go's http.NotFound, which upstream's gorilla mux answers with.
  app.any('/*', (res) => {
    res.writeStatus('404 Not Found')
      .writeHeader('Content-Type', 'text/plain; charset=utf-8')
      .writeHeader('X-Content-Type-Options', 'nosniff')
      .end(NOT_FOUND, inFlight.draining);
  });

  return new Promise((resolve, reject) => {
    app.listen(options.host, options.port, (token: ListenSocket | false) => {
      if (token === false) {
        // Closing the app releases uWS's loop handle; a worker thread exiting with it open aborts the process.
        (app as TemplatedApp & { close(): void }).close();
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
          (app as TemplatedApp & { close(): void }).close();
        },
      });
    });
  });
}
