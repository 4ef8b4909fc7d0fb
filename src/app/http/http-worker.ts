/**
 * Entry point of an HTTP front thread: a uWS app on the shared port (SO_REUSEPORT) serving the
 * route table, deciding through its own Decider and handing the alert and score APIs to the API
 * thread. Its statistics reach the main thread through the stats channel. The API_PORT front is
 * one of these that serves the APIs only: it decides nothing and runs at API_THREAD_NICE, since
 * its work is the API thread's.
 */
import { parentPort, threadId, workerData, type MessagePort } from 'node:worker_threads';
import { systemClock } from '../../engine/index.js';
import { ProcessStats, createLogger } from '../../observability/index.js';
import type { Settings } from '../../settings/index.js';
import { niceThisThread, SharedHealth, StatsReporter } from '../../threads/index.js';
import { BodyBudget, ListenFailed, startHttpServer, WebAccess } from '../../transports/http/index.js';
import { ApiThreadClient } from '../../transports/http/handoff/index.js';
import type { ApiPortDelivery } from '../apis/api-thread-messages.js';
import { deciderFor } from '../decisions/decider.js';
import { startThreadTracing, TRACING_FLUSH_AT_STOP_MS } from '../decisions/thread-tracing.js';
import type { FrontCommand, FrontReport } from './http-front-messages.js';
import { buildRouteTable, type RouteSet } from './route-table.js';
import type { SharedResources } from '../shared-resources.js';
import { boundedStatsStore } from '../stats/stats-store.js';
import { Lifecycle } from '../lifecycle.js';
import type { WebFrontSetup } from './web-front.js';

const { settings, resources, port, serves, web: webSetup } = workerData as { settings: Settings; resources: SharedResources; port: number; serves: RouteSet; web?: WebFrontSetup };
const post = (report: FrontReport) => parentPort?.postMessage(report);

/** What a thread leaves for releasing its engine, store connections and tracing once its server closed. */
const RELEASE_MS = 2000;

const logger = createLogger(settings.logLevel, settings.logFormat);
const lifecycle = new Lifecycle(logger);
const stats = boundedStatsStore(settings, logger, 'HTTP');
const processStats = new ProcessStats(stats, `http_${threadId}`, { processWide: false });
const reporter = new StatsReporter(resources.statsChannel, stats, () => processStats.sample());
lifecycle.add('the statistics reporter', () => {
  processStats.close();
  reporter.close();
});
const decides = serves !== 'apis';
if (!decides) {
  const notNiced = niceThisThread(settings.apiThreadNice);
  if (notNiced !== undefined) logger.warn('the API_PORT thread runs at normal priority', { reason: notNiced, API_THREAD_NICE: settings.apiThreadNice });
}
const tracing = decides ? await startThreadTracing(settings) : undefined;
if (tracing !== undefined) lifecycle.add('tracing', () => tracing.shutdown(), TRACING_FLUSH_AT_STOP_MS);
const decider = decides ? await deciderFor(settings, resources, stats, systemClock, tracing) : undefined;
if (decider !== undefined) lifecycle.add('the decision engine', () => decider.close());
const health = new SharedHealth(resources.healthBuffer);
const apiThread = new ApiThreadClient(settings.apiMaxPending);
lifecycle.add('the API hand-off', () => apiThread.close());
const web = webSetup === undefined ? undefined : new WebAccess(webSetup.config, webSetup.passwordPort);
if (web !== undefined) lifecycle.add('the web configuration', () => web.close());

/** Releases everything this thread started, says how it ended, and lets the thread exit. */
async function end(report: FrontReport): Promise<void> {
  await lifecycle.close(RELEASE_MS);
  post(report);
  parentPort?.close();
}

try {
  const server = await startHttpServer({
    host: settings.host,
    port,
    routes: buildRouteTable(
      {
        settings,
        logger,
        decide: decider === undefined ? undefined : (request, reuse) => decider.decide(request, reuse),
        isHealthy: () => health.isHealthy(),
        apiThread,
        bodyBudget: BodyBudget.attach(resources.bodyBudgetBuffer),
        tracing,
        admit: web?.admit,
      },
      serves,
    ),
    ...web?.serverOptions,
  });
  web?.attach(server);
  parentPort?.on('message', (message: FrontCommand | ApiPortDelivery) => {
    if (message.type === 'api-port') {
      apiThread.attach(message.port as MessagePort);
      return;
    }
    if (message.type === 'web-config') {
      web?.apply(message.config).catch((error: unknown) => logger.error('HTTP thread kept its TLS certificate', { error: String(error) }));
      return;
    }
    // Draining: requests in flight finish within the grace the main thread gives, then the rest is released.
    void server.close(message.graceMs).then(() => end({ type: 'drained' }));
  });
  post({ type: 'listening', port: server.port });
} catch (error) {
  await end({ type: 'failed', message: (error as Error).message, listenFailed: error instanceof ListenFailed });
}
