/**
 * `npm run native-bench:layouts [-- --duration 8 --rounds 3]`: the service's thread layouts as a
 * sidecar runs them, unpinned on this host's cores beside the load generator (as it shares its
 * host with Envoy and the application): bare uWS, then the service with each HTTP thread count,
 * and the Node peer (fastify + rate-limiter-flexible, one thread), under `wrk -t1 -c64` on
 * `/json`. Each run is followed at once by a bare uWS run, and its throughput and p99 are given
 * as ratios to that run. The median of `--rounds` rounds.
 */
import { writeFile } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { BENCH_BODY } from '../bench/bench-request.js';
import { startBenchService, writeBenchConfig } from '../bench/bench-fixture.js';
import { SERVER_NODE_FLAGS } from '../bench/node-flags.js';
import { ManagedProcess } from '../test/support/managed-process.js';
import { makeTempDir } from '../test/support/temp-dir.js';
import { parseListeningPort } from './bare-reply.js';
import type { Measurement } from './measurement.js';
import { ensureLoadTools } from './tools.js';
import { runWrk, writeWrkScript } from './wrk.js';

const HERE = dirname(fileURLToPath(import.meta.url));
const ALL_CPUS = `0-${availableParallelism() - 1}`;
const WARM_UP_SECONDS = 3;

interface Layout {
  name: string;
  /** Starts the server; resolves with its `/json` URL and the way to stop it. */
  start(): Promise<{ url: string; stop(): Promise<void> }>;
}

/** A server script of this folder, unpinned, with the servers' V8 flags, ready once it prints `LISTENING <port>`. */
async function startScript(script: string): Promise<{ url: string; stop(): Promise<void> }> {
  const proc = new ManagedProcess({ command: process.execPath, args: [...SERVER_NODE_FLAGS, join(HERE, script)] });
  try {
    const port = await proc.waitFor('LISTENING <port>', parseListeningPort);
    return { url: `http://127.0.0.1:${port}/json`, stop: () => proc.stop() };
  } catch (error) {
    await proc.stop();
    throw error;
  }
}

/**
 * HTTP thread counts from none (HTTP on the main thread) to one per core ('' is the service's
 * default), then the Node peer, which runs on one thread as its users run it.
 */
function layouts(configEnv: Record<string, string>): Layout[] {
  const cores = availableParallelism();
  const counts = Array.from({ length: cores + 1 }, (_, n) => n);
  const service = (name: string, httpWorkers: string): Layout => ({
    name,
    async start() {
      const running = await startBenchService({ ...configEnv, HTTP_WORKERS: httpWorkers });
      return { url: `${running.baseUrl}/json`, stop: () => running.stop() };
    },
  });
  return [
    service('service at its defaults', ''),
    ...counts.map((n) => service(`service, HTTP_WORKERS=${n}`, String(n))),
    { name: 'Node peer: fastify + rate-limiter-flexible (same rule)', start: () => startScript('peer-fastify-server.js') },
  ];
}

async function measuredServer(start: Layout['start'], script: string, seconds: number): Promise<Measurement> {
  const server = await start();
  try {
    return await measured(server.url, script, seconds);
  } finally {
    await server.stop();
  }
}

async function measured(url: string, script: string, seconds: number): Promise<Measurement> {
  await runWrk(url, script, WARM_UP_SECONDS, ALL_CPUS);
  return runWrk(url, script, seconds, ALL_CPUS);
}

interface Pair {
  service: Measurement;
  bare: Measurement;
}

const median = (values: readonly number[]) => [...values].sort((a, b) => a - b)[Math.floor((values.length - 1) / 2)] as number;

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { duration: { type: 'string', default: '8' }, rounds: { type: 'string', default: '3' } } });
  const seconds = Number(values.duration);
  const rounds = Number(values.rounds);
  await ensureLoadTools();
  const dir = await makeTempDir('native-bench-layouts-');
  const config = await writeBenchConfig();
  try {
    const script = await writeWrkScript(dir.path, BENCH_BODY);
    await writeFile(join(dir.path, 'body.json'), BENCH_BODY);
    const results = new Map<string, Pair[]>();
    console.log(`layouts: unpinned on ${availableParallelism()} cores beside wrk -t1 -c64 (${seconds} s runs after ${WARM_UP_SECONDS} s of warm-up); ${rounds} rounds`);
    for (let round = 1; round <= rounds; round++) {
      for (const layout of layouts(config.env)) {
        const serviceRun = await measuredServer(() => layout.start(), script, seconds);
        const bareRun = await measuredServer(() => startScript('bare-uws-server.js'), script, seconds);
        const pairs = results.get(layout.name) ?? [];
        pairs.push({ service: serviceRun, bare: bareRun });
        results.set(layout.name, pairs);
        console.log(`round ${round}: ${layout.name}: ${Math.round(serviceRun.reqPerSec)} req/s p99 ${serviceRun.p99Us} us; bare uWS after it ${Math.round(bareRun.reqPerSec)} req/s p99 ${bareRun.p99Us} us`);
      }
    }
    console.log('');
    console.log('| layout | /json req/s | p99 us | bare uWS req/s | bare p99 us | throughput ratio | p99 ratio |');
    console.log('|---|---|---|---|---|---|---|');
    for (const [name, pairs] of results) {
      const rate = median(pairs.map((p) => p.service.reqPerSec));
      const p99 = median(pairs.map((p) => p.service.p99Us));
      const bareRate = median(pairs.map((p) => p.bare.reqPerSec));
      const bareP99 = median(pairs.map((p) => p.bare.p99Us));
      const rateRatio = median(pairs.map((p) => p.service.reqPerSec / p.bare.reqPerSec));
      const p99Ratio = median(pairs.map((p) => p.service.p99Us / p.bare.p99Us));
      console.log(`| ${name} | ${Math.round(rate)} | ${p99} | ${Math.round(bareRate)} | ${bareP99} | ${rateRatio.toFixed(2)} | ${p99Ratio.toFixed(2)} |`);
    }
    console.log('\nratios: median over rounds of (the layout\'s run / the bare uWS run right after it); goal for the service: p99 at most 1.5x, throughput at least 0.95x');
  } finally {
    await config.remove();
    await dir.remove();
  }
}

await main();
