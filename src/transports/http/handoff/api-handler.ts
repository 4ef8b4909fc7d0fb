import { attempt } from '../../../errors/index.js';
import type { ApiHandler, ApiOutcome, ApiRequest, ApiRoute } from './api-route.js';

/**
 * A handler whose steps may stop with `unwrap` (src/errors/steps.ts): the `ServiceError` a step
 * stopped on is its answer. Anything else it throws goes on to the API's internal error.
 */
export function apiHandler(handle: (request: ApiRequest) => ApiOutcome | Promise<ApiOutcome>): ApiHandler {
  return (request) => attempt(() => handle(request));
}

/** One operation of an API, named after its upstream operation id: what it works with, and the request. */
export type ApiOperation<Parts> = (parts: Parts, request: ApiRequest) => ApiOutcome | Promise<ApiOutcome>;

/** Routes to operations sharing `parts`, one line each: `route('GET', '/api/v2/status', getStatus)`. */
export function operationRoutes<Parts>(parts: Parts): (method: ApiRoute['method'], path: string, operation: ApiOperation<Parts>) => ApiRoute {
  return (method, path, operation) => ({ method, path, handle: apiHandler((request) => operation(parts, request)) });
}
