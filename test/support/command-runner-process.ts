/**
 * The helper process of command-runner.ts: runs each command it is sent and sends back how it
 * ended. It stays small, which is why commands are run from here; it ends with its parent.
 */
import { spawn } from 'node:child_process';
import type { CommandRequest, CommandResult } from './command-runner.js';

function run(request: CommandRequest): Promise<CommandResult> {
  return new Promise((resolve) => {
    const child = spawn(request.file, request.args, {
      env: request.env,
      cwd: request.cwd,
      stdio: [request.input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    let timedOut = false;
    child.stdout?.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, request.timeoutMs);
    child.once('error', (error) => {
      clearTimeout(timer);
      resolve({ code: null, signal: null, stdout, stderr, timedOut, spawnError: error.message });
    });
    child.once('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr, timedOut });
    });
    if (request.input !== undefined) {
      // A command may exit before reading all of it (a usage error): that EPIPE is its answer, not ours.
      child.stdin?.on('error', () => undefined);
      child.stdin?.end(request.input);
    }
  });
}

process.on('message', (message: { id: number; request: CommandRequest }) => {
  void run(message.request).then((result) => process.send?.({ id: message.id, result }));
});
process.on('disconnect', () => process.exit(0));
