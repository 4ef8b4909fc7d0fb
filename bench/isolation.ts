/**
 * `npm run bench:isolation [-- --seconds 8]`: whether the alert and score APIs can slow the rate
 * limit decisions beside them. `/json` runs at half its maximum rate (h2load, fixed rate, every
 * request logged) alone and then while each hostile load of bench/hostile-loads.ts runs; the table
 * gives p99 and the slowest request of each, as ratios to the run alone. Goal: every ratio at most
 * 1.5 and no request over 50 ms.
 *
 * `--layout defaults` (the default) runs the service as deployed, free on both cores; `--layout
 * one-core` pins it to CPU 0 with HTTP_WORKERS=0. h2load and the hostile clients (this process)
 * run on CPU 1.
 */
import { execFileSync } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { Worker } from 'node:worker_threads';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { runH2load } from '../native-bench/h2load.js';
import type { Measurement } from '../native-bench/measurement.js';
import { ensureLoadTools } from '../native-bench/tools.js';
import { runWrk, writeWrkScript } from '../native-bench/wrk.js';
import { makeTempDir } from '../test/support/temp-dir.js';
import { BENCH_BODY } from './bench-request.js';
import { startBenchService, writeBenchConfig } from './bench-fixture.js';
import type { HostileCommand, HostileReport, HostileWorkerData } from './hostile-worker.js';

/**
 * Where the service runs. `defaults`: as deployed, every setting at its default (an HTTP thread
 * per core, the API thread niced), free to use both cores, which it shares with the load as a
 * sidecar shares its host. `one-core`: pinned to CPU 0 with HTTP_WORKERS=0, so decisions, the
 * front's share of the other APIs, the API thread and its render and audio processes all take
 * turns on one core: the harshest case.
 */
const LAYOUTS = {
  defaults: { env: {}, cpus: undefined, says: 'service at its defaults, on both cores' },
  'one-core': { env: { HTTP_WORKERS: '0' }, cpus: '0', says: 'service pinned to CPU 0 with HTTP_WORKERS=0' },
} as const;
const LOAD_CPUS = '1';
const ADMIN_TOKEN = 'isolation-bench-admin-token-0123456789abcdef';
/** Let a load reach its steady state before the measurement starts. */
const WARM_UP_MS = 2000;
const CLIENTS = 8;

interface Row {
  name: string;
  p99Us: number;
  maxUs: number;
  rounds: number | undefined;
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { seconds: { type: 'string', default: '8' }, layout: { type: 'string', default: 'defaults' } } });
  const seconds = Number(values.seconds);
  const layout = LAYOUTS[values.layout as keyof typeof LAYOUTS];
  if (layout === undefined) throw new Error(`--layout is one of ${Object.keys(LAYOUTS).join(', ')}`);
  await ensureLoadTools();
  // The hostile clients are this process (a niced thread of it): on the load generator's CPU.
  execFileSync('taskset', ['-a', '-p', '-c', LOAD_CPUS, String(process.pid)], { stdio: 'ignore' });
  const temp = await makeTempDir('bench-isolation-');
  const rules = await writeBenchConfig();
  const service = await startBenchService({ ...rules.env, ...layout.env, DATA_DIR: join(temp.path, 'data'), SCORES_ADMIN_TOKEN: ADMIN_TOKEN }, layout.cpus);
  try {
    const base = service.baseUrl;
    const token = await issueToken(base);
    const script = await writeWrkScript(temp.path, BENCH_BODY);
    const bodyFile = join(temp.path, 'body.json');
    await writeFile(bodyFile, BENCH_BODY);
    await runWrk(`${base}/json`, script, 3, LOAD_CPUS);
    const max = await runWrk(`${base}/json`, script, 5, LOAD_CPUS);
    const halfRate = (log: string): Promise<Measurement> =>
      runH2load({ url: `${base}/json`, dataFile: bodyFile, headers: ['content-type: application/json'], h1: true, clients: CLIENTS, streams: 1, seconds, rpsPerClient: max.reqPerSec / 2 / CLIENTS, logFile: join(temp.path, log), cpus: LOAD_CPUS });

    const data: HostileWorkerData = { base, token, host: '127.0.0.1', port: service.httpPort as number };
    const hostile = new HostileThread(new Worker(new URL('./hostile-worker.js', import.meta.url), { workerData: data }));
    const names = await hostile.names;
    console.log(`${layout.says}; h2load and the hostile clients (a thread at nice 19) on CPU ${LOAD_CPUS}`);
    console.log(`/json maximum ${Math.round(max.reqPerSec)} req/s (wrk); measured at ${Math.round(max.reqPerSec / 2)} req/s for ${seconds} s each\n`);
    const rows: Row[] = [];
    const alone = await halfRate('alone.tsv');
    rows.push({ name: '/json alone', p99Us: alone.p99Us, maxUs: alone.maxUs ?? Number.NaN, rounds: undefined });
    for (const [i, name] of names.entries()) {
      await hostile.ask({ type: 'prepare', load: i });
      await hostile.ask({ type: 'start', load: i });
      await new Promise((resolve) => setTimeout(resolve, WARM_UP_MS));
      const loaded = await halfRate(`load-${i}.tsv`);
      const stopped = await hostile.ask({ type: 'stop' });
      rows.push({ name, p99Us: loaded.p99Us, maxUs: loaded.maxUs ?? Number.NaN, rounds: stopped.type === 'stopped' ? stopped.rounds : undefined });
      if (loaded.errors > 0) console.log(`  (${name}: ${loaded.errors} /json requests failed: ${JSON.stringify(loaded.errorDetail)})`);
    }
    await hostile.close();
    const again = await halfRate('alone-again.tsv');
    rows.push({ name: '/json alone, again', p99Us: again.p99Us, maxUs: again.maxUs ?? Number.NaN, rounds: undefined });
    printTable(rows, alone);
  } finally {
    await service.stop();
    await rules.remove();
    await temp.remove();
  }
}

