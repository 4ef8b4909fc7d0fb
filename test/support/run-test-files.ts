/**
 * Runs compiled test files, each as a plain `node` process, and writes one TAP stream of them all
 * on stdout, each file a subtest, as tap's runner does:
 *
 *   node dist/test/support/run-test-files.js --jobs 2 --max-jobs 3 --timeout 120 FILE...
 *
 * `--jobs` files run at all times, and one more, up to `--max-jobs`, whenever the host's CPUs sat
 * idle for a second (HostIdle): test files wait on processes, sockets and timers much of the
 * time, and a file more fills that time. A fixed higher count also runs it when every file
 * computes, and then they slow each other down: on a 2-core host three at a time took 12% more
 * CPU than two (953 against 840 CPU-s in a full run).
 *
 * Not tap's runner: it loads its process-tracking hooks (`@tapjs/processinfo`, through
 * `--import` and NODE_OPTIONS) into every test process, every process a test starts and every
 * thread of those, and each module they load then goes through the hooks: a service started by a
 * test took two to four times as long to start. The tests still use tap's `t`, which prints TAP
 * when run by node directly.
 */
import { spawn } from 'node:child_process';
import { parseArgs } from 'node:util';
import { HostIdle } from './host-idle.js';

const { values, positionals: files } = parseArgs({
  options: { jobs: { type: 'string', default: '2' }, 'max-jobs': { type: 'string' }, timeout: { type: 'string', default: '120' } },
  allowPositionals: true,
});
const jobs = Math.max(1, Number(values.jobs));
const maxJobs = Math.max(jobs, Number(values['max-jobs'] ?? jobs));
const timeoutMs = Number(values.timeout) * 1000;
/** After SIGTERM at the timeout, how long a file's process has before SIGKILL. */
const KILL_GRACE_MS = 5000;
/** How often the host's idle share is read. */
const LOOK_EVERY_MS = 1000;
/** Idle share of all CPUs since the last look above which one more file starts. */
const IDLE_TO_START = 0.3;
/** A file's first moments are its own start (node, tap, its imports): no file more starts meanwhile. */
const START_SETTLES_MS = 1500;

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
let running = 0;
let lastStart = 0;
let allDone = (): void => undefined;
const done = new Promise<void>((resolve) => (allDone = resolve));

function start(): void {
  const file = files[next++] as string;
  running++;
  lastStart = performance.now();
  void runFile(file).then((outcome) => {
    const body = outcome.lines.map((line) => (line === '' ? '' : `    ${line}`)).join('\n');
    process.stdout.write(`# Subtest: ${file}\n${body}\n${outcome.ok ? 'ok' : 'not ok'} ${++written} - ${file} # time=${outcome.ms.toFixed(0)}ms\n`);
    running--;
    fill();
  });
}

function fill(): void {
  while (running < jobs && next < files.length) start();
  if (running === 0 && next >= files.length) allDone();
}

const idle = new HostIdle();
const looks = setInterval(() => {
  const share = idle.sinceLastLook();
  if (share === undefined || share <= IDLE_TO_START || running >= maxJobs || next >= files.length) return;
  if (performance.now() - lastStart >= START_SETTLES_MS) start();
}, LOOK_EVERY_MS);
fill();
await done;
clearInterval(looks);
process.stdout.write(`1..${written}\n`);
