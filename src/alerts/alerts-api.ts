import { ServiceError } from '../errors/index.js';
import type { ApiDefinition, ApiRoute } from '../transports/http/handoff/index.js';
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

export interface AlertsApiParts {
  readiness: ReadinessSource;
}

/** The alert management API (Alertmanager API v2) as the API thread serves it. */
export function alertsApi(parts: AlertsApiParts): ApiDefinition {
  const routes: ApiRoute[] = [...healthRoutes(parts.readiness)];
  return {
    name: 'alerts',
    prefixes: ['/api/v2/', '/api/v1/', '/-/'],
    routes,
    notFound,
    methodNotAllowed,
    internalError: 'AM_INTERNAL',
  };
}
