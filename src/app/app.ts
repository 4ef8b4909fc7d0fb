import { startCounterStore } from '../backends/index.js';
import { ConfigWatcher } from '../config/index.js';
import { systemClock, type Clock, type Decision, type RateLimitRequest } from '../engine/index.js';
import { HealthChecker, ProcessStats, type Logger, type StatsStore, type Tracing } from '../observability/index.js';
import type { Settings } from '../settings/index.js';
import { ConfigMailbox, SharedHealth, StatsCollector, newStatsChannelName } from '../threads/index.js';
import type { SharedResources } from './shared-resources.js';
import { startDebugServer, startMetricsServer, type MetricsServer } from '../transports/debug/index.js';
import { healthService, startGrpcServer } from '../transports/grpc/index.js';
import { RATE_LIMIT_HEALTH_SERVICE, rateLimitService } from '../ratelimit/index.js';
import { BodyBudget, startHttpServer, type HttpServer } from '../transports/http/index.js';
import { ApiThreadClient } from '../transports/http/handoff/index.js';
import { ApiThreadHost } from './api-thread-host.js';
import { counterStoreHost } from './counter-store-host.js';
import { ConfigReloader } from './config-reloader.js';
import { RulesLoader } from './rules-loader.js';
import { deciderFor } from './decider.js';
import { startHttpFronts } from './http-fronts.js';
import { startHttpPort, type WebFront } from './web-front.js';
import { boundedStatsStore } from './stats-store.js';
import { startStatsOutput, type StatsOutput } from './stats-output.js';
import { createMetricsPage } from './metrics-page.js';
import { startThreadTracing } from './thread-tracing.js';
import { buildRouteTable } from './route-table.js';
import { Lifecycle } from './lifecycle.js';
import { lockDataDir } from './instance-lock.js';
import { portIsTaken } from '../transports/free-port.js';
import type { ServiceSettings } from './service-settings.js';

/** A running service: what main.ts (and whole-process tests) hold on to. */
export interface App {
  readonly httpPort: number;
  readonly debugPort: number;
  /** Bound gRPC TCP port (0 when listening on GRPC_UDS). */
  readonly grpcPort: number;
  /** Port of the USE_PROMETHEUS listener (PROMETHEUS_ADDR); undefined without it. */
  readonly prometheusPort: number | undefined;
  readonly stats: StatsStore;
  /** The statistics sink: `flush()` sends now instead of at the next STATS_FLUSH_INTERVAL. */
  readonly statsOutput: StatsOutput;
  readonly health: HealthChecker;
  /** The thread that serves the alert and score APIs (tests kill it to check the restart). */
  readonly apiThread: ApiThreadHost;
  /** Marks the service unhealthy (SIGTERM), drains in-flight requests and releases everything. */
  stop(): Promise<void>;
}

export interface AppOptions {
  clock?: Clock;
}

/** How often the counter store is looked after (the embedded store prepares the next window's tables off the hot path). */
const STORE_MAINTENANCE_MS = 250;

/** Of DRAIN_TIMEOUT, what the servers leave for releasing everything else once requests drained. */
const RELEASE_RESERVE_MS = 1000;

/** Wires settings into components and starts them; the only place that knows every part. */
export async function startApp(settings: ServiceSettings, logger: Logger, options: AppOptions = {}): Promise<App> {
  if (settings.configType !== 'FILE') {
    throw new Error('CONFIG_TYPE=GRPC_XDS_SOTW is not available in this build yet; use FILE');
  }
  if (settings.httpWorkers > 0 && options.clock !== undefined) {
    throw new Error('an injected clock only reaches the main thread; use HTTP_WORKERS=0 with it');
  }
  const lifecycle = new Lifecycle(logger);
  try {
    return await startParts(settings, logger, options.clock ?? systemClock, lifecycle);
  } catch (error) {
    await lifecycle.close(settings.drainTimeoutMs);
    throw error;
  }
}

