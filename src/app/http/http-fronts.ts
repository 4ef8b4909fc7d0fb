import { Worker } from 'node:worker_threads';
import type { Logger } from '../../observability/index.js';
import type { Settings } from '../../settings/index.js';
import type { SharedResources } from '../shared-resources.js';
import { listenOnFreePort } from '../../transports/free-port.js';
import type { HttpServer } from '../../transports/http/index.js';
import type { ApiThreadHost } from '../apis/api-thread-host.js';
import type { ApiPortDelivery } from '../apis/api-thread-messages.js';
import type { FrontCommand, FrontReport } from './http-front-messages.js';
import type { RouteSet } from './route-table.js';
import type { WebFront } from './web-front.js';
import { threadEntryFile } from '../thread-entries.js';

const WORKER_FILE = threadEntryFile('httpFront');

/** The thread could not bind its port; with PORT=0 another port is picked. */
class FrontListenFailed extends Error {}

interface Front {
  worker: Worker;
  /** The thread has released everything it holds ('drained', or 'failed' at startup), or is gone. */
  done: Promise<void>;
}

/**
 * HTTP served by `count` worker threads, each a uWS app listening on the same port; the kernel
 * spreads new connections across them (SO_REUSEPORT). With PORT=0 the first thread binds a free
 * port (another if that one was taken meanwhile) and the others join it. Their statistics travel
 * on the stats channel (threads/stats-channel.ts).
 */
export async function startHttpFronts(
  count: number,
  settings: Settings,
  resources: SharedResources,
  apiThread: ApiThreadHost,
  logger: Logger,
  web?: WebFront,
  serves: RouteSet = 'everything',
): Promise<HttpServer> {
  const fronts: Front[] = [];
  const start = (port: number) =>
    new Promise<number>((resolve, reject) => {
      const webSetup = web?.setupForFront();
      const worker = new Worker(WORKER_FILE, {
        workerData: { settings, resources, port, serves, web: webSetup },
        transferList: webSetup === undefined ? [] : [webSetup.passwordPort],
      });
      let released = () => undefined as void;
      const done = new Promise<void>((resolve) => {
        released = resolve;
        worker.once('exit', () => resolve());
      });
      const front = { worker, done };
      fronts.push(front);
      worker.on('message', (report: FrontReport) => {
        if (report.type === 'listening') {
          // Told of changes only once it serves: a thread that failed to listen is gone.
          web?.onChange((config) => {
            const command: FrontCommand = { type: 'web-config', config };
            worker.postMessage(command);
          });
          apiThread.addFront((apiPort) => {
            const delivery: ApiPortDelivery = { type: 'api-port', port: apiPort };
            worker.postMessage(delivery, [apiPort]);
          });
          resolve(report.port);
        } else if (report.type === 'drained') released();
        else if (report.type === 'failed') {
          released();
          fronts.splice(fronts.indexOf(front), 1);
          reject(report.listenFailed ? new FrontListenFailed(report.message) : new Error(report.message));
        }
      });
      worker.once('error', (error) => {
        logger.error('HTTP front thread failed', { error: String(error) });
        reject(error);
      });
      worker.once('exit', (code) => reject(new Error(`HTTP front thread exited with code ${code} before listening`)));
    });

  const drain = async (graceMs: number) => {
    const command: FrontCommand = { type: 'drain', graceMs };
    for (const front of fronts) front.worker.postMessage(command);
    // Not their exit: an exporter still retrying a collector that is down keeps a thread's loop
    // alive after it let go, and the process exit ends it.
    await Promise.all(fronts.map((front) => front.done));
  };

  let port: number;
  try {
    // uWS shares a port (SO_REUSEPORT) only when it is asked for by number, so with PORT=0 the
    // first thread binds a port picked free, and the others join it once no other socket can take it.
    port = settings.port === 0 ? await listenOnFreePort(settings.host, start, (error) => error instanceof FrontListenFailed) : settings.port;
    const others = settings.port === 0 ? count - 1 : count;
    await Promise.all(Array.from({ length: others }, () => start(port)));
  } catch (error) {
    // Never terminate() a thread that loaded uWS: it aborts the process. Ask it to close instead.
    await drain(0);
    throw error;
  }
  logger.info('HTTP fronts listening', { threads: count, port, serves });

  let closing: Promise<void> | undefined;
  return {
    port,
    close(graceMs = 10_000) {
      closing ??= (async () => {
        await drain(graceMs);
      })();
      return closing;
    },
  };
}
