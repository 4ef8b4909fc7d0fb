/**
 * A child process a benchmark starts and must stop: output collected, a readiness parse over
 * that output, optional CPU pinning with `taskset -c <cpus>`, and a stop that escalates from
 * SIGTERM to SIGKILL.
 */
import { spawn, type ChildProcess } from 'node:child_process';

export interface ManagedProcessOptions {
  command: string;
  args: string[];
  env?: Record<string, string>;
  /** `taskset -c` CPU list (e.g. "0"); absent: not pinned. */
  cpus?: string;
}

export class ManagedProcess {
  readonly child: ChildProcess;
  output = '';
  private exitCode: number | null | undefined;
  private readonly exited: Promise<void>;

  constructor(options: ManagedProcessOptions) {
    const [command, args] =
      options.cpus === undefined ? [options.command, options.args] : ['taskset', ['-c', options.cpus, options.command, ...options.args]];
    this.child = spawn(command, args, { env: { ...process.env, ...options.env }, stdio: ['ignore', 'pipe', 'pipe'] });
    for (const stream of [this.child.stdout, this.child.stderr]) {
      stream?.setEncoding('utf8').on('data', (chunk: string) => (this.output += chunk));
    }
    this.exited = new Promise((resolve) => {
      this.child.once('exit', (code) => {
        this.exitCode = code;
        resolve();
      });
      this.child.once('error', (error) => {
        this.output += `\n${error.message}`;
        this.exitCode ??= null;
        resolve();
      });
    });
  }

  get running(): boolean {
    return this.exitCode === undefined;
  }

  /** Polls `parse(output)` until it returns a value; rejects if the process exits or time runs out. */
  async waitFor<T>(what: string, parse: (output: string) => T | undefined, timeoutMs = 15_000): Promise<T> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const value = parse(this.output);
      if (value !== undefined) return value;
      if (!this.running) throw new Error(`process exited (${this.exitCode}) before ${what}; output:\n${this.output}`);
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; output:\n${this.output}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  async stop(graceMs = 5000): Promise<void> {
    if (!this.running) return;
    this.child.kill('SIGTERM');
    const timer = setTimeout(() => this.child.kill('SIGKILL'), graceMs);
    await this.exited;
    clearTimeout(timer);
  }
}
