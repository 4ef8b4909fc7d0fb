/**
 * `npm run bench:alerts [-- --alerts 10000 --silences 1000 --big 100000 --only notifications|unpinned|priority]`: the alert API beside
 * a real Alertmanager 0.25 (Debian's), in one run, same configuration, same requests. Both servers
 * run pinned to CPU 0; this process (the client) and the load tools run on CPU 1.
 *
 * 1. Ingest: `--alerts` alerts in POSTs of 100, four in flight, after a warm-up of 20,000
 *    resolved alerts: alerts per second by kind (resolved, new firing, the same firing alerts
 *    re-sent), each the median of its rounds.
 * 2. Reads with those alerts and `--silences` silences: median time of GET /alerts and of
 *    GET /alerts/groups over 10 requests each.
 * 3. `--big` alerts into a fresh pair of servers: ingest time, GET /alerts time, and each
 *    server's RSS before and after.
 * 4. Priority (service only, holding the `--big` alerts): `/json` p99 at half its maximum rate, alone and while the alert API
 *    answers GET /alerts/groups as fast as it can; the ratio of the two.
 * 5. Notifications (`--only notifications`): how late webhooks arrive after their groups come due.
 * 6. Unpinned (`--only unpinned`): 1 and 2 as users run both servers, free on every core; then
 *    `/json` p99 while alerts are posted round after round, and the same p99 while the client
 *    posts as many rounds to a server that discards them (the host's share of the ratio); then
 *    the same `/json` measure with the alert API on API_PORT, a front thread of its own.
 *    `--only priority` runs these `/json` measures alone, without Alertmanager.
 */
import { readFile, writeFile } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { startRealAlertmanager } from '../test/support/real-alertmanager.js';
import { Teardowns } from '../test/support/teardown.js';
import { makeTempDir } from '../test/support/temp-dir.js';
import { ensureLoadTools } from '../native-bench/tools.js';
import { startBenchService, writeBenchConfig } from './bench-fixture.js';
import { startDiscardServer } from './discard-server.js';
import { jsonP99WhileBusy } from './json-priority.js';

const SERVER_CPUS = '0';
const LOAD_CPUS = '1';
const BATCH = 100;
const IN_FLIGHT = 4;
const WARM_UP_ALERTS = 20_000;
/** Label sets of the new alerts that end before the reads, apart from every other round's. */
const ENDED_FROM = 10_000_000;
/**
 * Rounds per ingest kind, of which the median counts. A round of 10,000 alerts takes 50-200 ms,
 * and unpinned, beside the client on two cores, rounds of one run read 88k to 187k alerts/s:
 * three rounds left the median to chance.
 */
const INGEST_ROUNDS = 7;

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
  /** Where its alert API is. */
  url: string;
  pid: number;
  /** Where it decides, when not at `url` (the service with API_PORT). */
  jsonUrl?: string;
}

/** When the firing alerts began: Prometheus sends each alert's start, the same at every evaluation. */
const FIRING_SINCE = new Date(Date.now() - 600_000).toISOString();

/**
 * Firing alerts; alerts that ended a minute ago (`resolved`, label sets of their own: taken, never
 * listed); or firing alerts of the same label sets now ended (`ended`).
 */
type AlertState = 'firing' | 'resolved' | 'ended';

function alertsFrom(start: number, count: number, state: AlertState = 'firing'): unknown[] {
  const endsAt = new Date(Date.now() + (state === 'firing' ? 3_600_000 : -60_000)).toISOString();
  return Array.from({ length: count }, (_, k) => {
    const i = start + k;
    return {
      labels: { alertname: `alert-${i % 50}`, team: ['a', 'b', 'c', 'd'][i % 4], severity: i % 10 === 0 ? 'critical' : 'warning', instance: `host-${i}`, ...(state === 'resolved' ? { phase: 'warm-up' } : {}) },
      annotations: { summary: `alert number ${i}` },
      startsAt: state === 'resolved' ? new Date(Date.now() - 120_000).toISOString() : FIRING_SINCE,
      endsAt,
    };
  });
}

/** Posts in flight when the servers run as users run them (unpinned). */
const UNPINNED_IN_FLIGHT = 8;
/** Keep-alive connections, at most as many as posts in flight: fetch spends about a millisecond of the client's CPU per 15 KB POST, node:http much less. */
const agent = new http.Agent({ keepAlive: true, maxSockets: UNPINNED_IN_FLIGHT });

