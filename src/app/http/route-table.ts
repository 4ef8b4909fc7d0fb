import type { Decide } from '../../engine/index.js';
import type { Logger, Tracing } from '../../observability/index.js';
// The HTTP side alone: an HTTP thread loads no gRPC code.
import { rateLimitRoutes } from '../../ratelimit/http/index.js';
import type { ServedApi, Settings } from '../../settings/index.js';
import { ALERTS_MANIFEST } from '../../alerts/manifest.js';
import { SCORES_MANIFEST } from '../../scores/manifest.js';
import type { BodyBudget, HttpRoute } from '../../transports/http/index.js';
import { handoffRoutes, type ApiManifest, type ApiThreadClient } from '../../transports/http/handoff/index.js';
import type { Admission } from '../../transports/http/basic-auth/index.js';
import type { HeaderList } from '../../transports/http/index.js';

/**
 * What one listener serves: everything on PORT (the default), or, with API_PORT, the decisions
 * on PORT and the handed-off APIs on API_PORT.
 */
export type RouteSet = 'everything' | 'decisions' | 'apis';

export interface RouteTableParts {
  settings: Settings;
  logger: Logger;
  /** This thread's decisions (inline engine or pool); absent on the API_PORT front, which decides nothing. */
  decide?: Decide;
  isHealthy(): boolean;
  /** This thread's end of the hand-off to the API thread. */
  apiThread: ApiThreadClient;
  /** Alert and score body bytes all HTTP threads together may hold. */
  bodyBudget: BodyBudget;
  /** This thread's tracing, when TRACING_ENABLED. */
  tracing?: Tracing;
  /** The web configuration's basic auth of Alertmanager's paths, when WEB_CONFIG_FILE is set. */
  admit?: (headers: HeaderList) => Admission | Promise<Admission>;
}

/**
 * The APIs the API thread serves, by path prefix: the alert API (Alertmanager's paths, behind the
 * web configuration's basic auth as in Alertmanager) and the score API (its own bearer tokens).
 */
export const HANDED_OFF_APIS: readonly ApiManifest[] = [ALERTS_MANIFEST, SCORES_MANIFEST];

/**
 * The HTTP route table. Every thread that serves HTTP (the main thread with HTTP_WORKERS=0,
 * otherwise each HTTP worker thread, and the API_PORT front) builds it with this one function:
 * rate limit decisions inline on the thread, the alert and score APIs handed to the API thread.
 */
export function buildRouteTable(parts: RouteTableParts, serves: RouteSet = 'everything'): HttpRoute[] {
  const { settings, logger, decide } = parts;
  const routes: HttpRoute[] = [];
  if (serves !== 'apis') {
    if (decide === undefined) throw new Error('a listener that serves decisions needs a decider');
    routes.push(...rateLimitRoutes({ decide, isHealthy: parts.isHealthy, maxRequestBytes: settings.maxRequestBytes, requestCacheSize: settings.requestCacheSize, logger, tracing: parts.tracing }));
  }
  if (serves !== 'decisions') {
    const apis = HANDED_OFF_APIS.filter((api) => settings.apis.includes(api.name as ServedApi));
    routes.push(...handoffRoutes({ client: parts.apiThread, apis, maxRequestBytes: settings.apiMaxRequestBytes, budget: parts.bodyBudget, admit: parts.admit }));
  }
  return routes;
}

/** What PORT serves: everything, unless the APIs have a port of their own. */
export function portRouteSet(settings: Settings): RouteSet {
  return settings.apiPort === undefined ? 'everything' : 'decisions';
}
