/**
 * Runs the real service process (`node dist/src/main.js`) for whole-process tests and the
 * benchmarks. The ports come from the `ready` log line (LOG_LEVEL=info), in text or JSON log
 * format. Every process started with a tap test is killed in that test's teardown.
 *
 *   const proc = await startProcess(t, { RUNTIME_ROOT: dir });
 *   const r = await proc.post({ domain: 'basic', descriptors: [...] });
 */
import { mkdtempSync } from 'node:fs';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ManagedProcess } from './managed-process.js';
import { httpRequest, jsonBody, type HttpResult, type RequestOptions } from './http-request.js';
import { LOCAL_LISTENERS_ENV, TEST_APIS_ENV } from './service-inputs.js';
import type { Teardown } from './teardown.js';
import { tempDir } from './temp-dir.js';
import { threadEntryFile } from '../../src/app/thread-entries.js';

/** dist/src/main.js, as the service names its own entry files. */
export const MAIN_JS = threadEntryFile('main');

export interface ServiceProcessOptions {
  /** Node options before main.js (benchmarks: bench/node-flags.ts). */
  nodeFlags?: readonly string[];
  /** `taskset -c` CPU list; `child.pid` is still node's, as taskset execs it. */
  cpus?: string;
  /** Default false: a clean environment, so nothing of the test runner's (NODE_OPTIONS, tap's variables) leaks in. */
  inheritEnv?: boolean;
}

export class ServiceProcess extends ManagedProcess {
  httpPort: number | undefined;
  debugPort: number | undefined;
  grpcTarget: string | undefined;
  prometheusPort: number | undefined;
  /** API_PORT's bound port, when the APIs have a port of their own. */
  apiPort: number | undefined;

  constructor(env: Record<string, string>, options: ServiceProcessOptions = {}) {
    super({
      command: process.execPath,
      args: [...(options.nodeFlags ?? []), MAIN_JS],
      // No metrics daemon runs beside these tests; the statistics tests start their own.
      env: { LOG_LEVEL: 'info', DISABLE_STATS: 'true', ...env },
      inheritEnv: options.inheritEnv ?? false,
      cpus: options.cpus,
    });
  }

  /** Resolves with the ports once the service logged `ready`; rejects if it exits first. */
  async listening(timeoutMs = 10_000): Promise<Ports> {
    const ports = await this.waitFor('the "ready" log line', parseReadyLine, timeoutMs);
    this.httpPort = ports.http;
    this.debugPort = ports.debug;
    this.grpcTarget = ports.grpc;
    this.prometheusPort = ports.prometheus;
    this.apiPort = ports.api;
    return ports;
  }

  /**
   * Resolves once the alert and score APIs have opened (their info lines); until then they
   * answer 503 while decisions are already served.
   */
  async apisOpen(apis: readonly string[] = ['alerts', 'scores'], timeoutMs = 15_000): Promise<void> {
    const lines = apis.map((api) => API_OPEN_LINES[api] ?? `the ${api} API open`);
    await this.waitFor(`the ${apis.join(' and ')} APIs to open`, (output) => (lines.every((line) => output.includes(line)) ? true : undefined), timeoutMs);
  }

  /** gRPC target for clients: `127.0.0.1:<port>`, or `unix:<path>` with GRPC_UDS. */
  get grpcAddress(): string {
    if (this.grpcTarget === undefined) throw new Error('not listening yet');
    return /^\d+$/.test(this.grpcTarget) ? `127.0.0.1:${this.grpcTarget}` : `unix:${this.grpcTarget}`;
  }

  get baseUrl(): string {
    return `http://127.0.0.1:${listeningPort(this.httpPort)}`;
  }

  /** API_PORT's base URL. */
  get apiUrl(): string {
    return `http://127.0.0.1:${listeningPort(this.apiPort)}`;
  }

  get debugUrl(): string {
    return `http://127.0.0.1:${listeningPort(this.debugPort)}`;
  }

  post(body: unknown, options: RequestOptions = {}): Promise<HttpResult> {
    return httpRequest(`${this.baseUrl}/json`, { method: 'POST', ...options, body: jsonBody(body) });
  }

  request(path: string, options?: RequestOptions): Promise<HttpResult> {
    return httpRequest(`${this.baseUrl}${path}`, options);
  }

  debug(path: string): Promise<HttpResult> {
    return httpRequest(`${this.debugUrl}${path}`);
  }

  async stat(name: string): Promise<number | undefined> {
    return readStat(listeningPort(this.debugPort), name);
  }
}

/** What the API thread logs (LOG_LEVEL=info) as each API opens. */
const API_OPEN_LINES: Readonly<Record<string, string>> = { alerts: 'the alert API open', scores: 'the score API open' };

function listeningPort(port: number | undefined): number {
  if (port === undefined) throw new Error('not listening yet');
  return port;
}

