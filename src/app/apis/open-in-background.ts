import { ServiceError } from '../../errors/index.js';
import type { Logger } from '../../observability/index.js';
import type { ApiDefinition, ApiManifest, ApiRouter } from '../../transports/http/handoff/index.js';

/** How long an API that failed to open waits before it is tried again: `firstMs`, doubling up to `maxMs`. */
export interface RetryDelays {
  firstMs: number;
  maxMs: number;
}

const RETRY: RetryDelays = { firstMs: 1000, maxMs: 30_000 };

/** An API once it has opened: its routes, and how to release what it holds. */
export interface OpenedApi {
  api: ApiDefinition;
  /** Settles once the API's state has loaded; it routes before (answering 503 where it must). */
  loaded?: Promise<void>;
  close(): Promise<void>;
}

export interface BackgroundOpen {
  manifest: ApiManifest;
  /** How log lines and 503 messages name it ("the alert API"). */
  title: string;
  open(): Promise<OpenedApi>;
  router: ApiRouter;
  logger: Logger;
  /** Called once its state has loaded: what tests and operators wait for. */
  onOpened(): void;
  retry?: RetryDelays;
}

/**
 * Opens one API without holding the thread's start: its paths answer 503 until it has opened. A
 * failure (a bad configuration file, a database that is down) is logged and tried again later,
 * backing off; the last failure is what its paths answer meanwhile.
 */
export function openInBackground(options: BackgroundOpen): { close(): Promise<void> } {
  const { manifest, title, open, router, logger, onOpened, retry = RETRY } = options;
  router.unavailable(manifest, new ServiceError(manifest.errors.unavailable, `${title} is starting; try again`));
  let stopping = false;
  let opened: OpenedApi | undefined;
  let retryTimer: NodeJS.Timeout | undefined;
  let delay = retry.firstMs;
  const attempt = (): Promise<void> =>
    open().then(
      (api) => {
        if (stopping) return api.close();
        opened = api;
        router.add(api.api);
        return (api.loaded ?? Promise.resolve()).then(
          () => {
            logger.info(`${title} open`, { api: manifest.name });
            onOpened();
          },
          () => undefined,
        );
      },
      (error: unknown) => {
        const reason = error instanceof Error ? error.message : String(error);
        logger.error(`${title} did not open; its requests get 503 until it does`, { error: reason, retryInMs: delay });
        router.unavailable(manifest, new ServiceError(manifest.errors.unavailable, `${title} is unavailable: ${reason}`));
        if (stopping) return;
        retryTimer = setTimeout(() => void attempt(), delay);
        delay = Math.min(delay * 2, retry.maxMs);
      },
    );
  void attempt();
  return {
    // An open still under way (a database that does not answer) is not waited for: it closes
    // what it opened itself once it sees `stopping`.
    async close() {
      stopping = true;
      clearTimeout(retryTimer);
      await opened?.close();
    },
  };
}
