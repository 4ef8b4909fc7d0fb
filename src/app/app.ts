import { SharedMemoryCounterStore } from '../backends/shared-memory/index.js';
import { ConfigWatcher } from '../config/index.js';
import { systemClock, type Clock, type RateLimitRequest } from '../engine/index.js';
import { HealthChecker, ProcessStats, type Logger, type StatsStore } from '../observability/index.js';
import type { Settings } from '../settings/index.js';
import { ConfigMailbox, SharedHealth, StatsCollector, newStatsChannelName } from '../threads/index.js';
import type { SharedResources } from './shared-resources.js';
import { startDebugServer, startMetricsServer, type DebugServer, type MetricsServer } from '../transports/debug/index.js';
import { startGrpcServer, type GrpcServer } from '../transports/grpc/index.js';
import { startHttpServer, type HttpServer } from '../transports/http/index.js';
import { ApiThreadClient } from '../transports/http/handoff/index.js';
import { ApiThreadHost } from './api-thread-host.js';
import { backendSpecOf, describeBackend } from './backend-spec.js';
import { ConfigReloader } from './config-reloader.js';
import { RulesLoader } from './rules-loader.js';
import { createDecider } from './decider.js';
import { startHttpFronts } from './http-fronts.js';
import { startHttpPort, type WebFront } from './web-front.js';
import { publishMemoryStoreStats } from './memory-store-stats.js';
import { boundedStatsStore } from './stats-store.js';
import { startStatsOutput, type StatsOutput } from './stats-output.js';
import { createMetricsPage } from './metrics-page.js';
import { startThreadTracing } from './thread-tracing.js';
import { buildRouteTable } from './route-table.js';

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

/** How often the embedded store prepares the next window's tables off the hot path. */
const STORE_MAINTENANCE_MS = 250;

