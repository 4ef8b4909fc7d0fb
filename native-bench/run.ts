/**
 * `npm run native-bench [-- --duration 8 --rounds 3 --only http|grpc --http-workers 0 --targets a,b,d,g,h,p]`: in one run on this machine,
 * measures the bare-server ceilings and the service with wrk and h2load, then the embedded
 * store's memory per key, and prints one table (also written to results/latest.json).
 * See README.md for what each row means and the fairness rules.
 */
import { writeFile } from 'node:fs/promises';
import { loadavg, release } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { BENCH_BODY, BENCH_LIMIT_PER_SECOND } from '../bench/bench-request.js';
import { writeBenchConfig } from '../bench/bench-fixture.js';
import { makeTempDir } from '../test/support/temp-dir.js';
import { DEFAULT_SERVICE_HTTP_WORKERS, fairnessNote, GRPC_CLIENTS, GRPC_STREAMS, LATENCY_GRPC_CLIENTS, LATENCY_GRPC_STREAMS, LATENCY_HTTP_CLIENTS, LOAD_CPUS, SERVER_CPUS, WARM_UP_SECONDS } from './fairness.js';
import { comparedRows, peerComparison } from './comparisons.js';
import { grpcRequestFrame } from './grpc-frame.js';
import { measure, type Workspace } from './measure.js';
import { fillRatios, medianRows, renderTable, writeReport, type Report, type Row } from './report.js';
import { measureStoreMemory } from './store-memory.js';
import { CEILING_OF, benchTargets, type Protocol, type RunningTarget } from './targets.js';
import { ensureLoadTools } from './tools.js';
import { WRK_CONNECTIONS, WRK_THREADS, writeWrkScript } from './wrk.js';

const RESULTS = fileURLToPath(new URL('../../native-bench/results/latest.json', import.meta.url));

interface Options {
  seconds: number;
  rounds: number;
  protocols: Protocol[];
  httpWorkers: number;
  /** Target ids to measure (`--targets a,d,g`); undefined: all. */
  targets: string[] | undefined;
}

function options(): Options {
  const { values } = parseArgs({
    options: {
      duration: { type: 'string', default: '8' },
      rounds: { type: 'string', default: '3' },
      only: { type: 'string' },
      'http-workers': { type: 'string', default: String(DEFAULT_SERVICE_HTTP_WORKERS) },
      targets: { type: 'string' },
    },
  });
  const targets = values.targets?.split(',').map((id) => id.trim());
  const seconds = Number(values.duration);
  const rounds = Number(values.rounds);
  const httpWorkers = Number(values['http-workers']);
  const only = values.only;
  const valid =
    Number.isInteger(seconds) && seconds >= 1 && Number.isInteger(rounds) && rounds >= 1 && Number.isInteger(httpWorkers) && httpWorkers >= 0 &&
    (only === undefined || only === 'http' || only === 'grpc');
  if (!valid) throw new Error('usage: native-bench [--duration SECONDS] [--rounds N] [--only http|grpc] [--http-workers N] [--targets a,b,d,g,h,p]');
  return { seconds, rounds, protocols: only === undefined ? ['http', 'grpc'] : [only], httpWorkers, targets };
}

async function workspace(dir: string): Promise<Workspace> {
  const grpcFrame = grpcRequestFrame();
  const ws = { dir, bodyFile: join(dir, 'body.json'), grpcFrameFile: join(dir, 'grpc-request.bin'), grpcFrame, wrkScript: await writeWrkScript(dir, BENCH_BODY) };
  await writeFile(ws.bodyFile, BENCH_BODY);
  await writeFile(ws.grpcFrameFile, grpcFrame);
  return ws;
}

/**
 * One round: every target in table order. The ceilings keep running (idle) until the round ends,
 * so each service row is followed at once by a fresh maximum-rate run of its ceiling.
 */
