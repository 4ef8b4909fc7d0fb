/**
 * Entry point of the API thread: the one thread that owns the alert and score APIs' state and
 * answers their requests, which every HTTP front thread hands to it (docs/architecture.md).
 * Whatever these APIs cost never runs on a thread that answers rate limit decisions.
 */
import { parentPort, workerData, type MessagePort } from 'node:worker_threads';
import { createLogger } from '../observability/index.js';
import type { Settings } from '../settings/index.js';
import { niceThisThread } from '../threads/index.js';
import { ApiRouter, ApiThreadServer } from '../transports/http/handoff/index.js';
import { openAlerts } from './alerts.js';
import { openScores } from './scores.js';
import type { ApiThreadCommand, ApiThreadReport } from './api-thread-messages.js';

const { settings } = workerData as { settings: Settings };
const logger = createLogger(settings.logLevel, settings.logFormat);
const post = (report: ApiThreadReport) => parentPort?.postMessage(report);

const notNiced = niceThisThread(settings.apiThreadNice);
if (notNiced !== undefined) logger.warn('the API thread runs at normal priority', { reason: notNiced, API_THREAD_NICE: settings.apiThreadNice });

try {
  const alerts = await openAlerts(settings, logger);
  const scores = await openScores(settings);
  const router = new ApiRouter().add(alerts.api).add(scores.api);
  const server = new ApiThreadServer(router, logger);
  const ports: MessagePort[] = [];
  parentPort?.on('message', (command: ApiThreadCommand) => {
    if (command.type === 'serve') {
      server.serve(command.port);
      ports.push(command.port);
      return;
    }
    for (const port of ports) port.close();
    void Promise.all([scores.close(), alerts.close()]).finally(() => {
      post({ type: 'stopped' });
      parentPort?.close();
    });
  });
  post({ type: 'ready' });
} catch (error) {
  post({ type: 'failed', message: (error as Error).message });
  parentPort?.close();
}
