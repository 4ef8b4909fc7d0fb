import { ALERTS_MANIFEST } from './manifest.js';
import { ServiceError } from '../errors/index.js';
import type { ApiDefinition, ApiRequest, ApiResponse, ApiRoute } from '../transports/http/handoff/index.js';
import { adminRoutes, type Reload } from './api/admin-routes.js';
import { historyRoutes, type HistoryParts } from './api/history-routes.js';
import type { StatusSource } from './api/status.js';
import { v2Routes, type V2Parts } from './api/v2-routes.js';
import type { AlertsService } from './alerts-service.js';
import { healthRoutes, type ReadinessSource } from './health-routes.js';

/**
 * Alertmanager's routing errors (go-openapi): `path /api/v2/foo was not found` and `method PUT is
 * not allowed, but [GET,POST] are` with `Allow: GET,POST`. Outside `/api/v2/` Alertmanager's own
 * mux answers with Go's plain-text 404.
 */
function notFound(_method: string, path: string): ServiceError {
  return path.startsWith('/api/v2') ? new ServiceError('AM_NOT_FOUND', `path ${path} was not found`) : new ServiceError('HTTP_NOT_FOUND', '404 page not found');
}

function methodNotAllowed(method: string, _path: string, allowed: readonly string[]): ServiceError {
  return new ServiceError('AM_METHOD_NOT_ALLOWED', `method ${method} is not allowed, but [${allowed.join(',')}] are`, { allow: allowed.join(',') });
}

/** rs/cors's default policy, as Alertmanager uses it: any origin; preflights allow GET, POST and HEAD only. */
const CORS_METHODS = new Set(['GET', 'POST', 'HEAD']);

function preflight(request: ApiRequest): ApiResponse {
  const origin = request.headers.get('origin');
  const method = (request.headers.get('access-control-request-method') ?? '').toUpperCase();
  const headers: Array<[string, string]> = [['Vary', 'Origin, Access-Control-Request-Method, Access-Control-Request-Headers']];
  if (origin !== undefined && CORS_METHODS.has(method)) headers.push(['Access-Control-Allow-Origin', '*'], ['Access-Control-Allow-Methods', method]);
  return { status: 200, headers, body: '' };
}

/** Adds `Access-Control-Allow-Origin: *` to the answers of requests that carry an Origin. */
function withCors(route: ApiRoute): ApiRoute {
  return {
    ...route,
    handle: async (request) => {
      const outcome = await route.handle(request);
      if (request.headers.get('origin') === undefined || outcome instanceof ServiceError) return outcome;
      return { ...outcome, headers: [...(outcome.headers ?? []), ['Access-Control-Allow-Origin', '*']] };
    },
  };
}

/** The routes that read or change alerts and silences, which wait for the state to load. */
const STATE_ROUTES = /^\/api\/v2\/(alerts|silences?)(\/|$)/;

/** Until the alert state has loaded, its routes answer 503 in Alertmanager's error form. */
function whenReady(route: ApiRoute, readiness: ReadinessSource): ApiRoute {
  if (!STATE_ROUTES.test(route.path)) return route;
  const notReady = new ServiceError('AM_NOT_READY', 'the alert state is still loading; try again shortly');
  return { ...route, handle: (request) => (readiness.isReady() ? route.handle(request) : notReady) };
}

export interface AlertsApiParts extends Omit<V2Parts, 'service' | 'status'>, HistoryParts {
  readiness: ReadinessSource;
  service: AlertsService;
  status: StatusSource;
  reload: Reload;
}

/** The alert management API (Alertmanager API v2 and its health and reload routes) as the API thread serves it. */
export function alertsApi(parts: AlertsApiParts): ApiDefinition {
  const routes: ApiRoute[] = [
    ...healthRoutes(parts.readiness),
    ...adminRoutes(parts.reload),
    ...v2Routes(parts)
      .map((route) => whenReady(route, parts.readiness))
      .map(withCors),
    ...historyRoutes(parts).map(withCors),
    { method: 'OPTIONS', path: '/api/v2/*', handle: preflight },
  ];
  return {
    name: ALERTS_MANIFEST.name,
    routes,
    notFound,
    methodNotAllowed,
    internalError: 'AM_INTERNAL',
  };
}
