import { ServiceError } from '../../errors/index.js';
import { Exchange, type HeaderList } from './exchange.js';
import type { InFlight } from './in-flight.js';
import type { HttpRoute } from './route.js';
import type { TemplatedApp } from './uws.js';

/** Same body and type as Go's http.NotFound, which upstream's gorilla mux answers with. */
const NOT_FOUND = new ServiceError('HTTP_NOT_FOUND', '404 page not found');

/**
 * Registers the route table on one uWS app. Each exchange counts in `inFlight` and carries the
 * response headers the web configuration adds at the time the request arrives.
 */
export function mountRoutes(app: TemplatedApp, routes: readonly HttpRoute[], inFlight: InFlight, responseHeaders: () => HeaderList): void {
  // HEAD first, so uWS finds these before an `any` route of the same pattern: a HEAD answer is
  // the GET answer's status and headers without its body. Routes that say what HEAD does keep it.
  const explicitHead = new Set(routes.filter((r) => r.method === 'head').map((r) => r.pattern));
  for (const route of routes) {
    if (route.method === 'head' || ((route.method === 'any' || route.method === 'get') && !explicitHead.has(route.pattern))) {
      const handle = route.handle;
      app.head(route.pattern, (res, req) => handle(new Exchange(res, inFlight, true, responseHeaders()), req));
    }
  }
  for (const route of routes) {
    if (route.method === 'head') continue;
    const handle = route.handle;
    app[route.method](route.pattern, (res, req) => handle(new Exchange(res, inFlight, false, responseHeaders()), req));
  }
  app.head('/*', (res) => new Exchange(res, inFlight, true, responseHeaders()).replyError(NOT_FOUND));
  app.any('/*', (res) => new Exchange(res, inFlight, false, responseHeaders()).replyError(NOT_FOUND));
}