/** The hostile loads' thread: one command at a time, each answered by one report. */
class HostileThread {
  readonly names: Promise<string[]>;

  constructor(private readonly worker: Worker) {
    this.names = this.next().then((report) => (report.type === 'names' ? report.names : []));
  }

  private next(): Promise<HostileReport> {
    return new Promise((resolve, reject) => {
      const failed = (error: Error) => reject(error);
      this.worker.once('error', failed);
      this.worker.once('message', (report: HostileReport) => {
        this.worker.off('error', failed);
        if (report.type === 'failed') reject(new Error(report.message));
        else resolve(report);
      });
    });
  }

  ask(command: HostileCommand): Promise<HostileReport> {
    const answer = this.next();
    this.worker.postMessage(command);
    return answer;
  }

  async close(): Promise<void> {
    await this.worker.terminate();
  }
}

async function issueToken(base: string): Promise<string> {
  const answer = await fetch(`${base}/v2/admin/tokens`, {
    method: 'POST',
    headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'bench', scopes: ['scores'] }),
  });
  const body = (await answer.json()) as { token?: string };
  const token = body.token;
  if (token === undefined) throw new Error(`no token from /v2/admin/tokens: ${JSON.stringify(body)}`);
  return token;
}

function printTable(rows: readonly Row[], alone: Measurement): void {
  const ms = (us: number) => (us / 1000).toFixed(2);
  const ratio = (value: number, base: number) => (value / base).toFixed(2);
  console.log('| /json at half rate, while | p99 ms | max ms | p99 ratio | max ratio | load rounds |');
  console.log('|---|---|---|---|---|---|');
  for (const row of rows) {
    console.log(`| ${row.name} | ${ms(row.p99Us)} | ${ms(row.maxUs)} | ${ratio(row.p99Us, alone.p99Us)} | ${ratio(row.maxUs, alone.maxUs ?? Number.NaN)} | ${row.rounds ?? ''} |`);
  }
  const loaded = rows.slice(1, -1);
  const worstP99 = Math.max(...loaded.map((r) => r.p99Us / alone.p99Us));
  const worstMax = Math.max(...loaded.map((r) => r.maxUs));
  console.log(`\nworst p99 ratio ${worstP99.toFixed(2)} (goal at most 1.5); slowest request ${ms(worstMax)} ms (goal under 50 ms)`);
}

await main();