function post(url: string, path: string, body: string | Buffer): Promise<void> {
  return new Promise((resolve, reject) => {
    const request = http.request(`${url}${path}`, { method: 'POST', agent, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => (res.statusCode === 200 ? resolve() : reject(new Error(`${url}${path}: ${res.statusCode} ${text.slice(0, 200)}`))));
    });
    request.on('error', reject);
    request.end(body);
  });
}

/**
 * Posts `total` alerts in batches of BATCH, IN_FLIGHT at a time; returns alerts per second. The
 * bodies are built before the clock starts, so the client's own work is not in the figure.
 */
async function ingest(target: Target, offset: number, total: number, state: AlertState = 'firing', inFlight = IN_FLIGHT): Promise<number> {
  const bodies: Buffer[] = [];
  for (let at = 0; at < total; at += BATCH) bodies.push(Buffer.from(JSON.stringify(alertsFrom(offset + at, Math.min(BATCH, total - at), state))));
  const started = performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: inFlight }, async () => {
      while (next < bodies.length) await post(target.url, '/api/v2/alerts', bodies[next++] as Buffer);
    }),
  );
  return total / ((performance.now() - started) / 1000);
}

async function silence(target: Target, count: number): Promise<void> {
  for (let i = 0; i < count; i++) {
    const body = {
      matchers: [{ name: 'instance', value: `host-${i * 7}`, isRegex: false }],
      startsAt: new Date().toISOString(),
      endsAt: new Date(Date.now() + 3_600_000).toISOString(),
      createdBy: 'bench',
      comment: `silence ${i}`,
    };
    await post(target.url, '/api/v2/silences', JSON.stringify(body));
  }
}

/**
 * A GET: status and body size. `waitMs` bounds the wait for a first byte (Alertmanager takes
 * minutes over some of these); a GET that waited that long answers status 0.
 */
function getAll(url: string, waitMs = 0): Promise<{ status: number; bytes: number }> {
  return new Promise((resolve, reject) => {
    const request = http
      .get(url, (res) => {
        let bytes = 0;
        res.on('data', (chunk: Buffer) => (bytes += chunk.length));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, bytes }));
        res.on('error', reject);
      })
      .on('error', reject);
    if (waitMs > 0) {
      request.setTimeout(waitMs, () => {
        request.destroy();
        resolve({ status: 0, bytes: 0 });
      });
    }
  });
}

/** Median wall time of `runs` GETs of `path`, in milliseconds (Infinity past `waitMs`), and the size of the last answer. */
async function timeGet(target: Target, path: string, runs = 5, waitMs = 0): Promise<{ ms: number; bytes: number }> {
  const times: number[] = [];
  let bytes = 0;
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    const res = await getAll(`${target.url}${path}`, waitMs);
    if (res.status === 0) return { ms: Number.POSITIVE_INFINITY, bytes: 0 };
    times.push(performance.now() - started);
    bytes = res.bytes;
    if (res.status !== 200) throw new Error(`${path}: ${res.status}`);
  }
  times.sort((a, b) => a - b);
  return { ms: times[Math.floor(times.length / 2)] as number, bytes };
}

const BIG_GET_WAIT_MS = 120_000;

function formatMs(ms: number): string {
  return Number.isFinite(ms) ? `${ms.toFixed(0)} ms` : `over ${BIG_GET_WAIT_MS / 1000} s (given up)`;
}

async function rssMiB(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1]) / 1024;
}

/** The kinds of POST measured apart: each costs a server differently. */
const INGEST_KINDS = ['resolved', 'new', 'resent'] as const;
type IngestKind = (typeof INGEST_KINDS)[number];

