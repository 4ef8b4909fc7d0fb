/**
 * `npm run native-bench:instructions [-- --requests N --grpc]`: the service against the bare
 * servers in instructions per request, counted by valgrind's callgrind. Throughput on this shared
 * host moves by half between minutes; instruction counts repeat within about 1% (HTTP), so this is
 * the yardstick for a change to the hot path. It ignores the kernel (both sides make the same
 * syscalls per request) and cache misses, so it complements `npm run native-bench`, which measures
 * what the targets are set in.
 *
 * Each server runs alone under callgrind with instrumentation off; after 2x`requests` warm-up
 * requests (JIT, caches), instrumentation is switched on for `requests` more and the total is
 * divided by them. gRPC warms up 6x as long and still scatters by 10-15% between runs: grpc-js
 * keeps compiling and collecting long after HTTP has settled.
 */
import { spawn } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { BENCH_BODY } from '../bench/bench-request.js';
import { writeBenchConfig } from '../bench/bench-fixture.js';
import { SERVER_NODE_FLAGS } from '../bench/node-flags.js';
import { ManagedProcess } from '../test/support/managed-process.js';
import { MAIN_JS, parseReadyLine } from '../test/support/process-harness.js';
import { LOCAL_LISTENERS_ENV } from '../test/support/service-inputs.js';
import { makeTempDir } from '../test/support/temp-dir.js';
import { GRPC_HEADERS, GRPC_PATH, grpcRequestFrame } from './grpc-frame.js';
import { parseListeningPort } from './bare-reply.js';
import { runChecked } from './run-command.js';
import { LOAD_CPUS, SERVER_CPUS } from './fairness.js';
import { ensureCommands, ensureLoadTools } from './tools.js';

const HERE = dirname(fileURLToPath(import.meta.url));
/** valgrind names its control pipes after $HOST, and the service reads HOST too: one value for both. */
const HOST = '127.0.0.1';
const START_TIMEOUT_MS = 180_000;

type Protocol = 'http' | 'grpc';

/**
 * V8's memory reducer starts a mark-compact when the allocation rate looks like an idle process.
 * Fifty times slower under callgrind, a server under full load looks idle to it, and the
 * collections it starts (one per counted window or so, never seen at native speed under load)
 * cost in proportion to the heap: 3,000 instructions per request for the service's heap against
 * 300 for bare uWS's in a 60,000-request window. Both sides run without it.
 */
const UNDER_CALLGRIND_FLAGS: readonly string[] = ['--no-memory-reducer'];

/**
 * Counted requests. With a 64 MiB young generation (bench/node-flags.ts) a scavenge comes about
 * every 17k /json requests: a 4,000-request window either misses it or holds a whole one (41.8k
 * against 48.5k instructions per request in two runs). 20,000 (after 40,000 of warm-up) still
 * read 61.1k to 68.3k for one build of the service: its code was still being optimised. 60,000
 * (after 120,000) held a mark-compact in some runs and none in others: 42.1k and 44.2k for one
 * build, which hides a change of a few percent (those were the memory reducer's, see
 * UNDER_CALLGRIND_FLAGS). 200,000 (after 400,000) takes about 4 minutes and stays the default for
 * HTTP, so a collection that does fall in the window weighs a third as much. gRPC, warmed up six times as long and far slower under
 * callgrind, keeps 60,000.
 */
const DEFAULT_REQUESTS: Record<Protocol, number> = { http: 200_000, grpc: 60_000 };

interface Target {
  name: string;
  protocol: Protocol;
  args: string[];
  env: Record<string, string>;
  /** The port to load, read from the server's output. */
  port(output: string): number | undefined;
}

/** `--requests N` counts N requests of each protocol; without it, each protocol's default. */
function options(): { requests: Record<Protocol, number>; protocols: Protocol[] } {
  const { values } = parseArgs({ options: { requests: { type: 'string' }, grpc: { type: 'boolean', default: false } } });
  const protocols: Protocol[] = values.grpc ? ['http', 'grpc'] : ['http'];
  if (values.requests === undefined) return { requests: DEFAULT_REQUESTS, protocols };
  const requests = Number(values.requests);
  if (!Number.isInteger(requests) || requests < 100) throw new Error('usage: native-bench:instructions [--requests N (>= 100)] [--grpc]');
  return { requests: { http: requests, grpc: requests }, protocols };
}

