/**
 * `npm run native-bench [-- --duration 10 --only http|grpc]`: in one run on this machine,
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
import { FAIRNESS_NOTE, GRPC_CLIENTS, GRPC_STREAMS, LOAD_CPUS, SERVER_CPUS, SERVICE_HTTP_WORKERS, WARM_UP_SECONDS } from './fairness.js';
import { grpcRequestFrame } from './grpc-frame.js';
import { measure, type Workspace } from './measure.js';
import { fillRatios, renderTable, writeReport, type Report, type Row } from './report.js';
import { measureStoreMemory } from './store-memory.js';
import { CEILING_OF, benchTargets, type Protocol } from './targets.js';
import { ensureLoadTools } from './tools.js';
import { WRK_CONNECTIONS, WRK_THREADS, writeWrkScript } from './wrk.js';

const RESULTS = fileURLToPath(new URL('../../native-bench/results/latest.json', import.meta.url));

function options(): { seconds: number; protocols: Protocol[] } {
  const { values } = parseArgs({ options: { duration: { type: 'string', default: '10' }, only: { type: 'string' } } });
  const seconds = Number(values.duration);
  const only = values.only;
  if (!Number.isInteger(seconds) || seconds < 1 || (only !== undefined && only !== 'http' && only !== 'grpc')) {
    throw new Error('usage: native-bench [--duration SECONDS] [--only http|grpc]');
  }
  return { seconds, protocols: only === undefined ? ['http', 'grpc'] : [only] };
}

async function workspace(dir: string): Promise<Workspace> {
  const grpcFrame = grpcRequestFrame();
  const ws = { dir, bodyFile: join(dir, 'body.json'), grpcFrameFile: join(dir, 'grpc-request.bin'), grpcFrame, wrkScript: await writeWrkScript(dir, BENCH_BODY) };
  await writeFile(ws.bodyFile, BENCH_BODY);
  await writeFile(ws.grpcFrameFile, grpcFrame);
  return ws;
}

async function measureTargets(ws: Workspace, configEnv: Record<string, string>, protocols: Protocol[], seconds: number): Promise<Row[]> {
  const rows: Row[] = [];
  for (const target of benchTargets(configEnv)) {
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
  const { seconds, protocols } = options();
  const tools = await ensureLoadTools();
  const load = loadavg();
  console.log(`native-bench: ${FAIRNESS_NOTE}; ${seconds} s per measurement; load average at start ${load.map((l) => l.toFixed(2)).join(' ')}`);
  if ((load[0] ?? 0) > 0.5) console.log('warning: 1-minute load average above 0.5 at start: other processes may be using the CPUs, figures may be lower and noisier');

  const dir = await mkdtemp(join(tmpdir(), 'native-bench-'));
  const config = await writeBenchConfig();
  try {
    const ws = await workspace(dir);
    const rows = await measureTargets(ws, config.env, protocols, seconds);
    fillRatios(rows);
    console.log('(m) embedded store: loading 1,000,000 keys in a fresh process');
    const memory = await measureStoreMemory(SERVER_CPUS).catch((error: Error) => ({ error: error.message.split('\n')[0] ?? '' }));
    const report: Report = {
      generatedAt: new Date().toISOString(),
      machine: { cpus: 2, node: process.version, kernel: release(), loadAverageAtStart: load, loadAverageAtEnd: loadavg(), ...tools },
      settings: {
        durationSeconds: seconds,
        protocols,
        serverCpus: SERVER_CPUS,
        loadGeneratorCpus: LOAD_CPUS,
        serviceHttpWorkers: Number(SERVICE_HTTP_WORKERS),
        servicePoolThreads: 1,
        warmUpSeconds: WARM_UP_SECONDS,
        httpMax: `wrk -t${WRK_THREADS} -c${WRK_CONNECTIONS} (Lua script posting the body)`,
        httpHalf: `h2load --h1 -c${WRK_CONNECTIONS} -m1 --rps=<half max / ${WRK_CONNECTIONS}> --log-file`,
        grpcMax: `h2load -c${GRPC_CLIENTS} -m${GRPC_STREAMS} --log-file`,
        grpcHalf: `h2load -c${GRPC_CLIENTS} -m${GRPC_STREAMS} --rps=<half max / ${GRPC_CLIENTS}> --log-file`,
        requestBody: BENCH_BODY,
        limit: `${BENCH_LIMIT_PER_SECOND} per second (every answer should be 200)`,
      },
      rows,
      memory,
      notes: [
        FAIRNESS_NOTE,
        'latencies in microseconds; ratio = max req/s of the row / max req/s of its ceiling (HTTP: a-http, gRPC: b-grpc)',
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
