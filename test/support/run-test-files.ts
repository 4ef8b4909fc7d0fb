/**
 * Runs compiled test files, `--jobs` at a time, each as a plain `node` process, and writes one
 * TAP stream of them all on stdout, each file a subtest, as tap's runner does:
 *
 *   node dist/test/support/run-test-files.js --jobs 3 --timeout 120 FILE...
 *
 * Not tap's runner: it loads its process-tracking hooks (`@tapjs/processinfo`, through
 * `--import` and NODE_OPTIONS) into every test process, every process a test starts and every
 * thread of those, and each module they load then goes through the hooks: a service started by a
 * test took two to four times as long to start. The tests still use tap's `t`, which prints TAP
 * when run by node directly.
 */
import { spawn } from 'node:child_process';
import { parseArgs } from 'node:util';

const { values, positionals: files } = parseArgs({
  options: { jobs: { type: 'string', default: '3' }, timeout: { type: 'string', default: '120' } },
  allowPositionals: true,
});
const jobs = Math.max(1, Number(values.jobs));
const timeoutMs = Number(values.timeout) * 1000;
/** After SIGTERM at the timeout, how long a file's process has before SIGKILL. */
const KILL_GRACE_MS = 5000;

interface Outcome {
  ok: boolean;
  lines: string[];
  ms: number;
}

function runFile(file: string): Promise<Outcome> {
  const started = performance.now();
  // TAP_TIMEOUT: tap's own limit on a file run by node (30 s unless set); past it tap ends the file
  // and says which test was running. This runner's limit is the backstop for a file that hangs.
  const env = { ...process.env, TAP_TIMEOUT: String(timeoutMs / 1000) };
  const child = spawn(process.execPath, ['--enable-source-maps', file], { stdio: ['ignore', 'pipe', 'pipe'], env });
  const lines: string[] = [];
  let pending = { stdout: '', stderr: '' };
  const take = (stream: 'stdout' | 'stderr', chunk: Buffer, final = false) => {
    const text = pending[stream] + chunk.toString('utf8');
    const parts = text.split('\n');
    pending = { ...pending, [stream]: final ? '' : (parts.pop() ?? '') };
    for (const line of parts) {
      if (stream === 'stdout') {
        if (!line.startsWith('TAP version')) lines.push(line);
      } else if (line !== '') {
        // What the file wrote to stderr, kept as comments where it happened.
        lines.push(`# ${line}`);
      }
    }
  };
  child.stdout.on('data', (chunk: Buffer) => take('stdout', chunk));
  child.stderr.on('data', (chunk: Buffer) => take('stderr', chunk));
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    child.kill('SIGTERM');
    setTimeout(() => child.kill('SIGKILL'), KILL_GRACE_MS).unref();
  }, timeoutMs + KILL_GRACE_MS);
  return new Promise((resolve) => {
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      take('stdout', Buffer.alloc(0), true);
      take('stderr', Buffer.alloc(0), true);
      if (timedOut) lines.push(`not ok - timeout! the file ran past ${timeoutMs / 1000} s`);
      else if (code !== 0 && !lines.some((line) => line.startsWith('not ok'))) lines.push(`not ok - the file exited with ${signal ?? `code ${code}`}`);
      resolve({ ok: code === 0 && !timedOut, lines, ms: performance.now() - started });
    });
  });
}

process.stdout.write('TAP version 14\n');
let next = 0;
let written = 0;
async function worker(): Promise<void> {
  while (next < files.length) {
    const file = files[next++] as string;
    const outcome = await runFile(file);
    const body = outcome.lines.map((line) => (line === '' ? '' : `    ${line}`)).join('\n');
    process.stdout.write(`# Subtest: ${file}\n${body}\n${outcome.ok ? 'ok' : 'not ok'} ${++written} - ${file} # time=${outcome.ms.toFixed(0)}ms\n`);
  }
}
await Promise.all(Array.from({ length: Math.min(jobs, files.length) }, () => worker()));
process.stdout.write(`1..${written}\n`);
