/**
 * A child process a test or benchmark starts and must stop: output collected, a readiness parse
 * over that output, optional CPU pinning with `taskset -c <cpus>`, and a stop that escalates
 * from SIGTERM to SIGKILL. The service (process-harness.ts) and the store servers
 * (store-servers.ts) are built on it.
 */
import { spawn, type ChildProcess } from 'node:child_process';

export interface ManagedProcessOptions {
  command: string;
  args: readonly string[];
  /** Added to this process's environment, or the whole environment besides a few basics with `inheritEnv` false. */
  env?: Record<string, string>;
  /**
   * Default true. False keeps the test runner's variables (NODE_OPTIONS, tap's) out: the child
   * gets only PATH, HOME, TMPDIR and LANG under `env`.
   */
  inheritEnv?: boolean;
  /** `taskset -c` CPU list (e.g. "0"); absent: not pinned. taskset execs, so the PID stays the command's. */
  cpus?: string;
}

export interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

const BASIC_ENV = ['PATH', 'HOME', 'TMPDIR', 'LANG'];

/** How long output may still arrive after the process exited, before it counts as gone. */
const PIPES_AFTER_EXIT_MS = 2000;

function childEnv(options: ManagedProcessOptions): NodeJS.ProcessEnv {
  if (options.inheritEnv ?? true) return { ...process.env, ...options.env };
  const env: Record<string, string> = {};
  for (const name of BASIC_ENV) {
    const value = process.env[name];
    if (value !== undefined) env[name] = value;
  }
  return { ...env, ...options.env };
}

/** Children still running when this process exits (a crash before teardown) die with it. */
const liveChildren = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of liveChildren) child.kill('SIGKILL');
});

export class ManagedProcess {
  readonly child: ChildProcess;
  stdout = '';
  stderr = '';
  /** stdout and stderr as they arrived, and a spawn error's message. */
  output = '';
  /** Resolves when the process is gone (or could not be started). */
  readonly exited: Promise<Exit>;
  private exitStatus: Exit | undefined;
  private spawnError: Error | undefined;

  constructor(options: ManagedProcessOptions) {
    const [command, args] =
      options.cpus === undefined ? [options.command, options.args] : ['taskset', ['-c', options.cpus, options.command, ...options.args]];
    const child = spawn(command, args, { env: childEnv(options), stdio: ['ignore', 'pipe', 'pipe'] });
    this.child = child;
    liveChildren.add(child);
    child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
      this.stdout += chunk;
      this.output += chunk;
    });
    child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
      this.stderr += chunk;
      this.output += chunk;
    });
    this.exited = new Promise((resolve) => {
      const done = (exit: Exit) => {
        liveChildren.delete(child);
        this.exitStatus ??= exit;
        resolve(this.exitStatus);
      };
      // 'exit' can come before the last output is read from the pipes; 'close' comes after both.
      // A grandchild that inherited the pipes could hold them open, so 'exit' alone ends the wait
      // after a bound.
      child.once('exit', (code, signal) => {
        setTimeout(() => done({ code, signal }), PIPES_AFTER_EXIT_MS).unref();
      });
      child.once('close', (code, signal) => done({ code, signal }));
      child.once('error', (error) => {
        if (this.exitStatus === undefined) this.spawnError = error;
        this.output += `\n${error.message}`;
        done({ code: null, signal: null });
      });
    });
  }

  get running(): boolean {
    return this.exitStatus === undefined;
  }

  /** How the process ended (`exit code 1`, `signal SIGKILL`, `could not start: ...`); undefined while it runs. */
  get exitReason(): string | undefined {
    const exit = this.exitStatus;
    if (exit === undefined) return undefined;
    if (this.spawnError !== undefined) return `could not start: ${this.spawnError.message}`;
    return exit.signal === null ? `exit code ${exit.code}` : `signal ${exit.signal}`;
  }

  /** Polls `parse(output)` until it returns a value; rejects if the process exits or time runs out. */
  async waitFor<T>(what: string, parse: (output: string) => T | undefined, timeoutMs = 15_000): Promise<T> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const value = parse(this.output);
      if (value !== undefined) return value;
      if (!this.running) throw new Error(`process exited (${this.exitReason}) before ${what}; output:\n${this.output}`);
      if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}; output:\n${this.output}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
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
    if (this.running) this.child.kill(signal);
  }

  /** SIGTERM, then SIGKILL if the process is still there after `graceMs`; resolves once it is gone. */
  async stop(graceMs = 5000): Promise<void> {
    if (!this.running) return;
    this.child.kill('SIGTERM');
    const timer = setTimeout(() => this.child.kill('SIGKILL'), graceMs);
    await this.exited;
    clearTimeout(timer);
  }
}
