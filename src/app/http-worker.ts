/**
 * Entry point of an HTTP front thread: a uWS app on the shared port (SO_REUSEPORT) deciding
 * through its own Decider. Its statistics reach the main thread through the stats channel.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { systemClock } from '../engine/index.js';
import { createLogger, StatsStore } from '../observability/index.js';
import type { Settings } from '../settings/index.js';
import { SharedHealth, StatsReporter, type SharedResources } from '../threads/index.js';
import { startHttpServer } from '../transports/http/http-server.js';
import { rateLimitRoutes } from '../transports/http/ratelimit-routes.js';
import { createDecider } from './decider.js';
import type { FrontReport, FrontCommand } from './http-front-messages.js';

const { settings, resources, port } = workerData as { settings: Settings; resources: SharedResources; port: number };
const post = (report: FrontReport) => parentPort?.postMessage(report);

const logger = createLogger(settings.logLevel, settings.logFormat);
const stats = new StatsStore();
const decider = createDecider(settings, resources, stats, systemClock);
const health = new SharedHealth(resources.healthBuffer);

const reporter = new StatsReporter(resources.statsChannel, stats);

try {
  const server = await startHttpServer({
    host: settings.host,
    port,
    routes: [
      rateLimitRoutes({
        decide: (request) => decider.decide(request),
        isHealthy: () => health.isHealthy(),
        maxRequestBytes: settings.maxRequestBytes,
        logger,
      }),
    ],
  });
  parentPort?.on('message', (command: FrontCommand) => {
    if (command.type !== 'drain') return;
    void (async () => {
      await server.close(command.graceMs);
      await decider.close();
      reporter.close();
      post({ type: 'drained' });
      parentPort?.close();
    })();
  });
  post({ type: 'listening', port: server.port });
} catch (error) {
  reporter.close();
  await decider.close();
  post({ type: 'failed', message: (error as Error).message });
  parentPort?.close();
}