/** A statistic read from the debug server's `/stats` (`name: value` lines); undefined if absent. */
export async function readStat(debugPort: number, name: string): Promise<number | undefined> {
  const { text } = await httpRequest(`http://127.0.0.1:${debugPort}/stats`);
  for (const line of text.split('\n')) {
    if (line.startsWith(`${name}: `)) return Number(line.slice(name.length + 2));
  }
  return undefined;
}

export interface Ports {
  http: number;
  debug: number;
  /** The gRPC port, or the unix socket path with GRPC_UDS. */
  grpc: string;
  /** The USE_PROMETHEUS listener's port, when there is one. */
  prometheus?: number;
  /** API_PORT's bound port, when set. */
  api?: number;
}

/** Ports from the ready line: `msg="ready" http=N debug=M grpc=G ...` (text) or `{"@message":"ready","http":N,...}` (json). */
export function parseReadyLine(output: string): Ports | undefined {
  for (const line of output.split('\n')) {
    if (line.startsWith('{')) {
      try {
        const record = JSON.parse(line) as Record<string, unknown>;
        if (record['@message'] === 'ready' && typeof record['http'] === 'number' && typeof record['debug'] === 'number') {
          const prometheus = typeof record['prometheus'] === 'number' ? { prometheus: record['prometheus'] } : {};
          const api = typeof record['api'] === 'number' ? { api: record['api'] } : {};
          return { http: record['http'], debug: record['debug'], grpc: String(record['grpc']), ...prometheus, ...api };
        }
      } catch {
        // not a JSON line
      }
      continue;
    }
    const m = /msg="ready" http=(\d+) debug=(\d+) grpc=("[^"]*"|\d+)/.exec(line);
    if (m !== null) {
      const prometheus = /\bprometheus=(\d+)/.exec(line);
      const api = /\bapi=(\d+)/.exec(line);
      return {
        http: Number(m[1]),
        debug: Number(m[2]),
        grpc: (m[3] as string).replace(/"/g, ''),
        ...(prometheus === null ? {} : { prometheus: Number(prometheus[1]) }),
        ...(api === null ? {} : { api: Number(api[1]) }),
      };
    }
  }
  return undefined;
}

/**
 * A test's process decides alone (TEST_APIS_ENV) on one HTTP thread unless the test says
 * otherwise: each HTTP thread loads the whole front (about 0.4 s of CPU), and the tests of the
 * thread count and of the defaults set their own.
 */
const TEST_PROCESS_ENV = { ...TEST_APIS_ENV, HTTP_WORKERS: '1' } as const;

/** Spawns the service without waiting for it (for processes expected to fail at startup). */
export function spawnProcess(t: Teardown | undefined, env: Record<string, string>, options?: ServiceProcessOptions): ServiceProcess {
  // Alert and score state of this process only, unless the caller names a directory.
  const dataDir = env['DATA_DIR'] === undefined ? mkdtempSync(join(tmpdir(), 'rl-data-')) : undefined;
  const proc = new ServiceProcess(dataDir === undefined ? env : { DATA_DIR: dataDir, ...env }, options);
  if (dataDir !== undefined) void proc.exited.then(() => rm(dataDir, { recursive: true, force: true }));
  // As an operator stops it: SIGTERM, then a wait (stop() escalates to SIGKILL only past its grace).
  t?.teardown(() => proc.stop());
  return proc;
}

/**
 * Spawns the service with every listener on 127.0.0.1 and a free port, and waits until it
 * listens and (at the info and debug log levels, which say so) its alert and score APIs opened.
 * Without `t` (a benchmark) the caller stops it, or this does if it never listens.
 */
export async function startProcess(t: Teardown | undefined, env: Record<string, string>, options?: ServiceProcessOptions): Promise<ServiceProcess> {
  const proc = spawnProcess(t, { ...LOCAL_LISTENERS_ENV, ...TEST_PROCESS_ENV, ...env }, options);
  try {
    await proc.listening();
    const apis = (env['APIS'] ?? TEST_PROCESS_ENV.APIS).split(',').filter((api) => api !== 'none' && api !== '');
    if (['info', 'debug'].includes(env['LOG_LEVEL'] ?? 'info')) await proc.apisOpen(apis);
  } catch (error) {
    if (t === undefined) await proc.stop();
    throw error;
  }
  return proc;
}

/** A temporary RUNTIME_ROOT (`<temp>/current`) with `config/<name>` files; removed in teardown. */
export async function runtimeRoot(t: Teardown, files: Record<string, string> = {}): Promise<{ root: string; configDir: string }> {
  const root = join(await tempDir(t, 'rl-e2e-'), 'current');
  const configDir = join(root, 'config');
  await mkdir(configDir, { recursive: true });
  for (const [name, text] of Object.entries(files)) await writeFile(join(configDir, name), text);
  return { root, configDir };
}
