/**
 * Runs the real service process (`node dist/src/main.js`) for whole-process tests. The ports
 * come from the `listening` log line (LOG_LEVEL=info), in text or JSON log format. Every
 * process started with a tap test is killed in that test's teardown.
 *
 *   const proc = await startProcess(t, { RUNTIME_ROOT: dir });
 *   const r = await proc.post({ domain: 'basic', descriptors: [...] });
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { httpRequest, jsonBody, waitFor, type HttpResult, type RequestOptions } from './service-harness.js';

/** dist/test/support/process-harness.js -> dist/src/main.js */
export const MAIN_JS = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'src', 'main.js');

export interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

interface Teardown {
  teardown(fn: () => unknown): void;
}

export class ServiceProcess {
  readonly child: ChildProcess;
  stdout = '';
  stderr = '';
  httpPort: number | undefined;
  debugPort: number | undefined;
  grpcTarget: string | undefined;
  private exit: Exit | undefined;
  private readonly exited: Promise<Exit>;

  constructor(env: Record<string, string>) {
    // A clean environment: nothing of the test runner's (NODE_OPTIONS, tap's variables) leaks in.
    const base: Record<string, string> = {};
    for (const name of ['PATH', 'HOME', 'TMPDIR', 'LANG']) {
      const value = process.env[name];
      if (value !== undefined) base[name] = value;
    }
    this.child = spawn(process.execPath, [MAIN_JS], {
      env: { ...base, LOG_LEVEL: 'info', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.child.stdout?.setEncoding('utf8').on('data', (chunk: string) => (this.stdout += chunk));
    this.child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (this.stderr += chunk));
    this.exited = new Promise((resolve) => {
      this.child.once('exit', (code, signal) => {
        this.exit = { code, signal };
        resolve(this.exit);
      });
      this.child.once('error', () => {
        this.exit ??= { code: null, signal: null };
        resolve(this.exit);
      });
    });
  }

  get running(): boolean {
    return this.exit === undefined;
  }

  /** Resolves with the ports once the service logged `listening`; rejects if it exits first. */
  async listening(timeoutMs = 10_000): Promise<Ports> {
    return waitFor(
      'the "ready" log line',
      () => {
        const ports = parseReadyLine(this.stderr + this.stdout);
        if (ports !== undefined) {
          this.httpPort = ports.http;
          this.debugPort = ports.debug;
          this.grpcTarget = ports.grpc;
          return ports;
        }
        if (this.exit !== undefined) {
          throw new Error(`service exited (${JSON.stringify(this.exit)}) before listening; stderr:\n${this.stderr}`);
        }
        return undefined;
      },
      timeoutMs,
    ).catch((error: Error) => {
      throw new Error(`${error.message}\nstderr so far:\n${this.stderr}`);
    });
  }

  /** Resolves when the process exits; rejects after `timeoutMs`. */
  waitForExit(timeoutMs = 10_000): Promise<Exit> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`process did not exit within ${timeoutMs} ms`)), timeoutMs);
      void this.exited.then((exit) => {
        clearTimeout(timer);
        resolve(exit);
      });
    });
  }

  kill(signal: NodeJS.Signals = 'SIGTERM'): void {
    if (this.exit === undefined) this.child.kill(signal);
  }

  /** gRPC target for clients: `127.0.0.1:<port>`, or `unix:<path>` with GRPC_UDS. */
  get grpcAddress(): string {
    if (this.grpcTarget === undefined) throw new Error('not listening yet');
    return /^\d+$/.test(this.grpcTarget) ? `127.0.0.1:${this.grpcTarget}` : `unix:${this.grpcTarget}`;
  }

  get baseUrl(): string {
    if (this.httpPort === undefined) throw new Error('not listening yet');
    return `http://127.0.0.1:${this.httpPort}`;
  }

  get debugUrl(): string {
    if (this.debugPort === undefined) throw new Error('not listening yet');
    return `http://127.0.0.1:${this.debugPort}`;
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

  /** A statistic read from the debug server's `/stats` (`name: value` lines); undefined if absent. */
  async stat(name: string): Promise<number | undefined> {
    const { text } = await this.debug('/stats');
    for (const line of text.split('\n')) {
      if (line.startsWith(`${name}: `)) return Number(line.slice(name.length + 2));
    }
    return undefined;
  }
}

export interface Ports {
  http: number;
  debug: number;
  /** The gRPC port, or the unix socket path with GRPC_UDS. */
  grpc: string;
}

/** Ports from the ready line: `msg="ready" http=N debug=M grpc=G ...` (text) or `{"@message":"ready","http":N,...}` (json). */
export function parseReadyLine(output: string): Ports | undefined {
  for (const line of output.split('\n')) {
    if (line.startsWith('{')) {
      try {
        const record = JSON.parse(line) as Record<string, unknown>;
        if (record['@message'] === 'ready' && typeof record['http'] === 'number' && typeof record['debug'] === 'number') {
          return { http: record['http'], debug: record['debug'], grpc: String(record['grpc']) };
        }
      } catch {
        // not a JSON line
      }
      continue;
    }
    const m = /msg="ready" http=(\d+) debug=(\d+) grpc=("[^"]*"|\d+)/.exec(line);
    if (m !== null) return { http: Number(m[1]), debug: Number(m[2]), grpc: (m[3] as string).replace(/"/g, '') };
  }
  return undefined;
}

/** Spawns the service without waiting for it (for processes expected to fail at startup). */
export function spawnProcess(t: Teardown | undefined, env: Record<string, string>): ServiceProcess {
  const proc = new ServiceProcess(env);
  t?.teardown(async () => {
    if (!proc.running) return;
    proc.kill('SIGKILL');
    await proc.waitForExit(5000).catch(() => undefined);
  });
  return proc;
}

/** Spawns the service with PORT, DEBUG_PORT and GRPC_PORT 0 on 127.0.0.1 and waits until it listens. */
export async function startProcess(t: Teardown | undefined, env: Record<string, string>): Promise<ServiceProcess> {
  const proc = spawnProcess(t, { PORT: '0', DEBUG_PORT: '0', GRPC_PORT: '0', HOST: '127.0.0.1', DEBUG_HOST: '127.0.0.1', GRPC_HOST: '127.0.0.1', ...env });
  await proc.listening();
  return proc;
}

/** A temporary RUNTIME_ROOT (`<temp>/current`) with `config/<name>` files; removed in teardown. */
export async function runtimeRoot(t: Teardown, files: Record<string, string> = {}): Promise<{ root: string; configDir: string }> {
  const temp = await mkdtemp(join(tmpdir(), 'rl-e2e-'));
  t.teardown(() => rm(temp, { recursive: true, force: true }));
  const root = join(temp, 'current');
  const configDir = join(root, 'config');
  await mkdir(configDir, { recursive: true });
  for (const [name, text] of Object.entries(files)) await writeFile(join(configDir, name), text);
  return { root, configDir };
}
