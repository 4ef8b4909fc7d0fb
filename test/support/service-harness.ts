/**
 * Runs the whole service in-process for end-to-end tests: real settings (loadServiceSettings), real
 * YAML files in a fresh temp directory, real HTTP and debug listeners on free ports, and a
 * ManualClock so every rate limit window is deterministic (no sleeping).
 *
 *   const svc = await startService(t, { files: { 'basic.yaml': fixture('basic.yaml') } });
 *   const r = await svc.post({ domain: 'basic', descriptors: [{ entries: [{ key: 'key1', value: 'x' }] }] });
 *
 * `t.teardown` stops the app and removes the temp directory, even when a test fails.
 */
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { startApp, type App } from '../../src/app/app.js';
import { ManualClock } from '../../src/engine/clock.js';
import { loadServiceSettings } from '../../src/app/service-settings.js';
import { httpRequest, jsonBody, type HttpResult, type RequestOptions } from './http-request.js';
import { recordingLogger, type LogRecord } from './recording-logger.js';
import { LOCAL_LISTENERS_ENV, TEST_APIS_ENV } from './service-inputs.js';
import type { Teardown } from './teardown.js';
import { makeTempDir } from './temp-dir.js';

/**
 * Default manual time: 1,000,000 s. Cache keys end in the window start, as upstream's
 * `prefix + domain_key_value_..._windowStart`: the HOUR window starts at 997200, DAY at 950400.
 */
export const DEFAULT_NOW = 1_000_000;

export type { LogRecord } from './recording-logger.js';

export interface StartServiceOptions {
  /** Extra environment for loadSettings (PORT, HOST, RUNTIME_ROOT etc. are set by the harness). */
  env?: Record<string, string>;
  /** Config files written into RUNTIME_ROOT/config before start: file name -> YAML text. */
  files?: Record<string, string>;
  /** Files written anywhere under RUNTIME_ROOT before start: relative path -> text. */
  tree?: Record<string, string>;
  /** Initial manual clock, in Unix seconds. */
  now?: number;
}

export interface Service {
  readonly app: App;
  readonly clock: ManualClock;
  /** RUNTIME_ROOT (a plain directory). */
  readonly runtimeRoot: string;
  /** RUNTIME_ROOT/config, where config files live. */
  readonly configDir: string;
  readonly baseUrl: string;
  readonly debugUrl: string;
  /** Everything the service logged. */
  readonly logs: LogRecord[];
  /** POST /json. */
  post(body: unknown, options?: RequestOptions): Promise<HttpResult>;
  /** Any request to the HTTP port. */
  request(path: string, options?: RequestOptions): Promise<HttpResult>;
  /** GET on the debug port. */
  debug(path: string): Promise<HttpResult>;
  /** A statistic by its full name, 0 if absent. */
  stat(name: string): number;
  /** Writes (or replaces) a config file in RUNTIME_ROOT/config. */
  writeConfig(name: string, text: string): Promise<void>;
  removeConfig(name: string): Promise<void>;
  /** Stops the app and removes the temp directory; idempotent. */
  close(): Promise<void>;
}

/** Starts the service in-process; `t` (a tap test) gets a teardown that closes it. */
export async function startService(t: Teardown | undefined, options: StartServiceOptions = {}): Promise<Service> {
  const tempDir = await makeTempDir('rl-e2e-');
  const temp = tempDir.path;
  // RUNTIME_ROOT is a subdirectory, so the root watcher (which watches the root's parent)
  // watches our temp dir rather than the whole of /tmp.
  const runtimeRoot = join(temp, 'current');
  const configDir = join(runtimeRoot, 'config');
  await mkdir(configDir, { recursive: true });
  for (const [name, text] of Object.entries(options.files ?? {})) await writeFile(join(configDir, name), text);
  for (const [path, text] of Object.entries(options.tree ?? {})) {
    await mkdir(dirname(join(runtimeRoot, path)), { recursive: true });
    await writeFile(join(runtimeRoot, path), text);
  }

  const clock = new ManualClock(options.now ?? DEFAULT_NOW);
  const logs: LogRecord[] = [];
  let app: App;
  try {
    const settings = loadServiceSettings({
      // Small store tables: each in-process app allocates its own.
      MEMORY_STORE_MAX_KEYS_PER_WINDOW: '4096',
      // The manual clock reaches only the main thread, so HTTP is served there.
      HTTP_WORKERS: '0',
      // Alert and score state of this instance only.
      DATA_DIR: join(temp, 'data'),
      // No metrics daemon runs beside these tests; the statistics tests start their own.
      DISABLE_STATS: 'true',
      ...TEST_APIS_ENV,
      ...options.env,
      ...LOCAL_LISTENERS_ENV,
      RUNTIME_ROOT: runtimeRoot,
    });
    app = await startApp(settings, recordingLogger(logs), { clock });
    // Decisions are served at once; the alert and score APIs open beside them.
    await app.apiThread.whenOpen(settings.apis);
  } catch (error) {
    await tempDir.remove();
    throw error;
  }

  const baseUrl = `http://127.0.0.1:${app.httpPort}`;
  const debugUrl = `http://127.0.0.1:${app.debugPort}`;
  let closing: Promise<void> | undefined;
  let staged = 0;
  const service: Service = {
    app,
    clock,
    runtimeRoot,
    configDir,
    baseUrl,
    debugUrl,
    logs,
    post: (body, opts = {}) => httpRequest(`${baseUrl}/json`, { method: 'POST', ...opts, body: jsonBody(body) }),
    request: (path, opts) => httpRequest(`${baseUrl}${path}`, opts),
    debug: (path) => httpRequest(`${debugUrl}${path}`),
    stat: (name) => app.stats.value(name),
    async writeConfig(name, text) {
      // Written beside RUNTIME_ROOT and renamed in, so a reload never reads half a file.
      const staging = join(temp, `.staging-${++staged}`);
      await writeFile(staging, text);
      await rename(staging, join(configDir, name));
    },
    removeConfig: (name) => rm(join(configDir, name), { force: true }),
    close() {
      closing ??= (async () => {
        try {
          await app.stop();
        } finally {
          await tempDir.remove();
        }
      })();
      return closing;
    },
  };
  t?.teardown(() => service.close());
  return service;
}
