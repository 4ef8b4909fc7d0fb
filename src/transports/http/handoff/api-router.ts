import FindMyWay from 'find-my-way';
import { ServiceError } from '../../../errors/index.js';
import type { ApiDefinition, ApiHandler, ApiManifest, ApiRoute } from './api-route.js';

type Method = ApiRoute['method'];

export type RouteMatch =
  | { found: true; handle: ApiHandler; params: Record<string, string | undefined>; api: ApiDefinition }
  | { found: false; error: ServiceError };

const METHODS: readonly Method[] = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS'];

const NOT_FOUND = new ServiceError('HTTP_NOT_FOUND', '404 page not found');

interface OpenApi {
  api: ApiDefinition;
  routes: FindMyWay.Instance<FindMyWay.HTTPVersion.V1>;
}

/**
 * The API thread's routing: one router per API (find-my-way, fastify's router). The HTTP front
 * has already chosen the API by the path's prefix (its manifest); here the request is routed
 * once, within that API. A path no route has is answered in that API's form; a path with routes
 * for other methods gets its 405 with the methods it has.
 */
export class ApiRouter {
  private readonly apis = new Map<string, OpenApi>();
  /** APIs not open yet (loading, or failed to open), by name: their requests get this error. */
  private readonly closed = new Map<string, ServiceError>();

  /** Until `add` brings it, every request for `manifest`'s API is answered `error` (503 while it loads). */
  unavailable(manifest: ApiManifest, error: ServiceError): this {
    this.closed.set(manifest.name, error);
    return this;
  }

  add(api: ApiDefinition): this {
    const routes = FindMyWay({ ignoreTrailingSlash: true, caseSensitive: true });
    for (const route of api.routes) routes.on(route.method, route.path, () => undefined, route.handle);
    this.closed.delete(api.name);
    this.apis.set(api.name, { api, routes });
    return this;
  }

  /** Routes a request the front handed over for the API named `apiName`. */
  match(apiName: string, method: string, path: string): RouteMatch {
    const closed = this.closed.get(apiName);
    if (closed !== undefined) return { found: false, error: closed };
    const open = this.apis.get(apiName);
    if (open === undefined) return { found: false, error: NOT_FOUND };
    const found = METHODS.includes(method as Method) ? open.routes.find(method as Method, path) : null;
    if (found !== null) return { found: true, handle: found.store as ApiHandler, params: found.params, api: open.api };
    // OPTIONS answers CORS preflights on whole prefixes; it does not make a path exist.
    const allowed = METHODS.filter((m) => m !== 'OPTIONS' && open.routes.find(m, path) !== null);
    return { found: false, error: allowed.length > 0 ? open.api.methodNotAllowed(method, path, allowed) : open.api.notFound(method, path) };
  }
}
