import type { HeaderList } from './exchange.js';
import { InFlight } from './in-flight.js';
import { mountRoutes } from './mount-routes.js';
import type { HttpRoute } from './route.js';
import { loadUws, type AppOptions, type ListenSocket, type TemplatedApp } from './uws.js';

export interface HttpServer {
  readonly port: number;
  /** Stops accepting, waits for in-flight requests (up to drainMs), then closes every connection. */
  close(drainMs?: number): Promise<void>;
}

/** What a reloaded web configuration changes on a running server. */
export interface ReconfigurableHttpServer extends HttpServer {
  /** Headers every later response carries (http_server_config.headers). */
  setResponseHeaders(headers: HeaderList): void;
  /**
   * New connections get a TLS app with these options, listening on the same port
   * (SO_REUSEPORT); the previous app stops listening, drains its connections and closes.
   */
  replaceTls(tls: UwsTlsOptions): Promise<void>;
}

/** uWS's SSLApp options: files it reads once, when the app is made. */
export type UwsTlsOptions = Pick<AppOptions, 'cert_file_name' | 'key_file_name' | 'ca_file_name' | 'ssl_ciphers'>;

export interface HttpServerOptions {
  host: string;
  port: number;
  /** The whole route table (app/http/route-table.ts builds it); paths no route takes get a 404. */
  routes: readonly HttpRoute[];
  /** Serve HTTPS with uWS's SSLApp; undefined serves plain HTTP. */
  tls?: UwsTlsOptions;
  /** Added to every response that does not set the same header itself. */
  responseHeaders?: HeaderList;
}

/** How long no request may arrive before a draining server closes its remaining connections. */
const DRAIN_QUIET_MS = 250;
/** How long the app a TLS reload replaced may take to finish what its connections asked. */
const RETIRED_APP_DRAIN_MS = 10_000;

type ClosableApp = TemplatedApp & { close(): void };

/** One uWS app and the requests it has in flight; a TLS reload starts the next one. */
interface Generation {
  app: ClosableApp;
  inFlight: InFlight;
  listening: ListenSocket | undefined;
}

/** The port could not be bound: another socket holds it. */
export class ListenFailed extends Error {}

/** A uWS app on host:port serving `routes`; knows nothing of what the routes do. */
export async function startHttpServer(options: HttpServerOptions): Promise<ReconfigurableHttpServer> {
  const uws = loadUws();
  let responseHeaders: HeaderList = options.responseHeaders ?? [];
  const currentHeaders = () => responseHeaders;

  const start = (tls: UwsTlsOptions | undefined): Generation => {
    let app: ClosableApp;
    try {
      app = (tls === undefined ? uws.App() : uws.SSLApp(tls)) as ClosableApp;
    } catch (error) {
      // uWS says only "App construction failed" when a file is unreadable or the key does not fit.
      throw new Error(`the HTTP server could not load its TLS certificate and key (${(error as Error).message})`);
    }
    const inFlight = new InFlight();
    mountRoutes(app, options.routes, inFlight, currentHeaders);
    return { app, inFlight, listening: undefined };
  };

  const listen = (generation: Generation, port: number) =>
    new Promise<ListenSocket>((resolve, reject) => {
      generation.app.listen(options.host, port, (token: ListenSocket | false) => {
        if (token === false) {
          // Closing the app releases uWS's loop handle; a worker thread exiting with it open aborts the process.
          generation.app.close();
          reject(new ListenFailed(`HTTP server could not listen on ${options.host}:${port}`));
          return;
        }
        generation.listening = token;
        resolve(token);
      });
    });

  const retire = async (generation: Generation, drainMs: number) => {
    if (generation.listening !== undefined) uws.us_listen_socket_close(generation.listening);
    generation.listening = undefined;
    generation.inFlight.draining = true;
    await generation.inFlight.settled(DRAIN_QUIET_MS, drainMs);
    generation.app.close();
  };

  let current = start(options.tls);
  const port = uws.us_socket_local_port((await listen(current, options.port)) as never);
  const retiring = new Set<Promise<void>>();
  let closing: Promise<void> | undefined;
  const retireInBackground = (generation: Generation, drainMs: number) => {
    const done = retire(generation, drainMs);
    retiring.add(done);
    void done.finally(() => retiring.delete(done));
  };

  return {
    port,
    setResponseHeaders(headers) {
      responseHeaders = headers;
    },
    async replaceTls(tls) {
      if (closing !== undefined) return;
      const next = start(tls);
      await listen(next, port);
      if (closing !== undefined) {
        retireInBackground(next, 0);
        return;
      }
      const previous = current;
      current = next;
      retireInBackground(previous, RETIRED_APP_DRAIN_MS);
    },
    close(drainMs = 10_000) {
      closing ??= (async () => {
        await Promise.all([retire(current, drainMs), ...retiring]);
      })();
      return closing;
    },
  };
}