async function measureTargets(ws: Workspace, configEnv: Record<string, string>, { protocols, seconds, httpWorkers, targets }: Options): Promise<Row[]> {
  const rows: Row[] = [];
  const ceilings = new Map<string, RunningTarget>();
  try {
    for (const target of benchTargets(configEnv, httpWorkers)) {
      if (targets !== undefined && !targets.includes(target.id)) continue;
      const wanted = target.protocols.filter((p) => protocols.includes(p));
      if (wanted.length === 0) continue;
      const isCeiling = Object.values(CEILING_OF).includes(target.id);
      const rowOf = (protocol: Protocol): Row => ({
        id: `${target.id}-${protocol}`, targetId: target.id, target: target.name, protocol, status: 'measured', ceilingId: `${CEILING_OF[protocol]}-${protocol}`,
      });
      if (target.skipReason !== undefined) {
        for (const p of wanted) rows.push({ ...rowOf(p), status: 'skipped', note: target.skipReason });
        console.log(`(${target.id}) ${target.name}: skipped, ${target.skipReason}`);
        continue;
      }
      // A ceiling serves one protocol; a service process serves one too (a fresh one per
      // protocol), as beside Envoy, which asks over gRPC only. Served one after the other by one
      // process, gRPC cost 46-48 µs per call after 300,000 /json requests against 35-39 µs
      // without them (see native-bench/README.md, "One protocol per process").
      for (const protocols of isCeiling ? [wanted] : wanted.map((p) => [p])) {
        console.log(`(${target.id}) ${target.name}: starting on CPU ${SERVER_CPUS}${isCeiling ? '' : ` for ${protocols.join(', ')}`}`);
        let running: RunningTarget;
        try {
          running = await target.start();
        } catch (error) {
          for (const p of protocols) rows.push({ ...rowOf(p), status: 'failed', note: `did not start: ${(error as Error).message.split('\n')[0]}` });
          continue;
        }
        try {
          for (const protocol of protocols) rows.push(await measureRow(ws, rowOf(protocol), running, isCeiling ? undefined : ceilings.get(CEILING_OF[protocol]), seconds));
        } finally {
          if (isCeiling) ceilings.set(target.id, running);
          else await running.stop();
        }
      }
    }
  } finally {
    for (const ceiling of ceilings.values()) await ceiling.stop();
  }
  return rows;
}

async function measureRow(ws: Workspace, row: Row, running: RunningTarget, ceiling: RunningTarget | undefined, seconds: number): Promise<Row> {
  const protocol = row.protocol;
  try {
    console.log(`(${row.targetId}) ${protocol}: max rate ${seconds} s${ceiling === undefined ? '' : `, ceiling ${CEILING_OF[protocol]} again ${seconds} s`}, then half rate ${seconds} s`);
    Object.assign(row, await measure(ws, protocol, running.endpoints, seconds, row.id, ceiling?.endpoints));
  } catch (error) {
    row.status = 'failed';
    row.note = (error as Error).message.split('\n')[0];
  }
  return row;
}

async function main(): Promise<void> {
  const opts = options();
  const { seconds, rounds, protocols, httpWorkers } = opts;
  const fairness = fairnessNote(httpWorkers);
  const tools = await ensureLoadTools();
  const load = loadavg();
  console.log(`native-bench: ${fairness}; ${seconds} s per measurement; load average at start ${load.map((l) => l.toFixed(2)).join(' ')}`);
  if ((load[0] ?? 0) > 0.5) console.log('warning: 1-minute load average above 0.5 at start: other processes may be using the CPUs, figures may be lower and noisier');

  const dir = await makeTempDir('native-bench-');
  const config = await writeBenchConfig();
  try {
    const ws = await workspace(dir.path);
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
        'cpu us/req: the server process\'s user+system CPU time (all threads, /proc/<pid>/stat) during the max-rate run / requests; cpu ratio = median over rounds of (the paired ceiling run\'s cpu us/req / this row\'s), the same comparison in CPU time, which the shared host\'s slowdowns move less than req/s',
        'latencies in microseconds; ratio = median over rounds of (max req/s of the row / max req/s of its ceiling run right after it, on the same still-running ceiling process: HTTP a-http, gRPC b-grpc); the ceiling rows show their own first run of each round; ratioOfMedians in the JSON',
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
    for (const line of comparedRows(rows)) console.log(line);
    const peer = peerComparison(rows);
    if (peer !== undefined) console.log(peer);
    for (const note of report.notes) console.log(`- ${note}`);
    console.log(`- load average at end ${loadavg().map((l) => l.toFixed(2)).join(' ')} (at start ${load.map((l) => l.toFixed(2)).join(' ')})`);
    await writeReport(RESULTS, report);
    console.log(`\nJSON: ${RESULTS}`);
    if (rows.some((r) => r.status === 'failed' || (r.max?.errors ?? 0) > 0 || (r.half?.errors ?? 0) > 0 || (r.pairedCeiling?.errors ?? 0) > 0) || 'error' in memory) process.exitCode = 1;
  } finally {
    await config.remove();
    await dir.remove();
  }
}

await main();