const median = (values: readonly number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;

/**
 * Ingest by kind, then the reads. `resolved`: alerts that ended a minute ago, new label sets each
 * round (Prometheus re-sends resolved alerts for 15 minutes); `new`: firing alerts never seen,
 * one round, the alerts the reads list; `resent`: those same firing alerts again, as Prometheus
 * sends every firing alert at each evaluation. Each the median of INGEST_ROUNDS rounds; the new
 * alerts of every round but the first end before the reads, which list the first round's.
 */
async function readsAndIngest(targets: readonly Target[], alerts: number, silences: number, inFlight = IN_FLIGHT): Promise<Array<Record<string, number>>> {
  const rows: Array<Record<string, number>> = [];
  for (const target of targets) {
    // A JIT needs a few thousand requests to compile its hot paths; 100 POSTs alone would time the interpreter.
    await ingest(target, 0, WARM_UP_ALERTS, 'resolved', inFlight);
    // 100 POSTs take a tenth of a second, which one pause can move by a fifth: medians of INGEST_ROUNDS rounds.
    const rounds: Record<IngestKind, number[]> = { resolved: [], new: [], resent: [] };
    for (let round = 0; round < INGEST_ROUNDS; round++) rounds.resolved.push(await ingest(target, WARM_UP_ALERTS + round * alerts, alerts, 'resolved', inFlight));
    // The first round's alerts are the ones the reads list; the others end before the reads.
    for (let round = 0; round < INGEST_ROUNDS; round++) rounds.new.push(await ingest(target, round === 0 ? 0 : ENDED_FROM + round * alerts, alerts, 'firing', inFlight));
    for (let round = 1; round < INGEST_ROUNDS; round++) await ingest(target, ENDED_FROM + round * alerts, alerts, 'ended', inFlight);
    for (let round = 0; round < INGEST_ROUNDS; round++) rounds.resent.push(await ingest(target, 0, alerts, 'firing', inFlight));
    await silence(target, silences);
    const list = await timeGet(target, '/api/v2/alerts');
    const groups = await timeGet(target, '/api/v2/alerts/groups');
    const row: Record<string, number> = { listMs: list.ms, listBytes: list.bytes, groupsMs: groups.ms, groupsBytes: groups.bytes };
    for (const kind of INGEST_KINDS) row[kind] = median(rounds[kind]);
    rows.push(row);
    const ingested = INGEST_KINDS.map((kind) => `${kind} ${Math.round(row[kind] as number)} (${rounds[kind].map(Math.round).join(' / ')})`).join(', ');
    console.log(`${target.name.padEnd(22)} ingest alerts/s: ${ingested}; GET /alerts ${list.ms.toFixed(1)} ms (${list.bytes} B); GET /alerts/groups ${groups.ms.toFixed(1)} ms (${groups.bytes} B)`);
  }
  return rows;
}

/** The service against Alertmanager: ingest by kind, and both GETs. */
function comparison(ours: Record<string, number>, theirs: Record<string, number>): string {
  const ingest = INGEST_KINDS.map((kind) => `${kind} ${((ours[kind] as number) / (theirs[kind] as number)).toFixed(2)}x`).join(', ');
  return `ingest ${ingest} Alertmanager's alerts/s (goal 2x); GET /alerts ${((ours['listMs'] as number) / (theirs['listMs'] as number)).toFixed(2)} of its time, groups ${((ours['groupsMs'] as number) / (theirs['groupsMs'] as number)).toFixed(2)} (goal 1/7 = 0.14 each)`;
}

async function big(targets: readonly Target[], total: number): Promise<void> {
  for (const target of targets) {
    const idle = await rssMiB(target.pid);
    const started = performance.now();
    await ingest(target, 0, total);
    const seconds = (performance.now() - started) / 1000;
    const stored = await rssMiB(target.pid);
    // One of each, bounded: Alertmanager 0.25's time here grows much faster than the alert count (minutes).
    const list = await timeGet(target, '/api/v2/alerts', 1, BIG_GET_WAIT_MS);
    const groups = await timeGet(target, '/api/v2/alerts/groups', 1, BIG_GET_WAIT_MS);
    console.log(`${target.name.padEnd(22)} +${total} alerts in ${seconds.toFixed(1)} s; GET /alerts ${formatMs(list.ms)} (${(list.bytes / 1e6).toFixed(1)} MB); groups ${formatMs(groups.ms)}; RSS ${idle.toFixed(0)} MiB before, ${stored.toFixed(0)} MiB holding them, ${(await rssMiB(target.pid)).toFixed(0)} MiB after the GETs`);
  }
}

/** /json p99 at half its maximum rate, without and with the alert API busy. */
async function priority(service: Target, dir: string): Promise<void> {
  const result = await jsonP99WhileBusy(service.url, dir, LOAD_CPUS, 8, () => getAll(`${service.url}/api/v2/alerts/groups`));
  console.log(`/json max ${Math.round(result.maxReqPerSec)} req/s; p99 at half rate: ${result.aloneP99Us} us alone, ${result.loadedP99Us} us while the alert API served ${result.rounds} GET /alerts/groups; ratio ${(result.loadedP99Us / result.aloneP99Us).toFixed(2)} (goal at most 1.5)`);
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { alerts: { type: 'string', default: '10000' }, silences: { type: 'string', default: '1000' }, big: { type: 'string', default: '100000' }, only: { type: 'string', default: '' } } });
  const alerts = Number(values.alerts);
  // `--only notifications` runs the last part alone.
  const all = values.only === '';
  await ensureLoadTools();
  const temp = await makeTempDir('bench-alerts-');
  try {
    const rules = await writeBenchConfig();
    try {
      if (all) console.log(`both servers pinned to CPU ${SERVER_CPUS}; client on CPU ${LOAD_CPUS}; ${alerts} alerts in posts of ${BATCH} (${IN_FLIGHT} in flight), ${values.silences} silences`);
      if (all) await withServers(temp.path, 'reads', rules.env, async (targets) => {
        const [ours, theirs] = await readsAndIngest(targets, alerts, Number(values.silences));
        if (ours !== undefined && theirs !== undefined) {
          console.log(comparison(ours, theirs));
        }
      });
      // Fresh servers, so that the RSS is that of the large state alone.
      if (all) await withServers(temp.path, 'big', rules.env, (targets) => big(targets, Number(values.big)));
      // A service of its own: an Alertmanager given up on above may still be computing on the servers' CPU.
      if (all) await withServers(
        temp.path,
        'priority',
        rules.env,
        async ([service]) => {
          await ingest(service as Target, 0, Number(values.big));
          await priority(service as Target, temp.path);
        },
        { ...PINNED, alertmanager: false },
      );
      if (all || values.only === 'notifications') await notifications(temp.path, rules.env, alerts);
      if (all || values.only === 'unpinned') await unpinned(temp.path, rules.env, alerts, Number(values.silences));
      // The two `/json` priority measures of the unpinned mode alone, without Alertmanager: about two minutes.
      if (values.only === 'priority') {
        await priorityAlone(temp.path, rules.env, alerts, 'unpinned', {});
        await priorityAlone(temp.path, rules.env, alerts, 'unpinned, API_PORT', { API_PORT: '0' });
      }
    } finally {
      await rules.remove();
    }
  } finally {
    agent.destroy();
    await temp.remove();
  }
}

