import { ServiceError } from '../../errors/index.js';
import type { ApiResponse, ApiRoute } from '../../transports/http/handoff/index.js';
import { goJson } from './responses.js';

/** Loads the configuration file again; undefined when it is in service, else why not. */
export type Reload = () => Promise<string | undefined>;

const V1_GONE: ApiResponse = {
  status: 410,
  headers: [['Content-Type', 'application/json']],
  body: goJson({
    status: 'deprecated',
    error: 'The Alertmanager v1 API was deprecated in version 0.16.0 and is removed as of version 0.27.0 - please use the equivalent route in the v2 API',
  }),
};

/**
 * Alertmanager's routes outside the v2 API: POST (or PUT) /-/reload, and every /api/v1/ path,
 * which Alertmanager >= 0.27 answers 410 with this body.
 */
export function adminRoutes(reload: Reload): ApiRoute[] {
  const reloadHandler = async () => {
    const problem = await reload();
    if (problem !== undefined) return new ServiceError('AM_RELOAD_FAILED', `failed to reload config: ${problem}`);
    return { status: 200, body: '' };
  };
  const gone = () => V1_GONE;
  return [
    { method: 'POST', path: '/-/reload', handle: reloadHandler },
    { method: 'PUT', path: '/-/reload', handle: reloadHandler },
    ...(['GET', 'POST', 'PUT', 'DELETE'] as const).map((method) => ({ method, path: '/api/v1/*', handle: gone })),
  ];
}
