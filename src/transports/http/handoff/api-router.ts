import FindMyWay from 'find-my-way';
import { ServiceError } from '../../../errors/index.js';
import type { ApiDefinition, ApiHandler, ApiManifest, ApiRoute } from './api-route.js';

type Method = ApiRoute['method'];

export type RouteMatch =
  | { found: true; handle: ApiHandler; params: Record<string, string | undefined>; api: ApiDefinition }
  | { found: false; error: ServiceError };

const METHODS: readonly Method[] = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS'];

/**
 * The API thread's routing over every API it serves (find-my-way, fastify's router). A path no
 * route has is answered in the form of the API whose prefix it carries; a path with routes for
 * other methods gets that API's 405 with the methods it has.
 */
export class ApiRouter {
  private readonly router = FindMyWay({ ignoreTrailingSlash: true, caseSensitive: true });
  private readonly apis: ApiDefinition[] = [];
  /** APIs not open yet (loading, or failed to open), by name: their paths get this error. */
  private readonly closed = new Map<string, { manifest: ApiManifest; error: ServiceError }>();

  /** Until `add` brings it, every path of `manifest` is answered `error` (503 while it loads). */
  unavailable(manifest: ApiManifest, error: ServiceError): this {
    this.closed.set(manifest.name, { manifest, error });
    return this;
  }

  add(api: ApiDefinition): this {
    this.closed.delete(api.name);
    this.apis.push(api);
    for (const route of api.routes) {
      const stored: { handle: ApiHandler; api: ApiDefinition } = { handle: route.handle, api };
      this.router.on(route.method, route.path, () => undefined, stored);
    }
    return this;
  }

  match(method: string, path: string): RouteMatch {
    const found = METHODS.includes(method as Method) ? this.router.find(method as Method, path) : null;
    if (found !== null) {
      const stored = found.store as { handle: ApiHandler; api: ApiDefinition };
      return { found: true, handle: stored.handle, params: found.params, api: stored.api };
    }
    const closed = this.closedOwnerOf(path);
    if (closed !== undefined) return { found: false, error: closed };
    const api = this.apiOf(path);
    if (api === undefined) return { found: false, error: new ServiceError('HTTP_NOT_FOUND', '404 page not found') };
    // OPTIONS answers CORS preflights on whole prefixes; it does not make a path exist.
    const allowed = METHODS.filter((m) => m !== 'OPTIONS' && this.router.find(m, path) !== null);
    return { found: false, error: allowed.length > 0 ? api.methodNotAllowed(method, path, allowed) : api.notFound(method, path) };
  }

  private closedOwnerOf(path: string): ServiceError | undefined {
    for (const { manifest, error } of this.closed.values()) {
      if (manifest.prefixes.some((prefix) => ownsPath(prefix, path))) return error;
    }
    return undefined;
  }

  /** The API that owns `path` by prefix (the longest prefix wins). */
  apiOf(path: string): ApiDefinition | undefined {
    let best: ApiDefinition | undefined;
    let bestLength = -1;
    for (const api of this.apis) {
      for (const prefix of api.prefixes) {
        if (ownsPath(prefix, path) && prefix.length > bestLength) {
          best = api;
          bestLength = prefix.length;
        }
      }
    }
    return best;
  }
}

function ownsPath(prefix: string, path: string): boolean {
  return path === prefix.replace(/\/$/, '') || path.startsWith(prefix);
}