/** Length of each `/json` p99 measurement of the unpinned mode. */
const PRIORITY_SECONDS = 8;

/** `round` at most `perSecond` times a second: each call waits out the rest of its share of time. */
function paced(perSecond: number, round: () => Promise<unknown>): () => Promise<void> {
  const spacingMs = 1000 / perSecond;
  return async () => {
    const started = performance.now();
    await round();
    const left = spacingMs - (performance.now() - started);
    if (left > 0) await new Promise((resolve) => setTimeout(resolve, left));
  };
}

/** Every core of this host, for load tools that must not be pinned apart from the servers. */
const ALL_CPUS = `0-${availableParallelism() - 1}`;

/**
 * The same measures as users run both servers: free to use every core, the service at its
 * defaults, UNPINNED_IN_FLIGHT posts in flight; then `/json` p99 at half its maximum rate alone
 * and while alerts are posted, round after round.
 */
async function unpinned(dir: string, rulesEnv: Record<string, string>, alerts: number, silences: number): Promise<void> {
  console.log(`unpinned: both servers and the client free to use ${availableParallelism()} cores, the service at its defaults; ${alerts} alerts in posts of ${BATCH} (${UNPINNED_IN_FLIGHT} in flight), ${silences} silences`);
  await withServers(
    dir,
    'unpinned',
    rulesEnv,
    async (targets) => {
      const [ours, theirs] = await readsAndIngest(targets, alerts, silences, UNPINNED_IN_FLIGHT);
      if (ours !== undefined && theirs !== undefined) {
        console.log(`unpinned: ${comparison(ours, theirs)}`);
      }
      await postingPriority(dir, 'unpinned', targets[0] as Target, alerts);
    },
    { alertmanager: true, cpus: undefined, serviceEnv: {} },
  );
  // The alerts' POSTs on a front thread of their own: they no longer share a thread with `/json`.
  await priorityAlone(dir, rulesEnv, alerts, 'unpinned, API_PORT', { API_PORT: '0' });
}

/**
 * `/json` p99 at half its maximum rate alone and while alerts are posted to `service` round after
 * round; then the same while the client posts as many rounds to a server that only reads them:
 * what the host alone (the client, h2load, the kernel on two cores) does to the p99.
 */
