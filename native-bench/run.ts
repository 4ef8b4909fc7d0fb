/**
 * `npm run native-bench [-- --duration 8 --rounds 3 --only http|grpc --http-workers 1]`: in one run on this machine,
 * measures the bare-server ceilings and the service with wrk and h2load, then the embedded
 * store's memory per key, and prints one table (also written to results/latest.json).
 * See README.md for what each row means and the fairness rules.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { loadavg, release, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { BENCH_BODY, BENCH_LIMIT_PER_SECOND, writeBenchConfig } from '../bench/bench-fixture.js';
import { DEFAULT_SERVICE_HTTP_WORKERS, fairnessNote, GRPC_CLIENTS, GRPC_STREAMS, LATENCY_GRPC_CLIENTS, LATENCY_GRPC_STREAMS, LATENCY_HTTP_CLIENTS, LOAD_CPUS, SERVER_CPUS, WARM_UP_SECONDS } from './fairness.js';
import { grpcRequestFrame } from './grpc-frame.js';
import { measure, type Workspace } from './measure.js';
import { fillRatios, renderTable, writeReport, type Report, type Row } from './report.js';
import { measureStoreMemory } from './store-memory.js';
import { CEILING_OF, benchTargets, type Protocol } from './targets.js';
import { ensureLoadTools } from './tools.js';
import { WRK_CONNECTIONS, WRK_THREADS, writeWrkScript } from './wrk.js';

const RESULTS = fileURLToPath(new URL('../../native-bench/results/latest.json', import.meta.url));

interface Options {
  seconds: number;
  rounds: number;
  protocols: Protocol[];
  httpWorkers: number;
}

function options(): Options {
  const { values } = parseArgs({
    options: {
      duration: { type: 'string', default: '8' },
      rounds: { type: 'string', default: '3' },
      only: { type: 'string' },
      'http-workers': { type: 'string', default: String(DEFAULT_SERVICE_HTTP_WORKERS) },
    },
  });
  const seconds = Number(values.duration);
  const rounds = Number(values.rounds);
  const httpWorkers = Number(values['http-workers']);
  const only = values.only;
  const valid =
    Number.isInteger(seconds) && seconds >= 1 && Number.isInteger(rounds) && rounds >= 1 && Number.isInteger(httpWorkers) && httpWorkers >= 0 &&
    (only === undefined || only === 'http' || only === 'grpc');
  if (!valid) throw new Error('usage: native-bench [--duration SECONDS] [--rounds N] [--only http|grpc] [--http-workers N]');
  return { seconds, rounds, protocols: only === undefined ? ['http', 'grpc'] : [only], httpWorkers };
}

/**
 * This machine's throughput drifts by a third within minutes (shared cores), so every target is
 * measured in several rounds, ceilings and service interleaved, and each row keeps the round with
 * its median maximum rate. The ratios then compare like with like.
 */
function medianRows(rounds: Row[][]): Row[] {
  const first = rounds[0] ?? [];
  return first.map((row) => {
    const samples = rounds.map((round) => round.find((r) => r.id === row.id)).filter((r): r is Row => r !== undefined);
    const measured = samples.filter((r) => r.status === 'measured' && r.max !== undefined);
    if (measured.length === 0) return samples.find((r) => r.status === 'failed') ?? row;
    const sorted = [...measured].sort((a, b) => (a.max?.reqPerSec ?? 0) - (b.max?.reqPerSec ?? 0));
    const median = sorted[Math.floor((sorted.length - 1) / 2)] as Row;
    const failed = samples.find((r) => r.status === 'failed');
    return {
      ...median,
      roundsReqPerSec: measured.map((r) => Math.round(r.max?.reqPerSec ?? 0)),
      roundsCpuUsPerRequest: measured.flatMap((r) => (r.max?.cpuUsPerRequest === undefined ? [] : [Math.round(r.max.cpuUsPerRequest * 100) / 100])),
      ...(failed === undefined ? {} : { status: 'failed' as const, note: failed.note }),
    };
  });
}

async function workspace(dir: string): Promise<Workspace> {
  const grpcFrame = grpcRequestFrame();
  const ws = { dir, bodyFile: join(dir, 'body.json'), grpcFrameFile: join(dir, 'grpc-request.bin'), grpcFrame, wrkScript: await writeWrkScript(dir, BENCH_BODY) };
  await writeFile(ws.bodyFile, BENCH_BODY);
  await writeFile(ws.grpcFrameFile, grpcFrame);
  return ws;
}

async function measureTargets(ws: Workspace, configEnv: Record<string, string>, { protocols, seconds, httpWorkers }: Options): Promise<Row[]> {
  const rows: Row[] = [];
  for (const target of benchTargets(configEnv, httpWorkers)) {
    const wanted = target.protocols.filter((p) => protocols.includes(p));
    if (wanted.length === 0) continue;
    const rowOf = (protocol: Protocol): Row => ({
      id: `${target.id}-${protocol}`, targetId: target.id, target: target.name, protocol, status: 'measured', ceilingId: `${CEILING_OF[protocol]}-${protocol}`,
    });
    if (target.skipReason !== undefined) {
      for (const p of wanted) rows.push({ ...rowOf(p), status: 'skipped', note: target.skipReason });
      console.log(`(${target.id}) ${target.name}: skipped, ${target.skipReason}`);
      continue;
    }
    console.log(`(${target.id}) ${target.name}: starting on CPU ${SERVER_CPUS}`);
    let running;
    try {
      running = await target.start();
    } catch (error) {
      for (const p of wanted) rows.push({ ...rowOf(p), status: 'failed', note: `did not start: ${(error as Error).message.split('\n')[0]}` });
      continue;
    }
    try {
      for (const protocol of wanted) {
        const row = rowOf(protocol);
        try {
          console.log(`(${target.id}) ${protocol}: max rate ${seconds} s, then half rate ${seconds} s`);
          Object.assign(row, await measure(ws, protocol, running.endpoints, seconds, row.id));
        } catch (error) {
          row.status = 'failed';
          row.note = (error as Error).message.split('\n')[0];
        }
        rows.push(row);
      }
    } finally {
      await running.stop();
    }
  }
  return rows;
}