function targets(configEnv: Record<string, string>, protocols: Protocol[]): Target[] {
  const service = (protocol: Protocol): Target => ({
    name: `service ${protocol === 'http' ? '/json' : 'gRPC'}, embedded store, inline, HTTP_WORKERS=0`,
    protocol,
    args: [MAIN_JS],
    env: { ...LOCAL_LISTENERS_ENV, ...configEnv, HTTP_WORKERS: '0', DECISION_MODE: 'inline', LOG_LEVEL: 'info', LOG_FORMAT: 'text' },
    port: (output) => {
      const ports = parseReadyLine(output);
      return ports === undefined ? undefined : protocol === 'http' ? ports.http : Number(ports.grpc);
    },
  });
  const all: Target[] = [
    { name: 'bare uWS /json', protocol: 'http', args: [join(HERE, 'bare-uws-server.js')], env: {}, port: parseListeningPort },
    service('http'),
    { name: 'bare grpc-js', protocol: 'grpc', args: [join(HERE, 'bare-grpc-server.js')], env: {}, port: parseListeningPort },
    service('grpc'),
  ];
  return all.filter((t) => protocols.includes(t.protocol));
}

interface Files {
  dir: string;
  body: string;
  frame: string;
}

function load(files: Files, protocol: Protocol, port: number, requests: number): Promise<unknown> {
  const args =
    protocol === 'http'
      ? ['--h1', '-c16', '-n', String(requests), '-d', files.body, `http://${HOST}:${port}/json`]
      : ['-c4', '-m16', '-n', String(requests), '-d', files.frame, ...GRPC_HEADERS.flatMap((h) => ['-H', h]), `http://${HOST}:${port}${GRPC_PATH}`];
  return runChecked('h2load', args, LOAD_CPUS).then((out) => {
    if (!out.stdout.includes(`${requests} succeeded`)) throw new Error(`not every request succeeded:\n${out.stdout}`);
  });
}

function callgrindControl(pid: number, ...args: string[]): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const child = spawn('callgrind_control', [...args, String(pid)], { env: { ...process.env, HOST }, stdio: 'ignore' });
    child.once('error', reject);
    child.once('close', (code) => (code === 0 ? resolve(undefined) : reject(new Error(`callgrind_control ${args.join(' ')} exited with ${code}`))));
  });
}

async function instructionsPerRequest(files: Files, target: Target, requests: number): Promise<number> {
  const proc = new ManagedProcess({
    command: 'valgrind',
    args: ['--tool=callgrind', '--instr-atstart=no', `--callgrind-out-file=${join(files.dir, 'callgrind.%p')}`, process.execPath, ...SERVER_NODE_FLAGS, ...UNDER_CALLGRIND_FLAGS, ...target.args],
    env: { ...target.env, HOST },
    cpus: SERVER_CPUS,
  });
  try {
    const port = await proc.waitFor('the listening port', target.port, START_TIMEOUT_MS);
    const pid = proc.child.pid as number;
    await load(files, target.protocol, port, (target.protocol === 'http' ? 2 : 6) * requests);
    await callgrindControl(pid, '--instr=on');
    await load(files, target.protocol, port, requests);
    await callgrindControl(pid, '--instr=off');
    await callgrindControl(pid, '--dump');
    const dump = await readFile(join(files.dir, `callgrind.${pid}.1`), 'utf8');
    const totals = /^totals: (\d+)/m.exec(dump);
    if (totals === null) throw new Error('the callgrind dump has no totals line');
    return Number(totals[1]) / requests;
  } finally {
    await proc.stop();
  }
}

async function main(): Promise<void> {
  const { requests, protocols } = options();
  await ensureLoadTools();
  await ensureCommands({ valgrind: 'valgrind', callgrind_control: 'valgrind' });
  const temp = await makeTempDir('native-bench-instr-');
  const dir = temp.path;
  const config = await writeBenchConfig();
  try {
    const files: Files = { dir, body: join(dir, 'body.json'), frame: join(dir, 'grpc-request.bin') };
    await writeFile(files.body, BENCH_BODY);
    await writeFile(files.frame, grpcRequestFrame());
    const counted: Array<{ target: Target; perRequest: number }> = [];
    for (const target of targets(config.env, protocols)) {
      const count = requests[target.protocol];
      console.log(`${target.name}: under callgrind on CPU ${SERVER_CPUS}, ${count} requests counted`);
      counted.push({ target, perRequest: await instructionsPerRequest(files, target, count) });
    }
    console.log('\n| target | instructions per request | ratio (bare / this) |\n|---|---|---|');
    for (const { target, perRequest } of counted) {
      const bare = counted.find((c) => c.target.protocol === target.protocol && c.target.name.startsWith('bare'));
      const ratio = bare === undefined ? 'n/a' : (bare.perRequest / perRequest).toFixed(2);
      console.log(`| ${target.name} | ${Math.round(perRequest).toLocaleString('en-US')} | ${ratio} |`);
    }
  } finally {
    await config.remove();
    await temp.remove();
  }
}

await main();
