/**
 * Statistics leave the process: the real service (HTTP threads and gRPC) flushing to a real
 * statsd listener over TCP and UDP, the DogStatsD format with mogrifiers, EXTRA_TAGS, standard
 * output, DISABLE_STATS, sink precedence, and a daemon that is down.
 */
import { createServer } from 'node:net';
import t from 'tap';
import { RlsClient, toGrpcRequest } from '../support/grpc-client.js';
import { runtimeRoot, spawnProcess, startProcess, type ServiceProcess } from '../support/process-harness.js';
import { startStatsdListener, type StatsdListener } from '../support/statsd-listener.js';
import type { Teardown } from '../support/teardown.js';
import { D, fixture } from '../support/service-inputs.js';
import { waitFor } from '../support/wait-for.js';
import { freePort } from '../../src/transports/free-port.js';

const RULE = 'ratelimit.service.rate_limit.basic.key1';

/** The service on the `basic` rules, flushing every 100 ms to `env`'s sink. */
async function serviceWith(t: Teardown, env: Record<string, string>): Promise<ServiceProcess> {
  const { root } = await runtimeRoot(t, { 'basic.yaml': fixture('basic.yaml') });
  return startProcess(t, { RUNTIME_ROOT: root, DISABLE_STATS: 'false', STATS_FLUSH_INTERVAL: '100ms', METRICSD_HOST: '127.0.0.1', ...env });
}

async function hits(proc: ServiceProcess, n: number, value = 'x'): Promise<void> {
  for (let i = 0; i < n; i++) {
    const r = await proc.post({ domain: 'basic', descriptors: [D('key1', value)] });
    if (r.status !== 200) throw new Error(`/json answered ${r.status}`);
  }
}

async function grpcHits(proc: ServiceProcess, n: number): Promise<void> {
  const client = new RlsClient(proc.grpcAddress);
  try {
    for (let i = 0; i < n; i++) {
      const r = await client.call(toGrpcRequest({ domain: 'basic', descriptors: [D('key1', 'x')] }));
      if (!r.ok) throw new Error(`gRPC failed: ${r.details}`);
    }
  } finally {
    client.close();
  }
}

/** Samples a timer's lines stand for: each line counts 1/rate. */
function timerSamples(statsd: StatsdListener, name: string): number {
  return statsd.linesOf(name, 'ms').reduce((total, line) => total + Math.round(1 / line.rate), 0);
}

t.test('statsd over TCP: deltas of every HTTP thread and gRPC, EXTRA_TAGS in the name', async (t) => {
  const statsd = await startStatsdListener(t, 'tcp');
  const proc = await serviceWith(t, { METRICSD_PORT: String(statsd.port), APIS: 'alerts,scores', HTTP_WORKERS: '2', EXTRA_TAGS: 'env:test' });
  const totalHits = `${RULE}.total_hits.__env=test`;

  await hits(proc, 5);
  await grpcHits(proc, 2);
  await statsd.waitFor(() => statsd.sum(totalHits, 'c') === 7);
  await hits(proc, 3);
  await statsd.waitFor(() => statsd.sum(totalHits, 'c') === 10);
  const lines = statsd.linesOf(totalHits, 'c');
  t.ok(lines.length >= 2, `the hits came in more than one flush (${lines.map((l) => l.value).join(', ')})`);
  t.ok(lines.every((l) => l.value > 0), 'no zero deltas are sent');
  t.equal(statsd.sum(`${RULE}.within_limit.__env=test`, 'c'), 10, 'within_limit, summed over flushes');
  t.equal(statsd.linesOf(`${RULE}.over_limit.__env=test`).length, 0, 'a counter that never moved is not sent');

  await statsd.waitFor(() => statsd.sum('ratelimit_server.ShouldRateLimit.total_requests.__env=test', 'c') === 2);
  await statsd.waitFor(() => timerSamples(statsd, 'ratelimit_server.ShouldRateLimit.response_time.__env=test') === 2);
  t.pass('gRPC requests and their response times arrive');

  // A gauge that never changes still goes out with every flush.
  const folded = 'ratelimit.stats.names_folded.__env=test';
  await statsd.waitFor(() => statsd.linesOf(folded, 'g').length >= 3);
  t.ok(statsd.linesOf(folded, 'g').every((l) => l.value === 0), 'an unchanged gauge is sent on every flush with its value');

  // Process statistics come from every thread: main, both HTTP threads and the API thread.
  const heapPrefix = 'ratelimit.node.heap_used_bytes.__env=test.__thread=';
  const threads = () => new Set(statsd.lines.filter((l) => l.name.startsWith(heapPrefix)).map((l) => l.name.slice(heapPrefix.length)));
  await statsd.waitFor(() => threads().size >= 4);
  t.same([...threads()].sort().map((name) => name.replace(/_\d+$/, '')), ['api', 'http', 'http', 'main'], 'heap of the main thread, of each HTTP thread and of the API thread');
  await statsd.waitFor(() => statsd.linesOf('ratelimit.node.rss_bytes.__env=test', 'g').length > 0);
  t.ok((statsd.linesOf('ratelimit.node.rss_bytes.__env=test', 'g')[0]?.value ?? 0) > 10_000_000, 'resident memory of the process');
  t.equal(statsd.connections, 1, 'one connection for every flush');
});

