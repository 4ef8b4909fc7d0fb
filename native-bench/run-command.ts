/** Runs a load generator to completion, pinned with `taskset -c`, and returns its output. */
import { spawn } from 'node:child_process';

export interface CommandOutput {
  code: number | null;
  stdout: string;
  stderr: string;
}

export function runCommand(command: string, args: string[], cpus?: string): Promise<CommandOutput> {
  const [cmd, argv] = cpus === undefined ? [command, args] : ['taskset', ['-c', cpus, command, ...args]];
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, argv, { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** Like runCommand, but a non-zero exit is an error quoting the output. */
export async function runChecked(command: string, args: string[], cpus?: string): Promise<CommandOutput> {
  const out = await runCommand(command, args, cpus);
  if (out.code !== 0) {
    throw new Error(`${command} ${args.join(' ')} exited with ${out.code}:\n${out.stdout}\n${out.stderr}`);
  }
  return out;
}
