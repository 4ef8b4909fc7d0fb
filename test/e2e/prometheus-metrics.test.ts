/**
 * Prometheus: a real Prometheus server (Debian's) scrapes the service's `/metrics` pages, on the
 * USE_PROMETHEUS listener and on the debug port, and its query API returns the counters of known
 * traffic under upstream's metric names and labels.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import t from 'tap';
import { RlsClient, toGrpcRequest } from '../support/grpc-client.js';
import { runtimeRoot, spawnProcess, startProcess } from '../support/process-harness.js';
import { startRealPrometheus } from '../support/real-prometheus.js';
import { httpRequest } from '../support/http-request.js';
import { D, fixture } from '../support/service-inputs.js';
import { waitFor } from '../support/wait-for.js';
import { tempDir } from '../support/temp-dir.js';

const PROMETHEUS_ENV = { DISABLE_STATS: 'false', USE_PROMETHEUS: 'true', USE_METRICSD: 'false', PROMETHEUS_ADDR: '127.0.0.1:0' };

t.test('a real Prometheus scrapes both pages and its queries return the counters of known traffic', async (t) => {
  const { root } = await runtimeRoot(t, { 'basic.yaml': fixture('basic.yaml') });
  const proc = await startProcess(t, { RUNTIME_ROOT: root, HTTP_WORKERS: '2', ...PROMETHEUS_ENV });
  t.ok(proc.prometheusPort !== undefined, 'the ready line names the Prometheus port');

  for (let i = 0; i < 5; i++) t.equal((await proc.post({ domain: 'basic', descriptors: [D('key1', 'a')] })).status, 200);
  t.equal((await proc.post({ domain: 'basic', descriptors: [D('one_per_minute', 'b')] })).status, 200);
  t.equal((await proc.post({ domain: 'basic', descriptors: [D('one_per_minute', 'b')] })).status, 429);
  const client = new RlsClient(proc.grpcAddress);
  t.teardown(() => client.close());
  for (let i = 0; i < 2; i++) t.ok((await client.call(toGrpcRequest({ domain: 'basic', descriptors: [D('key1', 'a')] }))).ok);

  const prometheus = await startRealPrometheus(t, {
    scrape: [
      { job: 'ratelimit', target: `127.0.0.1:${proc.prometheusPort}` },
      { job: 'ratelimit-debug', target: `127.0.0.1:${proc.debugPort}` },
    ],
  });
  const value = async (expr: string) => (await prometheus.query(expr))[0]?.value;
  const settled = (expr: string, expected: number) => waitFor(`${expr} == ${expected}`, async () => (await value(expr)) === expected, 30_000, 200);

  await settled('ratelimit_service_rate_limit_total_hits{job="ratelimit",domain="basic",key1="key1"}', 7);
  await settled('ratelimit_service_rate_limit_within_limit{job="ratelimit",domain="basic",key1="key1"}', 7);
  await settled('ratelimit_service_rate_limit_over_limit{job="ratelimit",domain="basic",key1="one_per_minute"}', 1);
  await settled('ratelimit_service_total_requests{job="ratelimit",grpc_method="ShouldRateLimit"}', 2);
  await settled('ratelimit_service_response_time_seconds_count{job="ratelimit",grpc_method="ShouldRateLimit"}', 2);
  await settled('ratelimit_service_config_load_success{job="ratelimit"}', 1);
  await settled('ratelimit_service_rate_limit_total_hits{job="ratelimit-debug",domain="basic",key1="key1"}', 7);
  t.pass('the counters of the traffic, under upstream`s names, on both pages');

  const up = await prometheus.query('up');
  t.same(up.map((s) => [s.metric['job'], s.value]).sort(), [['ratelimit', 1], ['ratelimit-debug', 1]], 'both targets up');
  const threads = await prometheus.query('ratelimit_node_heap_used_bytes{job="ratelimit"}');
  t.ok(threads.length >= 3, `heap of every thread (${threads.map((s) => s.metric['thread']).join(', ')})`);
  const processMetrics = await prometheus.query('process_resident_memory_bytes{job="ratelimit"}');
  t.ok((processMetrics[0]?.value ?? 0) > 0, "prom-client's process metrics");
});

t.test('PROMETHEUS_PATH, PROMETHEUS_MAPPER_YAML and the legacy response time unit', async (t) => {
  const dir = await tempDir(t, 'rl-mapper-');
  const mapper = join(dir, 'mapper.yml');
  await writeFile(mapper, 'mappings:\n  - match: "ratelimit.service.rate_limit.*.*.total_hits"\n    name: "hits"\n    labels: {rule: "$1/$2"}\n');
  const { root } = await runtimeRoot(t, { 'basic.yaml': fixture('basic.yaml') });
  const proc = await startProcess(t, {
    RUNTIME_ROOT: root,
    ...PROMETHEUS_ENV,
    PROMETHEUS_PATH: '/custom',
    PROMETHEUS_MAPPER_YAML: mapper,
    PROMETHEUS_RESPONSE_TIME_AS_MILLISECONDS: 'true',
  });
  await proc.post({ domain: 'basic', descriptors: [D('key1', 'a')] });
  const page = await httpRequest(`http://127.0.0.1:${proc.prometheusPort}/custom`);
  t.equal(page.status, 200);
  t.match(page.headers['content-type'], /^text\/plain; version=0\.0\.4/);
  t.match(page.text, /^hits\{rule="basic\/key1"\} 1$/m, 'the custom mapping');
  t.match(page.text, /^ratelimit_service_rate_limit_basic_key1_within_limit 1$/m, 'what it does not map keeps its escaped name');
  t.equal((await httpRequest(`http://127.0.0.1:${proc.prometheusPort}/metrics`)).status, 404, 'only PROMETHEUS_PATH');
  const debugPage = await proc.debug('/metrics');
  t.match(debugPage.text, /^hits\{rule="basic\/key1"\} 1$/m, 'the debug port serves the same page');

  const missing = spawnProcess(t, { ...PROMETHEUS_ENV, PROMETHEUS_MAPPER_YAML: join(dir, 'nope.yml') });
  t.same(await missing.waitForExit(), { code: 1, signal: null }, 'a missing mapping file stops the start');
  t.match(missing.stderr, /PROMETHEUS_MAPPER_YAML: cannot read .*nope\.yml/);
  const bad = join(dir, 'bad.yml');
  await writeFile(bad, 'mappings:\n  - match: "a.*"\n');
  const invalid = spawnProcess(t, { ...PROMETHEUS_ENV, PROMETHEUS_MAPPER_YAML: bad });
  t.same(await invalid.waitForExit(), { code: 1, signal: null });
  t.match(invalid.stderr, /mappings\[0\]\.name: required/);
});

t.test('/metrics on the debug port answers whatever sink is selected', async (t) => {
  const { root } = await runtimeRoot(t, { 'basic.yaml': fixture('basic.yaml') });
  const proc = await startProcess(t, { RUNTIME_ROOT: root });
  await proc.post({ domain: 'basic', descriptors: [D('key1', 'a')] });
  const page = await proc.debug('/metrics');
  t.equal(page.status, 200);
  t.match(page.text, /^ratelimit_service_rate_limit_total_hits\{domain="basic",key1="key1"\} 1$/m);
  t.match((await proc.debug('/')).text, /^\/metrics: /m, 'the index lists it');
});
