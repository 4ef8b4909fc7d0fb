/**
 * `npm run bench:alerts [-- --alerts 10000 --silences 1000 --big 100000]`: the alert API beside
 * a real Alertmanager 0.25 (Debian's), in one run, same configuration, same requests. Both servers
 * run pinned to CPU 0; this process (the client) and the load tools run on CPU 1.
 *
 * 1. Ingest: `--alerts` alerts in POSTs of 100, four in flight: alerts per second.
 * 2. Reads with those alerts and `--silences` silences: median time of GET /alerts and of
 *    GET /alerts/groups over 10 requests each.
 * 3. `--big` alerts: ingest time, GET /alerts time, and each server's RSS.
 * 4. Priority (service only): `/json` p99 at half its maximum rate, alone and while the alert API
 *    answers GET /alerts/groups as fast as it can; the ratio of the two.
 */
import { readFile, writeFile } from 'node:fs/promises';
import http from 'node:http';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { startRealAlertmanager } from '../test/support/real-alertmanager.js';
import { httpRequest } from '../test/support/service-harness.js';
import { Teardowns } from '../test/support/teardown.js';
import { makeTempDir } from '../test/support/temp-dir.js';
import { runH2load } from '../native-bench/h2load.js';
import { ensureLoadTools } from '../native-bench/tools.js';
import { runWrk, writeWrkScript } from '../native-bench/wrk.js';
import { BENCH_BODY, startBenchService, writeBenchConfig } from './bench-fixture.js';

const SERVER_CPUS = '0';
const LOAD_CPUS = '1';
const BATCH = 100;
const IN_FLIGHT = 4;

const CONFIG = `global:
  resolve_timeout: 5m
route:
  receiver: default
  group_by: [alertname, team]
  routes:
    - receiver: team-a
      matchers: ['team="a"']
      continue: true
    - receiver: critical
      matchers: ['severity="critical"']
inhibit_rules:
  - source_matchers: ['severity="critical"']
    target_matchers: ['severity="warning"']
    equal: [alertname]
receivers:
  - name: default
  - name: team-a
  - name: critical
`;

interface Target {
  name: string;
  url: string;
  pid: number;
}

function alertsFrom(start: number, count: number): unknown[] {
  const hour = new Date(Date.now() + 3_600_000).toISOString();
  return Array.from({ length: count }, (_, k) => {
    const i = start + k;
    return {
      labels: { alertname: `alert-${i % 50}`, team: ['a', 'b', 'c', 'd'][i % 4], severity: i % 10 === 0 ? 'critical' : 'warning', instance: `host-${i}` },
      annotations: { summary: `alert number ${i}` },
      endsAt: hour,
    };
  });
}

