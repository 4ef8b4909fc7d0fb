/**
 * `npm run native-bench:handoff [-- --duration 5 --rounds 3 --nice 10]`: what it costs to hand an
 * HTTP request to the API thread instead of answering it on the thread that read it. `--nice` is
 * the service's API_THREAD_NICE (its default 10; 0 measures the hand-off without the priority).
 *
 * One service on CPU 0 (HTTP_WORKERS=0, so the front is the main thread; the API thread shares
 * CPU 0 with it), wrk on CPU 1, 64 connections. Each round measures, after a warm-up each:
 *   inline:    GET /healthcheck, answered on the front thread (the rate limit API's health)
 *   handed off: GET /-/healthy, read on the front thread, answered by the API thread
 * Both answers are tiny and fixed, so the difference per request is the hand-off itself: the
 * request copied out of uWS, two postMessage hops, the reply written back. CPU is the whole
 * process (every thread) per request.
 */
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { startBenchService } from '../bench/bench-fixture.js';
import { makeTempDir } from '../test/support/temp-dir.js';
import { LOAD_CPUS, SERVER_CPUS, WARM_UP_SECONDS } from './fairness.js';
import { withCpu } from './measure.js';
import type { Measurement } from './measurement.js';
import { ensureLoadTools } from './tools.js';
import { runWrk, writeWrkGetScript } from './wrk.js';

const PATHS = { inline: '/healthcheck', handedOff: '/-/healthy' } as const;
type Kind = keyof typeof PATHS;

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? NaN;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: { duration: { type: 'string', default: '5' }, rounds: { type: 'string', default: '3' }, nice: { type: 'string', default: '10' } },
  });
  const seconds = Number(values.duration);
  const rounds = Number(values.rounds);
  const nice = values.nice;
  await ensureLoadTools();
  const dir = await makeTempDir('native-bench-handoff-');
  const script = await writeWrkGetScript(dir.path);
  const service = await startBenchService({ HTTP_WORKERS: '0', RUNTIME_ROOT: dir.path, API_THREAD_NICE: nice }, SERVER_CPUS);
  const endpoints = { pid: service.child.pid };
  const runs: Record<Kind, Measurement[]> = { inline: [], handedOff: [] };
  console.log(`service on CPU ${SERVER_CPUS} (HTTP_WORKERS=0, API_THREAD_NICE=${nice}), wrk -c64 on CPU ${LOAD_CPUS}; load average ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);
  try {
    for (let round = 1; round <= rounds; round++) {
      for (const kind of ['inline', 'handedOff'] as const) {
        const url = `${service.baseUrl}${PATHS[kind]}`;
        await runWrk(url, script, WARM_UP_SECONDS, LOAD_CPUS);
        const m = await withCpu(endpoints, seconds, () => runWrk(url, script, seconds, LOAD_CPUS));
        if (m.errors > 0) throw new Error(`${kind}: ${m.errors} errors (${JSON.stringify(m.errorDetail)})`);
        runs[kind].push(m);
        console.log(`round ${round} ${kind.padEnd(10)} ${PATHS[kind].padEnd(13)} ${Math.round(m.reqPerSec)} req/s  p50 ${m.p50Us} us  p99 ${m.p99Us} us  cpu ${m.cpuUsPerRequest?.toFixed(1)} us/req`);
      }
    }
  } finally {
    await service.stop();
    await dir.remove();
  }
  const figure = (kind: Kind, pick: (m: Measurement) => number | undefined) => median(runs[kind].map((m) => pick(m) ?? NaN));
  const cpu = { inline: figure('inline', (m) => m.cpuUsPerRequest), handedOff: figure('handedOff', (m) => m.cpuUsPerRequest) };
  const rate = { inline: figure('inline', (m) => m.reqPerSec), handedOff: figure('handedOff', (m) => m.reqPerSec) };
  console.log('');
  console.log(`median of ${rounds} rounds: inline ${Math.round(rate.inline)} req/s at ${cpu.inline.toFixed(1)} us CPU per request; handed off ${Math.round(rate.handedOff)} req/s at ${cpu.handedOff.toFixed(1)} us`);
  console.log(`hand-off cost: ${(cpu.handedOff - cpu.inline).toFixed(1)} us of CPU per request (all threads); throughput ratio handed off / inline ${(rate.handedOff / rate.inline).toFixed(2)}`);
  console.log(`p50 ${figure('inline', (m) => m.p50Us)} -> ${figure('handedOff', (m) => m.p50Us)} us, p99 ${figure('inline', (m) => m.p99Us)} -> ${figure('handedOff', (m) => m.p99Us)} us (64 connections at full load)`);
}

await main();
