/**
 * The real process (`node dist/src/main.js`): settings errors at startup, health, SIGTERM,
 * log formats, the debug server and unknown paths.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import t from 'tap';
import { runtimeRoot, spawnProcess, startProcess } from '../support/process-harness.js';
import { D, fixture } from '../support/service-inputs.js';
import { waitFor } from '../support/wait-for.js';

t.test('a bad setting exits 1 with one stderr line naming the variable and the value', async (t) => {
  const cases: Array<[string, string]> = [
    ['PORT', 'abc'],
    ['CONFIG_TYPE', 'bogus'],
    ['NEAR_LIMIT_RATIO', '2'],
    ['RUNTIME_WATCH_POLL_INTERVAL', 'abc'],
    ['DEBUG_PORT', '70000'],
    ['SHADOW_MODE', 'maybe'],
  ];
  await Promise.all(
    cases.map(async ([name, value]) => {
      const proc = spawnProcess(t, { [name]: value });
      const exit = await proc.waitForExit();
      t.same(exit, { code: 1, signal: null }, `${name}=${value}: exit code 1`);
      const lines = proc.stderr.split('\n').filter((l) => l !== '');
      t.equal(lines.length, 1, `${name}=${value}: exactly one stderr line (got ${JSON.stringify(proc.stderr)})`);
      t.match(lines[0] ?? '', name, `${name}=${value}: names the variable`);
      t.match(lines[0] ?? '', value, `${name}=${value}: names the value`);
      t.equal(proc.stdout, '', `${name}=${value}: nothing on stdout`);
    }),
  );
});

t.test('healthcheck, debug server, unknown paths, SIGTERM', async (t) => {
  const { root } = await runtimeRoot(t, { 'basic.yaml': fixture('basic.yaml') });
  const proc = await startProcess(t, { RUNTIME_ROOT: root });

  const health = await proc.request('/healthcheck');
  t.equal(health.status, 200);
  t.equal(health.text, 'OK');
  const healthPost = await proc.request('/healthcheck', { method: 'POST' });
  t.equal(healthPost.status, 200, 'any method');

  const r = await proc.post({ domain: 'basic', descriptors: [D('key1', 'p')] });
  t.equal(r.status, 200);
  t.same(r.json?.statuses?.[0]?.currentLimit, { requestsPerUnit: 50, unit: 'SECOND' });

  // The HTTP port has only /json and /healthcheck; `/` and `/stats` belong to the debug port.
  for (const path of ['/', '/nope', '/json/extra', '/healthcheck/x', '/stats']) {
    const notFound = await proc.request(path);
    t.equal(notFound.status, 404, `HTTP ${path}: 404`);
    t.equal(notFound.text, '404 page not found\n', `HTTP ${path}: body`);
    t.equal(notFound.headers['content-type'], 'text/plain; charset=utf-8');
  }

  const index = await proc.debug('/');
  t.equal(index.status, 200);
  for (const path of ['/rlconfig', '/stats', '/debug/pprof/']) t.match(index.text, new RegExp(`^${path.replace(/\//g, '\\/')}: `, 'm'), `index lists ${path}`);

  const rlconfig = await proc.debug('/rlconfig');
  t.equal(rlconfig.status, 200);
  t.same(
    rlconfig.text.split('\n').filter((l) => l !== '').sort(),
    [
      'basic.key1: unit=SECOND requests_per_unit=50, shadow_mode: false, quota_mode: false',
      'basic.key1_local: unit=SECOND requests_per_unit=50, shadow_mode: false, quota_mode: false',
      'basic.one_per_minute: unit=MINUTE requests_per_unit=1, shadow_mode: false, quota_mode: false',
    ],
  );
  t.ok(rlconfig.text.endsWith('\n'), 'ends in a newline');

  const stats = await proc.debug('/stats');
  t.equal(stats.status, 200);
  t.match(stats.text, /^ratelimit\.service\.config_load_success: 1$/m);
  t.match(stats.text, /^ratelimit\.service\.rate_limit\.basic\.key1\.total_hits: 1$/m);
  t.equal(await proc.stat('ratelimit.service.config_load_error'), 0);

  const missing = await proc.debug('/nope');
  t.equal(missing.status, 404, 'debug port: unknown path');

  proc.kill('SIGTERM');
  const exit = await proc.waitForExit(5000);
  t.same(exit, { code: 0, signal: null }, 'SIGTERM: exit 0');
});

t.test('HEALTHY_WITH_AT_LEAST_ONE_CONFIG_LOADED: 500 until a config file appears', async (t) => {
  const { root, configDir } = await runtimeRoot(t);
  const proc = await startProcess(t, {
    RUNTIME_ROOT: root,
    RUNTIME_WATCH_ROOT: 'false',
    RUNTIME_WATCH_POLL_INTERVAL: '100ms',
    HEALTHY_WITH_AT_LEAST_ONE_CONFIG_LOADED: 'true',
  });
  const unhealthy = await proc.request('/healthcheck');
  t.equal(unhealthy.status, 500, 'no config loaded');
  t.equal(unhealthy.text, '', 'empty body');

  await writeFile(join(configDir, 'basic.yaml'), fixture('basic.yaml'));
  const healthy = await waitFor('healthcheck 200 after writing a config', async () => {
    const r = await proc.request('/healthcheck');
    return r.status === 200 ? r : undefined;
  });
  t.equal(healthy.text, 'OK');
  t.same((await proc.post({ domain: 'basic', descriptors: [D('key1', 'h')] })).json?.statuses?.[0]?.limitRemaining, 49);

  proc.kill('SIGTERM');
  t.same(await proc.waitForExit(5000), { code: 0, signal: null });
});

t.test('without HEALTHY_WITH_AT_LEAST_ONE_CONFIG_LOADED an empty config is healthy', async (t) => {
  const { root } = await runtimeRoot(t);
  const proc = await startProcess(t, { RUNTIME_ROOT: root });
  const r = await proc.request('/healthcheck');
  t.equal(r.status, 200);
  t.equal(r.text, 'OK');
  const unknown = await proc.post({ domain: 'basic', descriptors: [D('key1', 'x')] });
  t.equal(unknown.text, '{"overallCode":"OK","statuses":[{"code":"OK"}]}', 'empty config: every domain is unknown');
});

t.test('LOG_FORMAT=json: every line is a JSON object with @message, @timestamp and level', async (t) => {
  const { root } = await runtimeRoot(t, { 'basic.yaml': fixture('basic.yaml') });
  const proc = await startProcess(t, { RUNTIME_ROOT: root, LOG_FORMAT: 'json', LOG_LEVEL: 'debug' });
  await proc.post('}'); // a bad request, logged at debug
  proc.kill('SIGTERM');
  t.same(await proc.waitForExit(5000), { code: 0, signal: null });
  const lines = proc.stderr.split('\n').filter((l) => l !== '');
  t.ok(lines.length >= 3, `several lines logged (${lines.length})`);
  for (const line of lines) {
    let record: Record<string, unknown> | undefined;
    try {
      record = JSON.parse(line) as Record<string, unknown>;
    } catch {
      record = undefined;
    }
    t.type(record, 'object', `parses as JSON: ${line}`);
    if (record === undefined) continue;
    t.type(record['@message'], 'string', '@message');
    t.type(record['@timestamp'], 'string', '@timestamp');
    t.ok(!Number.isNaN(Date.parse(String(record['@timestamp']))), '@timestamp is a date');
    t.ok(['debug', 'info', 'warning', 'error'].includes(String(record['level'])), `level ${String(record['level'])}`);
  }
  const messages = lines.map((l) => (JSON.parse(l) as Record<string, unknown>)['@message']);
  t.ok(messages.includes('ready'), 'the ready line');
  t.ok(messages.includes('Successfully loaded new configuration'), 'the config load line');
  t.equal(proc.stdout, '', 'logs go to stderr only');
});

t.test('at the default level (warn) requests log nothing, whatever their answer', async (t) => {
  const { root } = await runtimeRoot(t, { 'basic.yaml': fixture('basic.yaml') });
  const proc = await startProcess(t, { RUNTIME_ROOT: root, LOG_LEVEL: 'warn', LOG_FORMAT: 'json' });
  const before = proc.stderr;
  for (let i = 0; i < 30; i++) {
    await proc.post({ domain: 'basic', descriptors: [D('one_per_minute', 'x')] }); // 200, then 429
    await proc.post('}'); // 400
    await proc.post({ domain: 'basic', descriptors: [] }); // 400
  }
  await proc.request('/healthcheck');
  t.equal(proc.stderr, before, 'no line for 91 requests');
  t.same(
    before.split('\n').filter((l) => l !== '').map((l) => (JSON.parse(l) as Record<string, unknown>)['@message']),
    ['ready'],
    'only the ready line before them',
  );
});

t.test('LOG_FORMAT=text (default) uses logrus fields', async (t) => {
  const { root } = await runtimeRoot(t, { 'basic.yaml': fixture('basic.yaml') });
  const proc = await startProcess(t, { RUNTIME_ROOT: root });
  proc.kill('SIGTERM');
  await proc.waitForExit(5000);
  const lines = proc.stderr.split('\n').filter((l) => l !== '');
  t.ok(lines.length >= 2);
  for (const line of lines) t.match(line, /^time="[^"]+" level=(debug|info|warning|error) msg="/, line);
  t.ok(lines.some((l) => l.includes('msg="Successfully loaded new configuration"')));
});