async function postingPriority(dir: string, label: string, service: Target, alerts: number): Promise<void> {
  const jsonUrl = service.jsonUrl ?? service.url;
  // A round first, so that neither the alone nor the loaded run is the service's first work.
  await ingest(service, 1_000_000, alerts, 'firing', UNPINNED_IN_FLIGHT);
  // The same alerts again each round, as Prometheus re-sends them: new ones would reach ALERTMANAGER_MAX_ALERTS.
  const result = await jsonP99WhileBusy(jsonUrl, dir, ALL_CPUS, PRIORITY_SECONDS, () => ingest(service, 1_000_000, alerts, 'firing', UNPINNED_IN_FLIGHT));
  const ratio = result.loadedP99Us / result.aloneP99Us;
  console.log(`${label}: /json p99 at half rate: ${result.aloneP99Us} us alone, ${result.loadedP99Us} us while ${result.rounds} rounds of ${alerts} alerts were posted; ratio ${ratio.toFixed(2)} (goal at most 1.5)`);
  const teardown = new Teardowns();
  try {
    const discard = await startDiscardServer(teardown);
    const control = await jsonP99WhileBusy(jsonUrl, dir, ALL_CPUS, PRIORITY_SECONDS, paced(result.rounds / PRIORITY_SECONDS, () => ingest({ name: 'discard', ...discard }, 1_000_000, alerts, 'firing', UNPINNED_IN_FLIGHT)));
    const controlRatio = control.loadedP99Us / control.aloneP99Us;
    // The two alone runs measure the same thing; their spread is the host's, so the service's
    // share is read from the two runs under load.
    console.log(`${label}: control, as many rounds (${control.rounds}) posted to a node:http server that discards them: /json p99 ${control.aloneP99Us} us alone, ${control.loadedP99Us} us; ratio ${controlRatio.toFixed(2)}; p99 while posting to the service / to the control ${(result.loadedP99Us / control.loadedP99Us).toFixed(2)}`);
  } finally {
    await teardown.run();
  }
}

/** `postingPriority` on a service of its own (no Alertmanager beside it), started with `serviceEnv`. */
async function priorityAlone(dir: string, rulesEnv: Record<string, string>, alerts: number, label: string, serviceEnv: Record<string, string>): Promise<void> {
  await withServers(dir, `priority-${label.replace(/\W+/g, '-')}`, rulesEnv, async ([service]) => postingPriority(dir, label, service as Target, alerts), { alertmanager: false, cpus: undefined, serviceEnv });
}

const NOTIFY_GROUPS = 1000;
const NOTIFY_GROUP_WAIT_MS = 2000;

const notifyConfig = (hook: string) => `route:
  receiver: hook
  group_by: [group]
  group_wait: ${NOTIFY_GROUP_WAIT_MS}ms
  group_interval: 1h
  repeat_interval: 4h
receivers:
  - name: hook
    webhook_configs:
      - url: ${hook}
`;

/** A webhook receiver: when each group key first arrived, and a way to wait for a number of them. */
async function startWebhook(): Promise<{ url: string; received: Map<string, number>; until(count: number): Promise<void>; close(): void }> {
  const received = new Map<string, number>();
  let waiter: { count: number; resolve: () => void } | undefined;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const at = performance.now();
      const { groupKey } = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { groupKey: string };
      if (!received.has(groupKey)) received.set(groupKey, at);
      res.end();
      if (waiter !== undefined && received.size >= waiter.count) waiter.resolve();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    received,
    until: (count) => (received.size >= count ? Promise.resolve() : new Promise((resolve) => (waiter = { count, resolve }))),
    close: () => server.close(),
  };
}

/** One round: `alerts` alerts in NOTIFY_GROUPS new groups (named by `round`); resolves with each group's due time, by group key. */
async function postGroups(service: Target, round: number, alerts: number): Promise<Map<string, number>> {
  const due = new Map<string, number>();
  const bodies: Array<{ body: Buffer; groups: string[] }> = [];
  for (let at = 0; at < alerts; at += BATCH) {
    const batch = Array.from({ length: Math.min(BATCH, alerts - at) }, (_, k) => {
      const i = at + k;
      return { labels: { alertname: 'notify', group: `r${round}-g${Math.floor((i * NOTIFY_GROUPS) / alerts)}`, instance: `host-${i}` }, endsAt: new Date(Date.now() + 3_600_000).toISOString() };
    });
    bodies.push({ body: Buffer.from(JSON.stringify(batch)), groups: [...new Set(batch.map((a) => a.labels.group))] });
  }
  let next = 0;
  await Promise.all(
    Array.from({ length: IN_FLIGHT }, async () => {
      while (next < bodies.length) {
        const { body, groups } = bodies[next++] as { body: Buffer; groups: string[] };
        const sent = performance.now();
        for (const group of groups) if (!due.has(`{}:{group="${group}"}`)) due.set(`{}:{group="${group}"}`, sent + NOTIFY_GROUP_WAIT_MS);
        await post(service.url, '/api/v2/alerts', body);
      }
    }),
  );
  return due;
}

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] as number;
}