async function post(url: string, path: string, body: unknown): Promise<void> {
  const res = await httpRequest(`${url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: typeof body === 'string' ? body : JSON.stringify(body) });
  if (res.status !== 200) throw new Error(`${url}${path}: ${res.status} ${res.text.slice(0, 200)}`);
}

/**
 * Posts `total` alerts in batches of BATCH, IN_FLIGHT at a time; returns alerts per second. The
 * bodies are built before the clock starts, so the client's own work is not in the figure.
 */
async function ingest(target: Target, offset: number, total: number): Promise<number> {
  const bodies: string[] = [];
  for (let at = 0; at < total; at += BATCH) bodies.push(JSON.stringify(alertsFrom(offset + at, Math.min(BATCH, total - at))));
  const started = performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: IN_FLIGHT }, async () => {
      while (next < bodies.length) await post(target.url, '/api/v2/alerts', bodies[next++] as string);
    }),
  );
  return total / ((performance.now() - started) / 1000);
}

async function silence(target: Target, count: number): Promise<void> {
  for (let i = 0; i < count; i++) {
    await post(target.url, '/api/v2/silences', {
      matchers: [{ name: 'instance', value: `host-${i * 7}`, isRegex: false }],
      startsAt: new Date().toISOString(),
      endsAt: new Date(Date.now() + 3_600_000).toISOString(),
      createdBy: 'bench',
      comment: `silence ${i}`,
    });
  }
}

/** A GET with no timeout (Alertmanager takes minutes for some of these): status and body size. */
function getAll(url: string): Promise<{ status: number; bytes: number }> {
  return new Promise((resolve, reject) => {
    http
      .get(url, (res) => {
        let bytes = 0;
        res.on('data', (chunk: Buffer) => (bytes += chunk.length));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, bytes }));
        res.on('error', reject);
      })
      .on('error', reject);
  });
}

/** Median wall time of `runs` GETs of `path`, in milliseconds, and the size of the last answer. */
async function timeGet(target: Target, path: string, runs = 5): Promise<{ ms: number; bytes: number }> {
  const times: number[] = [];
  let bytes = 0;
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    const res = await getAll(`${target.url}${path}`);
    times.push(performance.now() - started);
    bytes = res.bytes;
    if (res.status !== 200) throw new Error(`${path}: ${res.status}`);
  }
  times.sort((a, b) => a - b);
  return { ms: times[Math.floor(times.length / 2)] as number, bytes };
}

async function rssMiB(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1]) / 1024;
}

async function readsAndIngest(targets: readonly Target[], alerts: number, silences: number): Promise<Array<Record<string, number>>> {
  const rows: Array<Record<string, number>> = [];
  for (const target of targets) {
    const alertsPerSec = await ingest(target, 0, alerts);
    await silence(target, silences);
    const list = await timeGet(target, '/api/v2/alerts');
    const groups = await timeGet(target, '/api/v2/alerts/groups');
    rows.push({ alertsPerSec, listMs: list.ms, listBytes: list.bytes, groupsMs: groups.ms, groupsBytes: groups.bytes });
    console.log(`${target.name.padEnd(22)} ingest ${Math.round(alertsPerSec)} alerts/s; GET /alerts ${list.ms.toFixed(1)} ms (${list.bytes} B); GET /alerts/groups ${groups.ms.toFixed(1)} ms (${groups.bytes} B)`);
  }
  return rows;
}

async function big(targets: readonly Target[], total: number, offset: number): Promise<void> {
  for (const target of targets) {
    const started = performance.now();
    await ingest(target, offset, total);
    const seconds = (performance.now() - started) / 1000;
    const list = await timeGet(target, '/api/v2/alerts', 3);
    const groups = await timeGet(target, '/api/v2/alerts/groups', 3);
    console.log(`${target.name.padEnd(22)} +${total} alerts in ${seconds.toFixed(1)} s; GET /alerts ${list.ms.toFixed(0)} ms (${(list.bytes / 1e6).toFixed(1)} MB); groups ${groups.ms.toFixed(0)} ms; RSS ${(await rssMiB(target.pid)).toFixed(0)} MiB`);
  }
}

/** /json p99 at half its maximum rate, without and with the alert API busy. */
async function priority(service: Target, dir: string): Promise<void> {
  const script = await writeWrkScript(dir, BENCH_BODY);
  const bodyFile = join(dir, 'body.json');
  await writeFile(bodyFile, BENCH_BODY);
  const jsonUrl = `${service.url}/json`;
  await runWrk(jsonUrl, script, 3, LOAD_CPUS);
  const max = await runWrk(jsonUrl, script, 5, LOAD_CPUS);
  const clients = 8;
  const half = (logFile: string) =>
    runH2load({ url: jsonUrl, dataFile: bodyFile, headers: ['content-type: application/json'], h1: true, clients, streams: 1, seconds: 8, rpsPerClient: max.reqPerSec / 2 / clients, logFile: join(dir, logFile), cpus: LOAD_CPUS });
  const alone = await half('alone.tsv');
  let busy = true;
  let reads = 0;
  const load = (async () => {
    while (busy) {
      await getAll(`${service.url}/api/v2/alerts/groups`);
      reads++;
    }
  })();
  const loaded = await half('loaded.tsv');
  busy = false;
  await load;
  console.log(`/json max ${Math.round(max.reqPerSec)} req/s; p99 at half rate: ${alone.p99Us} us alone, ${loaded.p99Us} us while the alert API served ${reads} GET /alerts/groups; ratio ${(loaded.p99Us / alone.p99Us).toFixed(2)} (goal at most 1.5)`);
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { alerts: { type: 'string', default: '10000' }, silences: { type: 'string', default: '1000' }, big: { type: 'string', default: '100000' } } });
  const alerts = Number(values.alerts);
  await ensureLoadTools();
  const teardown = new Teardowns();
  const temp = await makeTempDir('bench-alerts-');
  try {
    const configFile = join(temp.path, 'alertmanager.yml');
    await writeFile(configFile, CONFIG);
    const rules = await writeBenchConfig();
    teardown.teardown(() => rules.remove());
    const service = await startBenchService({ ...rules.env, HTTP_WORKERS: '0', ALERTMANAGER_CONFIG: configFile, DATA_DIR: join(temp.path, 'data'), ALERTMANAGER_MAX_ALERTS_PER_REQUEST: '1000' }, SERVER_CPUS);
    teardown.teardown(() => service.stop());
    const real = await startRealAlertmanager(teardown, { config: CONFIG, cpus: SERVER_CPUS });
    const targets: Target[] = [
      { name: 'service', url: service.baseUrl, pid: service.child.pid as number },
      { name: 'alertmanager 0.25', url: real.url, pid: real.process.child.pid as number },
    ];
    console.log(`both servers pinned to CPU ${SERVER_CPUS}; client on CPU ${LOAD_CPUS}; ${alerts} alerts in posts of ${BATCH} (${IN_FLIGHT} in flight), ${values.silences} silences`);
    const [ours, theirs] = await readsAndIngest(targets, alerts, Number(values.silences));
    if (ours !== undefined && theirs !== undefined) {
      console.log(`ingest ${(ours['alertsPerSec']! / theirs['alertsPerSec']!).toFixed(2)}x Alertmanager's alerts/s (goal 2x); GET /alerts ${(ours['listMs']! / theirs['listMs']!).toFixed(2)} of its time, groups ${(ours['groupsMs']! / theirs['groupsMs']!).toFixed(2)} (goal 1/7 = 0.14 each)`);
    }
    await big(targets, Number(values.big), alerts);
    await priority(targets[0] as Target, temp.path);
  } finally {
    await teardown.run();
    await temp.remove();
  }
}

await main();
