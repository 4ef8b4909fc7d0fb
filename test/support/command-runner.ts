/**
 * Runs short commands (redis-cli, openssl, amtool, the Python gRPC client) for a test from a
 * small helper process (command-runner-process.ts) rather than from the test's own process.
 * Node forks to start a child, and a fork copies the page tables of the whole process: a test
 * process that holds a service (its threads, heaps and shared memory) paid about 20 ms of CPU per
 * redis-cli call, and every page it wrote afterwards faulted once more. redis-backend.test.ts
 * used 25 CPU-s with its own forks and 13 with the helper's.
 *
 *   const { code, stdout } = await runCommand('redis-cli', ['PING'], { timeoutMs: 5000 });
 */
import { fork, type ChildProcess } from 'node:child_process';
import { packageFile } from '../../src/transports/package-files.js';

export interface CommandRequest {
  file: string;
  args: readonly string[];
  /** The child's whole environment (the helper's own is the test's at the helper's start). */
  env: NodeJS.ProcessEnv;
  cwd?: string;
  /** Written to the child's stdin, which is then closed; without it stdin is /dev/null. */
  input?: string;
  /** SIGKILL after this long (`timedOut` then says so). */
  timeoutMs: number;
}

export interface CommandResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
  /** Set when the command could not be started at all (not found, not executable). */
  spawnError?: string;
}

export interface CommandOptions {
  env?: NodeJS.ProcessEnv;
  cwd?: string;
  input?: string;
  timeoutMs?: number;
}

/** The helper's compiled file, named from the package root like every file the tests open. */
const HELPER = packageFile('dist/test/support/command-runner-process.js');
const DEFAULT_TIMEOUT_MS = 30_000;

let helper: ChildProcess | undefined;
let nextId = 0;
const pending = new Map<number, (result: CommandResult) => void>();

function startHelper(): ChildProcess {
  const child = fork(HELPER, [], { execArgv: [], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  child.on('message', ({ id, result }: { id: number; result: CommandResult }) => {
    const resolve = pending.get(id);
    pending.delete(id);
    // Idle, the helper must not keep the test's process alive.
    if (pending.size === 0) child.channel?.unref();
    resolve?.(result);
  });
  child.once('exit', (code, signal) => {
    helper = undefined;
    for (const [id, resolve] of pending) {
      pending.delete(id);
      resolve({ code: null, signal: null, stdout: '', stderr: '', timedOut: false, spawnError: `the command helper exited (${signal ?? code})` });
    }
  });
  child.unref();
  return child;
}

/** Runs `file` with `args` to its end; resolves however it ended (see `code`, `timedOut`, `spawnError`). */
export function runCommand(file: string, args: readonly string[], options: CommandOptions = {}): Promise<CommandResult> {
  helper ??= startHelper();
  const request: CommandRequest = { file, args, env: options.env ?? process.env, cwd: options.cwd, input: options.input, timeoutMs: options.timeoutMs ?? DEFAULT_TIMEOUT_MS };
  const id = nextId++;
  const running = helper;
  return new Promise((resolve) => {
    pending.set(id, resolve);
    running.channel?.ref();
    running.send({ id, request });
  });
}

/** How a command that did not succeed ended, for an error message. */
export function describeFailure(result: CommandResult, timeoutMs?: number): string {
  if (result.spawnError !== undefined) return result.spawnError;
  if (result.timedOut) return `still running after ${timeoutMs ?? '?'} ms`;
  const output = `${result.stderr}${result.stdout}`.trim();
  return output === '' ? `exited with ${result.signal ?? result.code}` : output;
}