async function notifications(dir: string, rulesEnv: Record<string, string>, alerts: number): Promise<void> {
  const hook = await startWebhook();
  const teardown = new Teardowns();
  try {
    const configFile = join(dir, 'alertmanager-notify.yml');
    await writeFile(configFile, notifyConfig(hook.url));
    const service = await startBenchService({ ...rulesEnv, HTTP_WORKERS: '0', ALERTMANAGER_CONFIG: configFile, DATA_DIR: join(dir, 'data-notify'), ALERTMANAGER_MAX_ALERTS_PER_REQUEST: '1000' }, SERVER_CPUS);
    teardown.teardown(() => service.stop());
    const target: Target = { name: 'service', url: service.baseUrl, pid: service.child.pid as number };
    // A first round warms the path up; the second is measured.
    await postGroups(target, 0, alerts);
    await hook.until(NOTIFY_GROUPS);
    const due = await postGroups(target, 1, alerts);
    await hook.until(2 * NOTIFY_GROUPS);
    const lateness = [...due].map(([key, at]) => (hook.received.get(key) as number) - at).sort((a, b) => a - b);
    console.log(`notifications: ${alerts} alerts in ${NOTIFY_GROUPS} groups, group_wait ${NOTIFY_GROUP_WAIT_MS} ms: due -> webhook p50 ${percentile(lateness, 0.5).toFixed(1)} ms, p99 ${percentile(lateness, 0.99).toFixed(1)} ms, max ${(lateness[lateness.length - 1] as number).toFixed(1)} ms`);
    let round = 2;
    const result = await jsonP99WhileBusy(target.url, dir, LOAD_CPUS, 8, async () => {
      const expected = hook.received.size + NOTIFY_GROUPS;
      await postGroups(target, round++, alerts);
      await hook.until(expected);
    });
    console.log(`/json p99 at half rate: ${result.aloneP99Us} us alone, ${result.loadedP99Us} us while ${result.rounds} rounds of ${NOTIFY_GROUPS} groups were notified; ratio ${(result.loadedP99Us / result.aloneP99Us).toFixed(2)} (goal at most 1.5)`);
  } finally {
    await teardown.run();
    hook.close();
  }
}

interface ServerLayout {
  alertmanager: boolean;
  /** `taskset` CPUs of both servers; undefined: free to use every core, as users run them. */
  cpus: string | undefined;
  /** The service's settings beyond the rules and the alert configuration (pinned: one HTTP thread on the one CPU). */
  serviceEnv: Record<string, string>;
}

const PINNED: ServerLayout = { alertmanager: true, cpus: SERVER_CPUS, serviceEnv: { HTTP_WORKERS: '0' } };

/** The service and (unless told otherwise) a real Alertmanager on the same configuration, both stopped after `use`. */
async function withServers(dir: string, name: string, rulesEnv: Record<string, string>, use: (targets: Target[]) => Promise<void>, layout: ServerLayout = PINNED): Promise<void> {
  const teardown = new Teardowns();
  try {
    const configFile = join(dir, `alertmanager-${name}.yml`);
    await writeFile(configFile, CONFIG);
    const service = await startBenchService({ ...rulesEnv, ...layout.serviceEnv, ALERTMANAGER_CONFIG: configFile, DATA_DIR: join(dir, `data-${name}`), ALERTMANAGER_MAX_ALERTS_PER_REQUEST: '1000' }, layout.cpus);
    teardown.teardown(() => service.stop());
    const target: Target = { name: 'service', url: service.baseUrl, pid: service.child.pid as number };
    const targets: Target[] = [service.apiPort === undefined ? target : { ...target, url: service.apiUrl, jsonUrl: service.baseUrl }];
    if (layout.alertmanager) {
      const real = await startRealAlertmanager(teardown, { config: CONFIG, cpus: layout.cpus });
      targets.push({ name: 'alertmanager 0.25', url: real.url, pid: real.process.child.pid as number });
    }
    await use(targets);
  } finally {
    await teardown.run();
  }
}

await main();
