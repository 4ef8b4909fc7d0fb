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
import { ServiceError } from '../errors/index.js';
import { ALERTS_MANIFEST } from '../alerts/manifest.js';
import { createLogger, ProcessStats, type Logger } from '../observability/index.js';
import { SCORES_MANIFEST } from '../scores/manifest.js';
import type { Settings } from '../settings/index.js';
import { niceThisThread, StatsReporter } from '../threads/index.js';
import { ApiRouter, ApiThreadServer, type ApiDefinition, type ApiManifest } from '../transports/http/handoff/index.js';
import { openAlerts } from './alerts.js';
import { openScores } from './scores.js';
import type { ApiThreadCommand, ApiThreadReport, ApiThreadData } from './api-thread-messages.js';
import { boundedStatsStore } from './stats-store.js';

const { settings, statsChannel } = workerData as ApiThreadData;
const logger = createLogger(settings.logLevel, settings.logFormat);
// The alert and score APIs count here; the main thread adds these to every other thread's.
const stats = boundedStatsStore(settings, logger, 'API');
const processStats = new ProcessStats(stats, 'api', { processWide: false });
const reporter = new StatsReporter(statsChannel, stats, () => processStats.sample());
const post = (report: ApiThreadReport) => parentPort?.postMessage(report);

/** First wait before an API that failed to open is tried again; doubles up to RETRY_MAX_MS. */
const RETRY_FIRST_MS = 1000;
const RETRY_MAX_MS = 30_000;

interface OpenedApi {
  api: ApiDefinition;
  /** Settles once the API's state has loaded; it routes before (answering 503 where it must). */
  loaded?: Promise<void>;
  close(): Promise<void>;
}

const notNiced = niceThisThread(settings.apiThreadNice);
if (notNiced !== undefined) logger.warn('the API thread runs at normal priority', { reason: notNiced, API_THREAD_NICE: settings.apiThreadNice });

const router = new ApiRouter();
const server = new ApiThreadServer(router, logger);
const ports: MessagePort[] = [];
let stopping = false;
const opening = [
  ...(settings.apis.includes('alerts') ? [openInBackground(ALERTS_MANIFEST, 'the alert API', () => openAlerts(settings, logger, { stats }), logger)] : []),
  ...(settings.apis.includes('scores') ? [openInBackground(SCORES_MANIFEST, 'the score API', () => openScores(settings), logger)] : []),
];

parentPort?.on('message', (command: ApiThreadCommand) => {
  if (command.type === 'serve') {
    server.serve(command.port);
    ports.push(command.port);
    return;
  }
  stopping = true;
  for (const port of ports) port.close();
  void Promise.all(opening.map((api) => api.close())).finally(() => {
    processStats.close();
    reporter.close();
    post({ type: 'stopped' });
    parentPort?.close();
  });
});
post({ type: 'ready' });

/**
 * Opens one API without holding the thread's start: its paths answer 503 until it has opened. A
 * failure (a bad configuration file, a database that is down) is logged and tried again later,
 * backing off; the last failure is what its paths answer meanwhile.
 */
function openInBackground(manifest: ApiManifest, title: string, open: () => Promise<OpenedApi>, log: Logger): { close(): Promise<void> } {
  router.unavailable(manifest, new ServiceError(manifest.errors.unavailable, `${title} is starting; try again`));
  let opened: OpenedApi | undefined;
  let retry: NodeJS.Timeout | undefined;
  let delay = RETRY_FIRST_MS;
  const attempt = (): Promise<void> =>
    open().then(
      (api) => {
        if (stopping) return api.close();
        opened = api;
        router.add(api.api);
        // "Open" once its state has loaded: what tests and operators wait for.
        return (api.loaded ?? Promise.resolve()).then(
          () => {
            log.info(`${title} open`, { api: manifest.name });
            post({ type: 'opened', api: manifest.name });
          },
          () => undefined,
        );
      },
      (error: unknown) => {
        const reason = error instanceof Error ? error.message : String(error);
        log.error(`${title} did not open; its requests get 503 until it does`, { error: reason, retryInMs: delay });
        router.unavailable(manifest, new ServiceError(manifest.errors.unavailable, `${title} is unavailable: ${reason}`));
        if (stopping) return;
        retry = setTimeout(() => void attempt(), delay);
        delay = Math.min(delay * 2, RETRY_MAX_MS);
      },
    );
  void attempt();
  return {
    // An open still under way (a database that does not answer) is not waited for: it closes
    // what it opened itself once it sees `stopping`.
    async close() {
      clearTimeout(retry);
      await opened?.close();
    },
  };
}
