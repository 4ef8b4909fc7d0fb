import type { Exchange } from './exchange.js';
import type { HttpRequest } from './uws.js';

/** uWS's route methods; `any` matches every method. */
export type RouteMethod = 'any' | 'get' | 'post' | 'put' | 'patch' | 'del' | 'head' | 'options';

/**
 * One entry of the route table every HTTP thread serves. `pattern` is a uWS pattern: exact,
 * `:name` for one segment, or a trailing `/*` for a prefix. The request object is valid only
 * during the synchronous part of `handle` (uWS reuses it), so read what you need there.
 */
export interface HttpRoute {
  method: RouteMethod;
  pattern: string;
  handle(exchange: Exchange, req: HttpRequest): void;
}
