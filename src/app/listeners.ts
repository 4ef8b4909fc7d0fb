import type { Decide } from '../engine/index.js';
import type { Logger, Tracing } from '../observability/index.js';
import { RATE_LIMIT_HEALTH_SERVICE, rateLimitService } from '../ratelimit/index.js';
import { healthService, startGrpcServer, type GrpcServer } from '../transports/grpc/index.js';
import type { HttpServer } from '../transports/http/index.js';
import type { ApiThreadHost } from './apis/api-thread-host.js';
import { startHttpFronts } from './http/http-fronts.js';
import { startMainThreadHttp } from './http/main-thread-http.js';
import { portRouteSet } from './http/route-table.js';
import { startHttpPort } from './http/web-front.js';
import type { Lifecycle } from './lifecycle.js';
import type { ProcessState } from './process-state.js';
import type { ServiceSettings } from './service-settings.js';

/** Of DRAIN_TIMEOUT, what the listeners leave for releasing everything else once requests drained. */
const RELEASE_RESERVE_MS = 1000;

export interface ListenerParts {
  state: ProcessState;
  decide: Decide;
  apiThread: ApiThreadHost;
  tracing: Tracing | undefined;
  logger: Logger;
}

export interface Listeners {
  httpPort: number;
  /** Bound API_PORT, when the APIs have a port of their own. */
  apiPort: number | undefined;
  /** Bound gRPC TCP port (0 when listening on GRPC_UDS). */
  grpcPort: number;
}

/**
 * The gRPC listener (ShouldRateLimit and health, on the main thread), the HTTP port (on
 * HTTP_WORKERS threads, or the main thread) and API_PORT when set (a front thread of its own).
 * Their closer is the first of a stop: the service turns unhealthy and all drain side by side, as
 * upstream stops its servers.
 */
export async function startListeners(settings: ServiceSettings, parts: ListenerParts, lifecycle: Lifecycle): Promise<Listeners> {
  const { state, logger } = parts;
  const grpc = await startGrpc(settings, parts);
  lifecycle.add('the gRPC server', () => grpc.close(0));
  const closers: Array<(drainMs: number) => Promise<void>> = [(drainMs) => grpc.close(drainMs)];
  const drainAll = async (leftMs: number) => {
    state.health.set('sigterm', false);
    const drainMs = Math.max(0, leftMs - RELEASE_RESERVE_MS);
    await Promise.all(closers.map((close) => close(drainMs)));
  };
  lifecycle.add('the HTTP and gRPC servers', drainAll);
  const http = await startHttpPort(settings, logger, (frontSettings, web) =>
    settings.httpWorkers > 0
      ? startHttpFronts(settings.httpWorkers, frontSettings, state.resources, parts.apiThread, logger, web, portRouteSet(settings))
      : startMainThreadHttp({ ...parts, settings, frontSettings, web, isHealthy: () => state.health.isHealthy(), bodyBudget: state.bodyBudget }),
  );
  closers.push((drainMs) => http.close(drainMs));
  const api = settings.apiPort === undefined ? undefined : await startApiPort({ ...settings, port: settings.apiPort }, parts);
  if (api !== undefined) closers.push((drainMs) => api.close(drainMs));
  return { httpPort: http.port, apiPort: api?.port, grpcPort: settings.grpcUds !== '' ? 0 : grpc.port };
}

/**
 * API_PORT: the alert and score APIs on a front thread of their own, with the same web
 * configuration as PORT (TLS, basic auth, headers), so that a flood of alerts or uploads never
 * waits in line with decisions on an HTTP thread.
 */
function startApiPort(settings: ServiceSettings, { state, apiThread, logger }: ListenerParts): Promise<HttpServer> {
  return startHttpPort(settings, logger, (frontSettings, web) => startHttpFronts(1, frontSettings, state.resources, apiThread, logger, web, 'apis'));
}

function startGrpc(settings: ServiceSettings, { state, decide, tracing, logger }: ListenerParts): Promise<GrpcServer> {
  const { stats, health } = state;
  return startGrpcServer({
    listen: settings.grpcUds !== '' ? { unixSocket: settings.grpcUds } : { host: settings.grpcHost, port: settings.grpcPort },
    services: (guard) => [
      rateLimitService({ decide, stats, logger, guard, tracing, requestCacheSize: settings.requestCacheSize }),
      healthService({ source: health, followed: RATE_LIMIT_HEALTH_SERVICE, stats, guard }),
    ],
    stats,
    logger,
    tls: settings.grpcServerUseTls
      ? {
          certFile: settings.grpcServerTlsCert,
          keyFile: settings.grpcServerTlsKey,
          clientCaFile: settings.grpcClientTlsCacert === '' ? undefined : settings.grpcClientTlsCacert,
          clientSan: settings.grpcClientTlsSan === '' ? undefined : settings.grpcClientTlsSan,
          reloadIntervalMs: settings.grpcTlsReloadIntervalMs,
        }
      : undefined,
    maxConnectionAgeMs: settings.grpcMaxConnectionAgeMs,
    maxConnectionAgeGraceMs: settings.grpcMaxConnectionAgeGraceMs,
  });
}
