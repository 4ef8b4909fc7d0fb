/**
 * Entry point: read settings, start the service, stop it cleanly on SIGTERM/SIGINT/SIGHUP.
 * A bad setting stops startup with one line naming the variable and its value.
 */
import { startApp } from './app/app.js';
import { loadServiceSettings, type ServiceSettings } from './app/service-settings.js';
import { createLogger } from './observability/index.js';
import { SettingsError } from './settings/index.js';

let settings: ServiceSettings;
try {
  settings = loadServiceSettings();
} catch (error) {
  if (!(error instanceof SettingsError)) throw error;
  process.stderr.write(`ratelimit: ${error.message}\n`);
  process.exit(1);
}

const logger = createLogger(settings.logLevel, settings.logFormat);
// Node opens its inspector (a debugger on port 9229, able to run any code) when it gets
// SIGUSR1. A listener replaces that default: the signal is logged and ignored. Start the
// process with `node --inspect` to debug it.
process.on('SIGUSR1', () => logger.warn('SIGUSR1 ignored: the Node.js inspector stays closed (start with --inspect to debug)'));
// Listened for before the start: a part that gives up while the service is still starting (a
// key-value store never reached within KVSTORE_STARTUP_MAX_ELAPSED_TIME) stops it with SIGTERM,
// and Node's default for an unheard SIGTERM would end the process without the status it set.
let app: Awaited<ReturnType<typeof startApp>> | undefined;
const starting = new AbortController();
const stop = (running: NonNullable<typeof app>) =>
  running.stop().then(
    // 0 unless a part that gave up (a key-value store never reached) set process.exitCode.
    () => process.exit(),
    (error: unknown) => {
      logger.error('shutdown failed', { error: String(error) });
      process.exit(1);
    },
  );
const shutdown = (signal: string) => {
  logger.warn(`received ${signal}, draining and shutting down`);
  if (app !== undefined) {
    void stop(app);
    return;
  }
  // Still starting: the start is told to stop, and closes what it started before the process
  // exits (exiting while threads are still being set up can abort Node itself, SIGABRT instead of
  // the status set). Bounded by DRAIN_TIMEOUT all the same.
  starting.abort(new Error(`${signal} while starting`));
  setTimeout(() => process.exit(), settings.drainTimeoutMs).unref();
};
for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP'] as const) process.once(signal, () => shutdown(signal));
try {
  app = await startApp(settings, logger, { stopSignal: starting.signal });
} catch (error) {
  if (starting.signal.aborted) process.exit();
  logger.error(`startup failed: ${(error as Error).message}`);
  process.exit(1);
}
if (starting.signal.aborted) void stop(app);