/** Starts every part in order, registering each one's closer the moment it runs. */
async function startParts(settings: ServiceSettings, logger: Logger, clock: Clock, lifecycle: Lifecycle): Promise<App> {
  // Before anything binds: a second instance on the same port or data would split their state.
  const instanceLock = lockDataDir(settings.dataDir);
  lifecycle.add('the DATA_DIR lock', () => instanceLock.release());
  if (settings.port !== 0 && (await portIsTaken(settings.host, settings.port))) {
    throw new Error(`another process listens on ${settings.host}:${settings.port} (PORT); stop it or choose another port`);
  }

  const stats = boundedStatsStore(settings, logger, 'main');
  const health = new HealthChecker({ requireConfig: settings.healthyWithAtLeastOneConfigLoaded });

  // Shared by every thread: the configuration in service, health, and the counter store.
  const mailbox = ConfigMailbox.create(settings.configMaxBytes);
  const sharedHealth = new SharedHealth();
  sharedHealth.set(health.isHealthy());
  health.onChange((healthy) => sharedHealth.set(healthy));
  const counterStore = startCounterStore(settings, counterStoreHost(settings, stats, health, sharedHealth));
  lifecycle.add('the counter store', () => counterStore.running.close?.());
  const collector = new StatsCollector(newStatsChannelName(), stats);
  lifecycle.add('the statistics channel', () => collector.close());
  const bodyBudget = BodyBudget.create(settings.apiMaxBodyBytesInFlight);
  const resources: SharedResources = {
    mailboxBuffer: mailbox.buffer,
    healthBuffer: sharedHealth.buffer,
    bodyBudgetBuffer: bodyBudget.buffer,
    statsChannel: collector.channelName,
    counterStore: counterStore.forThreads,
    storeLog: { logLevel: settings.logLevel, logFormat: settings.logFormat },
    statsMaxNames: settings.statsMaxNames,
  };
  logger.info(...counterStore.description);
  const processStats = new ProcessStats(stats, 'main', { processWide: true });
  lifecycle.add('the process statistics', () => processStats.close());
  /** Every thread's latest changes and the figures read on demand, before a flush or a read. */
  const refreshStats = async () => {
    await collector.flush();
    counterStore.running.refreshStats?.();
    processStats.sample();
  };
  const maintenance = setInterval(() => counterStore.running.maintain?.(clock.nowSeconds()), STORE_MAINTENANCE_MS);
  maintenance.unref();
  lifecycle.add('the store maintenance', () => clearInterval(maintenance));

  // The main thread's own decisions: gRPC, and HTTP too when HTTP_WORKERS=0.
  const tracing = await startThreadTracing(settings);
  if (tracing !== undefined) lifecycle.add('tracing', () => tracing.shutdown());
  const decider = deciderFor(settings, resources, stats, clock, tracing);
  lifecycle.add('the decision engine', () => decider.close());
  const decide = (request: RateLimitRequest) => decider.decide(request);

  const location = {
    runtimeRoot: settings.runtimeRoot,
    runtimeSubdirectory: settings.runtimeSubdirectory,
    runtimeAppDirectory: settings.runtimeAppDirectory,
    watchRoot: settings.runtimeWatchRoot,
  };
  const rulesLoader = new RulesLoader({
    data: {
      files: { ...location, ignoreDotFiles: settings.runtimeIgnoreDotFiles, maxBytes: settings.configMaxBytes },
      mergeDomainConfigs: settings.mergeDomainConfig,
      mailboxBuffer: mailbox.buffer,
      nice: settings.configLoaderNice,
    },
    maxHeapMb: settings.configLoaderMaxHeapMb,
    timeoutMs: settings.configLoadTimeoutMs,
    logger,
  });
  lifecycle.add('the rules loader', () => rulesLoader.close());
  const reloader = new ConfigReloader({
    load: () => rulesLoader.load(),
    inService: (generation) => decider.inService(generation),
    stats,
    health,
    logger,
  });
  // The first load always completes before the servers listen (upstream blocks on the first
  // config event); a failed first load is only counted and requests then get "no configuration".
  await reloader.reload();
  const watcher = new ConfigWatcher({
    ...location,
    pollIntervalMs: settings.runtimeWatchPollMs,
    onChange: () => void reloader.reload(),
  });
  watcher.start();
  lifecycle.add('the rules watcher', () => watcher.close());

  // The alert and score APIs start beside the decision listeners, never before them: until the
  // API thread is ready, their requests get 503 in their API's form and decisions are served.
  const apiThread = new ApiThreadHost(settings, logger, collector);
  lifecycle.add('the API thread', () => apiThread.stop());
  if (settings.apis.length > 0) apiThread.startInBackground();

  const metricsPage = await createMetricsPage(settings, stats, refreshStats);
  const debug = await startDebugServer({
    host: settings.debugHost,
    port: settings.debugPort,
    stats: async () => {
      await refreshStats();
      return stats.snapshot();
    },
    rlconfig: () => reloader.rlconfig,
    metrics: metricsPage,
    token: settings.debugToken,
    logger,
  });
  lifecycle.add('the debug server', () => debug.close());
  let prometheus: MetricsServer | undefined;
  if (settings.statsSink === 'prometheus') {
    const server = await startMetricsServer({
      address: settings.prometheusAddr,
      path: settings.prometheusPath,
      metrics: metricsPage,
      onError: (error) => logger.error('metrics page failed', { error: String(error) }),
    });
    lifecycle.add('the Prometheus listener', () => server.close());
    prometheus = server;
  }
  const statsOutput = startStatsOutput(settings, stats, refreshStats, logger);
  // Closed after the servers drained, so the last flush holds their last requests.
  lifecycle.add('the statistics sink', () => statsOutput.close());

  const grpc = await startGrpcServer({
    listen: settings.grpcUds !== '' ? { unixSocket: settings.grpcUds } : { host: settings.grpcHost, port: settings.grpcPort },
    services: (guard) => [
      rateLimitService({ decide, stats, logger, guard, tracing }),
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
  lifecycle.add('the gRPC server', () => grpc.close(0));
  const http = await startHttpPort(settings, logger, (frontSettings, web) =>
    settings.httpWorkers > 0
      ? startHttpFronts(settings.httpWorkers, frontSettings, resources, apiThread, logger, web)
      : startMainThreadHttp({ settings, frontSettings, web, logger, decide, isHealthy: () => health.isHealthy(), apiThread, bodyBudget, tracing }),
  );
  // The first closer of a stop: both servers drain side by side (as upstream stops its servers),
  // leaving part of DRAIN_TIMEOUT for releasing the rest.
  lifecycle.add('the HTTP and gRPC servers', async (leftMs: number) => {
    health.set('sigterm', false);
    const drainMs = Math.max(0, leftMs - RELEASE_RESERVE_MS);
    await Promise.all([http.close(drainMs), grpc.close(drainMs)]);
  });

  // The one line a default log level (warn) still shows: the service is up, and where.
  logger.notice('ready', {
    http: http.port,
    debug: debug.port,
    grpc: settings.grpcUds !== '' ? settings.grpcUds : grpc.port,
    ...(prometheus === undefined ? {} : { prometheus: prometheus.port }),
    store: settings.backendType,
    httpThreads: settings.httpWorkers === 0 ? 'main' : settings.httpWorkers,
    decisions: settings.decisionMode,
  });

  return {
    httpPort: http.port,
    debugPort: debug.port,
    grpcPort: settings.grpcUds !== '' ? 0 : grpc.port,
    prometheusPort: prometheus?.port,
    stats,
    statsOutput,
    health,
    apiThread,
    stop: () => lifecycle.close(settings.drainTimeoutMs),
  };
}

interface MainThreadHttpParts {
  settings: Settings;
  /** Where the HTTP port listens (behind Node's TLS, a loopback port: see web-front.ts). */
  frontSettings: Settings;
  web: WebFront | undefined;
  logger: Logger;
  decide(request: RateLimitRequest): Decision | Promise<Decision>;
  isHealthy(): boolean;
  apiThread: ApiThreadHost;
  bodyBudget: BodyBudget;
  tracing: Tracing | undefined;
}

/** HTTP_WORKERS=0: the main thread serves HTTP too, with its own end of the hand-off. */
async function startMainThreadHttp(parts: MainThreadHttpParts): Promise<HttpServer> {
  const { settings, frontSettings, apiThread } = parts;
  const client = new ApiThreadClient(settings.apiMaxPending);
  apiThread.addFront((port) => client.attach(port));
  const access = parts.web?.accessForMainThread();
  const routes = buildRouteTable({ ...parts, apiThread: client, admit: access?.admit });
  const server = await startHttpServer({ host: frontSettings.host, port: frontSettings.port, routes, ...access?.serverOptions });
  access?.attach(server);
  return {
    port: server.port,
    async close(drainMs) {
      await server.close(drainMs);
      client.close();
    },
  };
}