async function main(): Promise<void> {
  const opts = options();
  const { seconds, rounds, protocols, httpWorkers } = opts;
  const fairness = fairnessNote(httpWorkers);
  const tools = await ensureLoadTools();
  const load = loadavg();
  console.log(`native-bench: ${fairness}; ${seconds} s per measurement; load average at start ${load.map((l) => l.toFixed(2)).join(' ')}`);
  if ((load[0] ?? 0) > 0.5) console.log('warning: 1-minute load average above 0.5 at start: other processes may be using the CPUs, figures may be lower and noisier');

  const dir = await mkdtemp(join(tmpdir(), 'native-bench-'));
  const config = await writeBenchConfig();
  try {
    const ws = await workspace(dir);
    const perRound: Row[][] = [];
    for (let round = 1; round <= rounds; round++) {
      console.log(`round ${round} of ${rounds}`);
      perRound.push(await measureTargets(ws, config.env, opts));
    }
    const rows = medianRows(perRound);
    fillRatios(rows);
    console.log('(m) embedded store: loading 1,000,000 keys in a fresh process');
    const memory = await measureStoreMemory(SERVER_CPUS).catch((error: Error) => ({ error: error.message.split('\n')[0] ?? '' }));
    const report: Report = {
      generatedAt: new Date().toISOString(),
      machine: { cpus: 2, node: process.version, kernel: release(), loadAverageAtStart: load, loadAverageAtEnd: loadavg(), ...tools },
      settings: {
        durationSeconds: seconds,
        rounds,
        protocols,
        serverCpus: SERVER_CPUS,
        loadGeneratorCpus: LOAD_CPUS,
        serviceHttpWorkers: httpWorkers,
        servicePoolThreads: 1,
        warmUpSeconds: WARM_UP_SECONDS,
        httpMax: `wrk -t${WRK_THREADS} -c${WRK_CONNECTIONS} (Lua script posting the body)`,
        httpHalf: `h2load --h1 -c${LATENCY_HTTP_CLIENTS} -m1 --rps=<half max / ${LATENCY_HTTP_CLIENTS}> --log-file`,
        grpcMax: `h2load -c${GRPC_CLIENTS} -m${GRPC_STREAMS} --log-file`,
        grpcHalf: `h2load -c${LATENCY_GRPC_CLIENTS} -m${LATENCY_GRPC_STREAMS} --rps=<half max / ${LATENCY_GRPC_CLIENTS}> --log-file`,
        requestBody: BENCH_BODY,
        limit: `${BENCH_LIMIT_PER_SECOND} per second (every answer should be 200)`,
      },
      rows,
      memory,
      notes: [
        fairness,
        `each row is the median of ${rounds} rounds by max req/s (all rounds in roundsReqPerSec of the JSON)`,
        'cpu us/req: the server process\'s user+system CPU time (all threads, /proc/<pid>/stat) during the max-rate run / requests; cpu ratio = ceiling\'s median cpu us/req / this row\'s, the same comparison in CPU time, which the shared host\'s slowdowns move less than req/s',
        'latencies in microseconds; ratio = median over rounds of (max req/s of the row / max req/s of its ceiling in the same round) (HTTP: a-http, gRPC: b-grpc); ratioOfMedians in the JSON',
        'HTTP max: wrk counts only non-2xx/3xx (not 200 vs 429), so its 200/429 columns are n/a; its errors = non-2xx/3xx + socket errors',
        'half-rate and gRPC: statuses from h2load --log-file per request; errors = statuses other than 200/429, failed streams, timeouts',
        'gRPC: h2load sees only HTTP :status; grpc-status and the reply body are checked by a probe before and after each run',
        'service rows add the service\'s own error counters (should_rate_limit.service_error + redis_error) to errors',
        'bare grpc-js uses identity serializers (no protobuf decode; pre-encoded reply); the service decodes and encodes protobuf',
      ],
    };
    console.log('');
    console.log(renderTable(report));
    console.log('');
    for (const note of report.notes) console.log(`- ${note}`);
    console.log(`- load average at end ${loadavg().map((l) => l.toFixed(2)).join(' ')} (at start ${load.map((l) => l.toFixed(2)).join(' ')})`);
    await writeReport(RESULTS, report);
    console.log(`\nJSON: ${RESULTS}`);
    if (rows.some((r) => r.status === 'failed' || (r.max?.errors ?? 0) > 0 || (r.half?.errors ?? 0) > 0) || 'error' in memory) process.exitCode = 1;
  } finally {
    await config.remove();
    await rm(dir, { recursive: true, force: true });
  }
}

await main();