t.test('statsd over UDP', async (t) => {
  const statsd = await startStatsdListener(t, 'udp');
  const proc = await serviceWith(t, { METRICSD_PORT: String(statsd.port), METRICSD_PROTOCOL: 'udp', HTTP_WORKERS: '2' });
  await hits(proc, 4);
  await statsd.waitFor(() => statsd.sum(`${RULE}.total_hits`, 'c') === 4);
  t.equal(statsd.sum(`${RULE}.near_limit`, 'c'), 0);
  t.equal(statsd.sum('ratelimit.service.config_load_success', 'c'), 1, 'the first load, counted once');
});

t.test('DogStatsD: tags split out of the name, mogrifiers in the order listed, EXTRA_TAGS as tags', async (t) => {
  const statsd = await startStatsdListener(t, 'udp');
  const proc = await serviceWith(t, {
    METRICSD_PORT: String(statsd.port),
    USE_TAGGED_METRICSD: 'true',
    USE_METRICSD: 'false',
    EXTRA_TAGS: 'env:test',
    TAGGED_METRICSD_MOGRIFIERS: 'RULES,SERVER',
    TAGGED_METRICSD_MOGRIFIER_RULES_PATTERN: '^ratelimit\\.service\\.rate_limit\\.(.*)\\.(.*)\\.(.*)$',
    TAGGED_METRICSD_MOGRIFIER_RULES_NAME: 'ratelimit.service.rate_limit.$3',
    TAGGED_METRICSD_MOGRIFIER_RULES_TAGS: 'domain:$1,descriptor:$2',
    TAGGED_METRICSD_MOGRIFIER_SERVER_PATTERN: '^ratelimit_server\\.(.*)\\.(.*)$',
    TAGGED_METRICSD_MOGRIFIER_SERVER_NAME: 'ratelimit_server.$2',
    TAGGED_METRICSD_MOGRIFIER_SERVER_TAGS: 'method:$1',
  });
  await hits(proc, 3);
  await grpcHits(proc, 1);
  await statsd.waitFor(() => statsd.sum('ratelimit.service.rate_limit.total_hits', 'c') === 4);
  const line = statsd.linesOf('ratelimit.service.rate_limit.total_hits', 'c')[0];
  t.same(line?.tags, ['env:test', 'domain:basic', 'descriptor:key1'], 'the name`s tags first, then the mogrifier`s');
  t.match(line?.raw, /^ratelimit\.service\.rate_limit\.total_hits:\d+\|c\|#env:test,domain:basic,descriptor:key1$/, 'DogStatsD wire format');
  await statsd.waitFor(() => statsd.sum('ratelimit_server.total_requests', 'c') === 1);
  t.same(statsd.linesOf('ratelimit_server.total_requests')[0]?.tags, ['env:test', 'method:ShouldRateLimit'], 'the second mogrifier');
  await statsd.waitFor(() => statsd.linesOf('ratelimit.node.heap_used_bytes', 'g').length > 0);
  t.same(statsd.linesOf('ratelimit.node.heap_used_bytes', 'g')[0]?.tags, ['env:test', 'thread:main'], 'no mogrifier matches: tags from the name only');
});

t.test("upstream's names select the same DogStatsD sink", async (t) => {
  const statsd = await startStatsdListener(t, 'udp');
  const proc = await serviceWith(t, {
    STATSD_PORT: String(statsd.port),
    USE_DOG_STATSD: 'true',
    USE_STATSD: 'false',
    USE_DOG_STATSD_MOGRIFIERS: 'TAG',
    DOG_STATSD_MOGRIFIER_TAG_PATTERN: '^ratelimit\\.service\\.rate_limit\\.(.*)\\.(.*)\\.(.*)$',
    DOG_STATSD_MOGRIFIER_TAG_NAME: 'ratelimit.service.rate_limit.$3',
    DOG_STATSD_MOGRIFIER_TAG_TAGS: 'domain:$1,descriptor:$2',
  });
  await hits(proc, 2);
  await statsd.waitFor(() => statsd.sum('ratelimit.service.rate_limit.within_limit', 'c') === 2);
  t.same(statsd.linesOf('ratelimit.service.rate_limit.within_limit')[0]?.tags, ['domain:basic', 'descriptor:key1']);
});

t.test('the global shadow mode statistic reaches the sink', async (t) => {
  const statsd = await startStatsdListener(t, 'tcp');
  const proc = await serviceWith(t, { METRICSD_PORT: String(statsd.port), SHADOW_MODE: 'true' });
  for (let i = 0; i < 3; i++) {
    const r = await proc.post({ domain: 'basic', descriptors: [D('one_per_minute', 'x')] });
    t.equal(r.status, 200, 'global shadow mode answers OK');
  }
  await statsd.waitFor(() => statsd.sum('ratelimit.service.global_shadow_mode', 'c') === 2);
  t.equal(statsd.sum('ratelimit.service.rate_limit.basic.one_per_minute.over_limit', 'c'), 2);
});

t.test('a stop flushes what is left; DISABLE_STATS sends nothing', async (t) => {
  const statsd = await startStatsdListener(t, 'tcp');
  const proc = await serviceWith(t, { METRICSD_PORT: String(statsd.port), STATS_FLUSH_INTERVAL: '1h' });
  await hits(proc, 2);
  await proc.stop();
  await statsd.waitFor(() => statsd.sum(`${RULE}.total_hits`, 'c') === 2);
  t.pass('the last flush at SIGTERM carried the hits of an interval that never ended');

  const quiet = await startStatsdListener(t, 'tcp');
  const disabled = await serviceWith(t, { METRICSD_PORT: String(quiet.port), DISABLE_STATS: 'true' });
  await hits(disabled, 2);
  t.equal(await disabled.stat(`${RULE}.total_hits`), 2, '/stats still counts');
  await disabled.stop();
  t.equal(quiet.connections, 0, 'no connection to the daemon');
  t.equal(quiet.lines.length, 0);
});

t.test('no sink selected: standard output in the gostats logging format', async (t) => {
  // One flush, at the stop, so the line holds all three hits (a periodic one could fall between them).
  const proc = await serviceWith(t, { USE_METRICSD: 'false', STATS_FLUSH_INTERVAL: '1h' });
  await hits(proc, 3);
  await proc.stop();
  const line = proc.stdout.split('\n').find((l) => l.includes(`"name":"${RULE}.total_hits"`));
  if (line === undefined) throw new Error('no flush of total_hits on stdout');
  const parsed = JSON.parse(line) as { level: string; ts: number; logger: string; msg: string; json: Record<string, string> };
  t.same({ ...parsed, ts: typeof parsed.ts }, {
    level: 'debug',
    ts: 'number',
    logger: 'gostats.loggingsink',
    msg: 'flushing counter',
    json: { name: `${RULE}.total_hits`, type: 'counter', value: '3.000000' },
  });
  t.match(line, /"ts":\d+\.\d{6},/, 'seconds with six decimals');
});

t.test('two sinks at once stop the start with upstream`s message', async (t) => {
  const message = 'Error: unable to use more than one stats sink at the same time. Set one of USE_DOG_STATSD, USE_STATSD, USE_PROMETHEUS.';
  const conflicts: Array<Record<string, string>> = [{ USE_TAGGED_METRICSD: 'true' }, { USE_PROMETHEUS: 'true' }, { USE_DOG_STATSD: 'true', USE_PROMETHEUS: 'true', USE_STATSD: 'false' }];
  for (const env of conflicts) {
    const proc = spawnProcess(t, { ...env, DISABLE_STATS: 'false' });
    const exit = await proc.waitForExit();
    t.same(exit, { code: 1, signal: null }, `${JSON.stringify(env)}: exit code 1`);
    t.match(proc.stderr, message, `${JSON.stringify(env)}: the message`);
  }
});

t.test('a daemon that is down or refuses never slows a decision; errors are counted and logged once', async (t) => {
  const port = await freePort('127.0.0.1');
  const started = Date.now();
  const proc = await serviceWith(t, { METRICSD_PORT: String(port), HTTP_WORKERS: '2', LOG_FORMAT: 'json' });
  const client = new RlsClient(proc.grpcAddress);
  t.teardown(() => client.close());
  for (let i = 0; i < 20; i++) {
    const r = await proc.post({ domain: 'basic', descriptors: [D('key1', `down${i}`)] });
    t.equal(r.status, 200);
  }
  const errors = await waitFor('sink errors counted', async () => ((await proc.stat('ratelimit.stats.sink_errors')) ?? 0) >= 3 && (await proc.stat('ratelimit.stats.sink_errors')), 10_000);
  t.ok(errors >= 3, `${errors} failed flushes counted`);
  const warnings = proc.stderr.split('\n').filter((l) => l.includes('statistics sink failed'));
  t.ok(warnings.length >= 1, 'the failure is logged');
  t.ok(Date.now() - started < 60_000 && warnings.length === 1, `one line within the first minute (${warnings.length} lines for ${errors} errors)`);
  t.match(JSON.parse(warnings[0] ?? '{}'), { level: 'warning', '@message': 'statistics sink failed; statistics of this flush may be lost' });
  t.ok((await client.call(toGrpcRequest({ domain: 'basic', descriptors: [D('key1', 'grpc')] }))).ok, 'gRPC decides');

  // The daemon comes up where the service sends: the next flushes reach it.
  const statsd = await startStatsdListener(t, 'tcp', port);
  await hits(proc, 2, 'after');
  await statsd.waitFor(() => statsd.lines.some((l) => l.name === `${RULE}.total_hits`), 10_000);
  t.pass('statistics flow once the daemon is up');

  // A daemon that accepts and drops every connection.
  const refusing = createServer((socket) => socket.destroy());
  await new Promise<void>((resolve) => refusing.listen(0, '127.0.0.1', resolve));
  t.teardown(() => new Promise<void>((resolve) => refusing.close(() => resolve())));
  const refusingPort = (refusing.address() as { port: number }).port;
  const second = await serviceWith(t, { METRICSD_PORT: String(refusingPort) });
  for (let i = 0; i < 10; i++) t.equal((await second.post({ domain: 'basic', descriptors: [D('key1', `r${i}`)] })).status, 200);
  await waitFor('errors from the refusing daemon', async () => ((await second.stat('ratelimit.stats.sink_errors')) ?? 0) > 0, 10_000);
  t.equal(second.exitReason, undefined, 'the process lives on');
});