/** Wires settings into components and starts them; the only place that knows every part. */
export async function startApp(settings: Settings, logger: Logger, options: AppOptions = {}): Promise<App> {
  if (settings.configType !== 'FILE') {
    throw new Error('CONFIG_TYPE=GRPC_XDS_SOTW is not available in this build yet; use FILE');
  }
  if (settings.httpWorkers > 0 && options.clock !== undefined) {
    throw new Error('an injected clock only reaches the main thread; use HTTP_WORKERS=0 with it');
  }
  const clock = options.clock ?? systemClock;
  const stats = boundedStatsStore(settings, logger, 'main');
  const health = new HealthChecker({ requireConfig: settings.healthyWithAtLeastOneConfigLoaded });

  // Shared by every thread: counters, the configuration in service, and health.
  const backend = backendSpecOf(settings);
  // Sized only when it counts; other backends still pass a (tiny, never attached) buffer.
  const store = SharedMemoryCounterStore.create({ maxKeysPerWindow: backend.type === 'memory' ? settings.memoryStoreMaxKeysPerWindow : 1 });
  const mailbox = ConfigMailbox.create(settings.configMaxBytes);
  const sharedHealth = new SharedHealth();
  sharedHealth.set(health.isHealthy());
  health.onChange((healthy) => sharedHealth.set(healthy));
  const collector = new StatsCollector(newStatsChannelName(), stats);
  const resources: SharedResources = {
    storeBuffer: store.buffer,
    mailboxBuffer: mailbox.buffer,
    healthBuffer: sharedHealth.buffer,
    statsChannel: collector.channelName,
    backend,
    storeLog: { logLevel: settings.logLevel, logFormat: settings.logFormat },
    statsMaxNames: settings.statsMaxNames,
  };
  logger.info(...describeBackend(backend, settings));
  const refreshStoreStats = backend.type === 'memory' ? publishMemoryStoreStats(store, stats) : () => {};
  const processStats = new ProcessStats(stats, 'main', { processWide: true });
  /** Every thread's latest changes and the figures read on demand, before a flush or a read. */
  const refreshStats = async () => {
    await collector.flush();
    refreshStoreStats();
    processStats.sample();
  };
  const maintenance = setInterval(() => {
    if (backend.type === 'memory') store.maintain(clock.nowSeconds());
    // KVSTORE_HEALTH_CHECK_ACTIVE_CONNECTION: healthy only while some thread has a connection up.
    if (backend.type === 'kvstore' && settings.kvstoreHealthCheckActiveConnection) {
      health.set('store', sharedHealth.storeConnections() > 0);
    }
  }, STORE_MAINTENANCE_MS);
  maintenance.unref();
  if (backend.type === 'kvstore' && settings.kvstoreHealthCheckActiveConnection) health.set('store', false);

  // The main thread's own decisions: gRPC, and HTTP too when HTTP_WORKERS=0.
  const tracing = await startThreadTracing(settings);
  const decider = createDecider(settings, resources, stats, clock, tracing);
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

  const apiThread = new ApiThreadHost(settings, logger);
  // HTTP_WORKERS=0: the main thread serves HTTP too, with its own end of the hand-off.
  const mainThreadClient = new ApiThreadClient(settings.apiMaxPending);
  const startMainThreadHttp = async (frontSettings: Settings, web: WebFront | undefined): Promise<HttpServer> => {
    const client = mainThreadClient;
    apiThread.addFront((port) => client.attach(port));
    const access = web?.accessForMainThread();
    const routes = buildRouteTable({ settings, logger, decide, isHealthy: () => health.isHealthy(), apiThread: client, tracing, admit: access?.admit });
    const server = await startHttpServer({ host: frontSettings.host, port: frontSettings.port, routes, ...access?.serverOptions });
    access?.attach(server);
    return server;
  };
  let http: HttpServer | undefined;
  let debug: DebugServer | undefined;
  let grpc: GrpcServer | undefined;
  let prometheus: MetricsServer | undefined;
  try {
    const metricsPage = await createMetricsPage(settings, stats, refreshStats);
    await apiThread.start();
    grpc = await startGrpcServer({
      listen: settings.grpcUds !== '' ? { unixSocket: settings.grpcUds } : { host: settings.grpcHost, port: settings.grpcPort },
      decide,
      health,
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
      tracing,
    });
    http = await startHttpPort(settings, logger, (frontSettings, web) =>
      settings.httpWorkers > 0 ? startHttpFronts(settings.httpWorkers, frontSettings, resources, apiThread, logger, web) : startMainThreadHttp(frontSettings, web),
    );
    debug = await startDebugServer({
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
    if (settings.statsSink === 'prometheus') {
      prometheus = await startMetricsServer({
        address: settings.prometheusAddr,
        path: settings.prometheusPath,
        metrics: metricsPage,
        onError: (error) => logger.error('metrics page failed', { error: String(error) }),
      });
    }
  } catch (error) {
    watcher.close();
    await rulesLoader.close();
    clearInterval(maintenance);
    await http?.close(0);
    await grpc?.close(0);
    await debug?.close();
    await prometheus?.close();
    mainThreadClient.close();
    await apiThread.stop();
    await decider.close();
    await tracing?.shutdown();
    collector.close();
    processStats.close();
    throw error;
  }
  const statsOutput = startStatsOutput(settings, stats, refreshStats, logger);
  // The one line a default log level (warn) still shows: the service is up, and where.
  logger.notice('ready', {
    http: http.port,
    debug: debug.port,
    grpc: settings.grpcUds !== '' ? settings.grpcUds : grpc.port,
    ...(prometheus === undefined ? {} : { prometheus: prometheus.port }),
    store: backend.type,
    httpThreads: settings.httpWorkers === 0 ? 'main' : settings.httpWorkers,
    decisions: settings.decisionMode,
  });

  const httpServer = http;
  const debugServer = debug;
  const grpcServer = grpc;
  const prometheusServer = prometheus;
  let stopping: Promise<void> | undefined;
  return {
    httpPort: httpServer.port,
    debugPort: debugServer.port,
    grpcPort: settings.grpcUds !== '' ? 0 : grpcServer.port,
    prometheusPort: prometheusServer?.port,
    stats,
    statsOutput,
    health,
    apiThread,
    stop() {
      stopping ??= (async () => {
        health.set('sigterm', false);
        watcher.close();
        await rulesLoader.close();
        clearInterval(maintenance);
        await Promise.all([httpServer.close(), grpcServer.close()]);
        mainThreadClient.close();
        await apiThread.stop();
        await decider.close();
        await tracing?.shutdown();
        await statsOutput.close();
        processStats.close();
        await debugServer.close();
        await prometheusServer?.close();
        collector.close();
        await store.close();
      })();
      return stopping;
    },
  };
}
