/**
 * The real Prometheus Alertmanager (Debian's prometheus-alertmanager, 0.25) on a free port on
 * 127.0.0.1, as the reference the service's /api/v2/ is compared with. Clustering is off, state
 * lives in a fresh temp directory, and the tap test given to `startRealAlertmanager` gets a
 * teardown that stops the process and removes that directory, even when the test fails.
 *
 *   const am = await startRealAlertmanager(t, { config: 'route:\n  receiver: r\nreceivers:\n  - name: r\n' });
 *   const r = await httpRequest(`${am.url}/api/v2/status`);
 *   await am.reload(newConfigText);
 *
 * Needs /usr/bin/prometheus-alertmanager (test/ensure-packages.sh installs it).
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { freePort } from '../../src/transports/free-port.js';
import { ManagedProcess } from './managed-process.js';
import { httpRequest, type HttpResult, type RequestOptions } from './http-request.js';
import type { Teardown } from './teardown.js';
import { makeTempDir } from './temp-dir.js';

export const ALERTMANAGER_BIN = '/usr/bin/prometheus-alertmanager';

const HOST = '127.0.0.1';
const READY_TIMEOUT_MS = 15_000;
/** Alertmanager flushes its silence and notification-log snapshots on SIGTERM; that is quick. */
const TERMINATE_GRACE_MS = 5000;
/** Another process may take the free port between freePort() and the bind; retried this often. */
const START_ATTEMPTS = 3;

export interface RealAlertmanagerOptions {
  /** alertmanager.yml text. */
  config: string;
  /**
   * `--web.external-url`; default `http://127.0.0.1:<port>`. Always given explicitly, because
   * otherwise Alertmanager derives it from the machine's host name, and it shows up in webhook
   * payloads (`externalURL`) and notification templates. A path in it becomes the route prefix
   * (`--web.route-prefix` defaults to it), so `url` and `/-/ready` move under that path.
   */
  externalUrl?: (port: number) => string;
  /** `taskset -c` CPU list (benchmarks pin servers apart from load generators); absent: not pinned. */
  cpus?: string;
  /** Extra flags, e.g. `--log.level=debug`, `--alerts.gc-interval=1s`, `--data.retention=1h`. */
  args?: readonly string[];
  /** Files written beside the config before start (templates, password files): name -> text. */
  files?: Record<string, string>;
}

export interface RealAlertmanager {
  /** Where the API is served: `http://127.0.0.1:<port>` plus the route prefix, no trailing slash. */
  readonly url: string;
  readonly port: number;
  readonly externalUrl: string;
  /** The process's stdout and stderr as they arrived (Alertmanager logs logfmt to stderr). */
  readonly logs: string;
  /** The temp directory holding the config file (`alertmanager.yml`) and `data/`. */
  readonly dir: string;
  readonly process: ManagedProcess;
  /**
   * POST /-/reload, after replacing the config file when `config` is given. Resolves with the
   * response: 200 on success, 500 with the load error as text otherwise (the old config stays).
   */
  reload(config?: string): Promise<HttpResult>;
  /** A request to `url` + path (path starts with `/`, e.g. `/api/v2/alerts`). */
  request(path: string, options?: RequestOptions): Promise<HttpResult>;
  /** Stops the process (teardown does this too); idempotent. */
  stop(): Promise<void>;
}

function prefixOf(externalUrl: string): string {
  return new URL(externalUrl).pathname.replace(/\/+$/, '');
}

async function startOnce(dir: string, configFile: string, options: RealAlertmanagerOptions): Promise<{ proc: ManagedProcess; port: number; externalUrl: string } | 'port taken'> {
  const port = await freePort(HOST);
  const externalUrl = options.externalUrl?.(port) ?? `http://${HOST}:${port}`;
  const proc = new ManagedProcess({
    command: ALERTMANAGER_BIN,
    args: [
      `--config.file=${configFile}`,
      `--storage.path=${join(dir, 'data')}`,
      `--web.listen-address=${HOST}:${port}`,
      // Empty: no gossip listener, so the instance is alone and `cluster.status` is "disabled".
      '--cluster.listen-address=',
      `--web.external-url=${externalUrl}`,
      ...(options.args ?? []),
    ],
    // Nothing of the test runner's environment (proxies, NODE_OPTIONS) should shape the reference.
    inheritEnv: false,
    cpus: options.cpus,
  });
  const ready = `http://${HOST}:${port}${prefixOf(externalUrl)}/-/ready`;
  const failure = await untilReady(proc, ready);
  if (failure === undefined) return { proc, port, externalUrl };
  await proc.stop(TERMINATE_GRACE_MS);
  if (/address already in use/.test(proc.output)) return 'port taken';
  throw new Error(`Alertmanager did not start: ${failure}; output:\n${proc.output}`);
}

/**
 * Polls `readyUrl` until it answers 200; undefined then, else why not. A process that exits
 * (bad config, port taken) ends the wait at once rather than after the timeout.
 */
export async function untilReady(proc: ManagedProcess, readyUrl: string, timeoutMs = READY_TIMEOUT_MS): Promise<string | undefined> {
  const deadline = Date.now() + timeoutMs;
  let last = 'no answer yet';
  for (;;) {
    if (!proc.running) return `exited (${proc.exitReason})`;
    try {
      const { status } = await httpRequest(readyUrl);
      if (status === 200) return undefined;
      last = `status ${status}`;
    } catch (error) {
      last = (error as Error).message;
    }
    if (Date.now() > deadline) return `not ready after ${timeoutMs} ms (${readyUrl}: ${last})`;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Starts Alertmanager with `options.config` and waits until `/-/ready` answers 200. */
export async function startRealAlertmanager(t: Teardown, options: RealAlertmanagerOptions): Promise<RealAlertmanager> {
  const temp = await makeTempDir('am-real-');
  const configFile = join(temp.path, 'alertmanager.yml');
  let proc: ManagedProcess | undefined;
  t.teardown(async () => {
    await proc?.stop(TERMINATE_GRACE_MS);
    await temp.remove();
  });
  await writeFile(configFile, options.config);
  for (const [name, text] of Object.entries(options.files ?? {})) await writeFile(join(temp.path, name), text);

  let started: Awaited<ReturnType<typeof startOnce>> = 'port taken';
  for (let attempt = 0; attempt < START_ATTEMPTS && started === 'port taken'; attempt++) {
    started = await startOnce(temp.path, configFile, options);
  }
  if (started === 'port taken') throw new Error(`Alertmanager: no free port after ${START_ATTEMPTS} attempts`);
  const { port, externalUrl } = started;
  const running = started.proc;
  proc = running;
  const url = `http://${HOST}:${port}${prefixOf(externalUrl)}`;

  return {
    url,
    port,
    externalUrl,
    dir: temp.path,
    process: running,
    get logs() {
      return running.output;
    },
    async reload(config) {
      if (config !== undefined) await writeFile(configFile, config);
      return httpRequest(`${url}/-/reload`, { method: 'POST' });
    },
    request: (path, requestOptions) => httpRequest(`${url}${path}`, requestOptions),
    stop: () => running.stop(TERMINATE_GRACE_MS),
  };
}
