/**
 * Entry point of the API thread: the one thread that owns the alert and score APIs' state and
 * answers their requests, which every HTTP front thread hands to it (docs/architecture.md).
 * Whatever these APIs cost never runs on a thread that answers rate limit decisions.
 *
 * It serves at once: each API opens in the background (its state loads, its database connects),
 * and until it has, its paths answer 503 in its own form. An API that cannot open is tried again,
 * and the other one serves meanwhile.
 */
import { parentPort, workerData, type MessagePort } from 'node:worker_threads';
import { ALERTS_MANIFEST } from '../../alerts/manifest.js';
import { createLogger, ProcessStats } from '../../observability/index.js';
import { SCORES_MANIFEST } from '../../scores/manifest.js';
import type { Settings } from '../../settings/index.js';
import { niceThisThread, StatsReporter } from '../../threads/index.js';
import { ApiRouter, ApiThreadServer, type ApiManifest } from '../../transports/http/handoff/index.js';
import { openInBackground, type OpenedApi } from './open-in-background.js';
import type { ApiThreadCommand, ApiThreadReport, ApiThreadData } from './api-thread-messages.js';
import { boundedStatsStore } from '../stats/stats-store.js';

const { settings, statsChannel } = workerData as ApiThreadData;
const logger = createLogger(settings.logLevel, settings.logFormat);
// The alert and score APIs count here; the main thread adds these to every other thread's.
const stats = boundedStatsStore(settings, logger, 'API');
const processStats = new ProcessStats(stats, 'api', { processWide: false });
const reporter = new StatsReporter(statsChannel, stats, () => processStats.sample());
const post = (report: ApiThreadReport) => parentPort?.postMessage(report);

const notNiced = niceThisThread(settings.apiThreadNice);
if (notNiced !== undefined) logger.warn('the API thread runs at normal priority', { reason: notNiced, API_THREAD_NICE: settings.apiThreadNice });

const router = new ApiRouter();
const server = new ApiThreadServer(router, logger);
const ports: MessagePort[] = [];
const background = (manifest: ApiManifest, title: string, open: () => Promise<OpenedApi>) =>
  openInBackground({ manifest, title, open, router, logger, onOpened: () => post({ type: 'opened', api: manifest.name }) });
// Each API's code loads only when it is served: a thread serving the alerts alone never reads the
// score API's modules, nor the other way round.
const opening = [
  ...(settings.apis.includes('alerts') ? [background(ALERTS_MANIFEST, 'the alert API', async () => (await import('./alerts.js')).openAlerts(settings, logger, { stats }))] : []),
  ...(settings.apis.includes('scores') ? [background(SCORES_MANIFEST, 'the score API', async () => (await import('./scores.js')).openScores(settings))] : []),
];

parentPort?.on('message', (command: ApiThreadCommand) => {
  if (command.type === 'serve') {
    server.serve(command.port);
    ports.push(command.port);
    return;
  }
  for (const port of ports) port.close();
  void Promise.all(opening.map((api) => api.close())).finally(() => {
    processStats.close();
    reporter.close();
    post({ type: 'stopped' });
    parentPort?.close();
  });
});
post({ type: 'ready' });

