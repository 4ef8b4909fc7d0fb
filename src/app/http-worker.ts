/**
 * Entry point of an HTTP front thread: a uWS app on the shared port (SO_REUSEPORT) serving the
 * route table, deciding through its own Decider and handing the alert and score APIs to the API
 * thread. Its statistics reach the main thread through the stats channel.
 */
import { parentPort, threadId, workerData, type MessagePort } from 'node:worker_threads';
import { systemClock } from '../engine/index.js';
import { ProcessStats, createLogger } from '../observability/index.js';
import type { Settings } from '../settings/index.js';
import { SharedHealth, StatsReporter } from '../threads/index.js';
import { BodyBudget, startHttpServer, WebAccess } from '../transports/http/index.js';
import { ApiThreadClient } from '../transports/http/handoff/index.js';
import type { ApiPortDelivery } from './api-thread-messages.js';
import { deciderFor } from './decider.js';
import { startThreadTracing } from './thread-tracing.js';
import type { FrontCommand, FrontReport } from './http-front-messages.js';
import { buildRouteTable } from './route-table.js';
import type { SharedResources } from './shared-resources.js';
import { boundedStatsStore } from './stats-store.js';
import type { WebFrontSetup } from './web-front.js';

const { settings, resources, port, web: webSetup } = workerData as { settings: Settings; resources: SharedResources; port: number; web?: WebFrontSetup };
const post = (report: FrontReport) => parentPort?.postMessage(report);

const logger = createLogger(settings.logLevel, settings.logFormat);
const stats = boundedStatsStore(settings, logger, 'HTTP');
const tracing = await startThreadTracing(settings);
const decider = deciderFor(settings, resources, stats, systemClock, tracing);
const health = new SharedHealth(resources.healthBuffer);
const apiThread = new ApiThreadClient(settings.apiMaxPending);
const web = webSetup === undefined ? undefined : new WebAccess(webSetup.config, webSetup.passwordPort);

const processStats = new ProcessStats(stats, `http_${threadId}`, { processWide: false });
const reporter = new StatsReporter(resources.statsChannel, stats, () => processStats.sample());

try {
  const server = await startHttpServer({
    host: settings.host,
    port,
    routes: buildRouteTable({
      settings,
      logger,
      decide: (request) => decider.decide(request),
      isHealthy: () => health.isHealthy(),
      apiThread,
      bodyBudget: BodyBudget.attach(resources.bodyBudgetBuffer),
      tracing,
      admit: web?.admit,
    }),
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
    const graceMs = message.graceMs;
    void (async () => {
      await server.close(graceMs);
      web?.close();
      apiThread.close();
      await decider.close();
      await tracing?.shutdown();
      reporter.close();
      post({ type: 'drained' });
      parentPort?.close();
    })();
  });
  post({ type: 'listening', port: server.port });
} catch (error) {
  web?.close();
  reporter.close();
  await decider.close();
  await tracing?.shutdown();
  post({ type: 'failed', message: (error as Error).message });
  parentPort?.close();
}
