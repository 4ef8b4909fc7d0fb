import { systemClock, type Clock, type Decide } from '../engine/index.js';
import type { HealthChecker, Logger, StatsStore } from '../observability/index.js';
import { portIsTaken } from '../transports/free-port.js';
import { ApiThreadHost } from './apis/api-thread-host.js';
import { deciderFor } from './decisions/decider.js';
import { mainThreadCounters } from './decisions/main-thread-counters.js';
import { loadThreadCounterStore } from './decisions/open-counter-store.js';
import { startThreadTracing, TRACING_FLUSH_AT_STOP_MS } from './decisions/thread-tracing.js';
import { lockDataDir } from './instance-lock.js';
import { Lifecycle } from './lifecycle.js';
import { startListeners } from './listeners.js';
import { startProcessState } from './process-state.js';
import { startRules } from './rules/start-rules.js';
import { counterRoutes } from '../ratelimit/counters/index.js';
import type { ServiceSettings } from './service-settings.js';
import { startStatsServers } from './stats/start-stats-servers.js';
import type { StatsOutput } from './stats/stats-output.js';

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
  /**
   * Aborted when a stop is asked for while the service still starts: a wait on the outside (the
   * xDS server's first configuration) ends, the parts started so far are closed in order, and
   * `startApp` rejects with the signal's reason.
   */
  stopSignal?: AbortSignal;
}

/**
 * The main thread's root: starts every part in order, each registering its closer on one
 * lifecycle the moment it runs, so a failed start and a stop unwind the same way.
 */
export async function startApp(settings: ServiceSettings, logger: Logger, options: AppOptions = {}): Promise<App> {
  if (settings.httpWorkers > 0 && options.clock !== undefined) {
    throw new Error('an injected clock only reaches the main thread; use HTTP_WORKERS=0 with it');
  }
  const lifecycle = new Lifecycle(logger);
  try {
    return await startParts(settings, logger, options.clock ?? systemClock, lifecycle, options.stopSignal);
  } catch (error) {
    await lifecycle.close(settings.drainTimeoutMs);
    throw error;
  }
}

async function startParts(settings: ServiceSettings, logger: Logger, clock: Clock, lifecycle: Lifecycle, stopSignal: AbortSignal | undefined): Promise<App> {
  // Before anything binds: a second instance on the same port or data would split their state.
  const instanceLock = lockDataDir(settings.dataDir);
  lifecycle.add('the DATA_DIR lock', () => instanceLock.release());
  for (const [name, port] of [['PORT', settings.port], ['API_PORT', settings.apiPort ?? 0]] as const) {
    if (port !== 0 && (await portIsTaken(settings.host, port))) {
      throw new Error(`another process listens on ${settings.host}:${port} (${name}); stop it or choose another port`);
    }
  }

  const state = startProcessState(settings, logger, clock, lifecycle);

  // The main thread's own decisions: gRPC, and HTTP too when HTTP_WORKERS=0.
  const tracing = await startThreadTracing(settings);
  if (tracing !== undefined) lifecycle.add('tracing', () => tracing.shutdown(), TRACING_FLUSH_AT_STOP_MS);
  // /counters opens an engine on the main thread even in pool mode, where the decider loads no store.
  await loadThreadCounterStore(state.resources);
  const counters = mainThreadCounters(settings, state.resources, state.stats, clock, tracing);
  lifecycle.add('the counters engine', () => counters.close());
  const decider = await deciderFor(settings, state.resources, state.stats, clock, tracing, (engine) => counters.useEngine(engine));
  lifecycle.add('the decision engine', () => decider.close());

  const rules = await startRules(settings, state, (generation) => decider.inService(generation), logger, lifecycle, stopSignal);
  stopSignal?.throwIfAborted();

  // The alert and score APIs start beside the decision listeners, never before them: until the
  // API thread is ready, their requests get 503 in their API's form and decisions are served.
  const apiThread = new ApiThreadHost(settings, logger, state.collector);
  lifecycle.add('the API thread', () => apiThread.stop());
  if (settings.apis.length > 0) apiThread.startInBackground();

  const statsServers = await startStatsServers(settings, state, rules, logger, lifecycle, counterRoutes(() => counters.inspector()));
  stopSignal?.throwIfAborted();
  const decide: Decide = (request, reuse) => decider.decide(request, reuse);
  const listeners = await startListeners(settings, { state, decide, apiThread, tracing, logger }, lifecycle);

  // The one line a default log level (warn) still shows: the service is up, and where.
  logger.notice('ready', {
    http: listeners.httpPort,
    debug: statsServers.debugPort,
    grpc: settings.grpcUds !== '' ? settings.grpcUds : listeners.grpcPort,
    ...(statsServers.prometheusPort === undefined ? {} : { prometheus: statsServers.prometheusPort }),
    store: settings.backendType,
    httpThreads: settings.httpWorkers === 0 ? 'main' : settings.httpWorkers,
    decisions: settings.decisionMode,
    ...(listeners.apiPort === undefined ? {} : { api: listeners.apiPort }),
  });

  return {
    ...listeners,
    ...statsServers,
    stats: state.stats,
    health: state.health,
    apiThread,
    stop: () => lifecycle.close(settings.drainTimeoutMs),
  };
}
