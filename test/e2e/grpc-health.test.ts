/**
 * grpc.health.v1.Health on the gRPC port, as upstream: "" is always SERVING, "ratelimit" follows
 * /healthcheck, any other name is NOT_FOUND (Check) or SERVICE_UNKNOWN (Watch); Watch streams
 * every change; SIGTERM turns "ratelimit" NOT_SERVING and the process exits 0.
 */
import t from 'tap';
import { RlsClient, Status } from '../support/grpc-client.js';
import { runtimeRoot, startProcess } from '../support/process-harness.js';
import { startService } from '../support/service-harness.js';
import { D, fixture } from '../support/service-inputs.js';
import { waitFor } from '../support/wait-for.js';

const CHECK_TOTAL = 'ratelimit_server.Check.total_requests';

t.test('Check: "" and "ratelimit" are SERVING, an unknown service is NOT_FOUND', async (t) => {
  const svc = await startService(t, { files: { 'basic.yaml': fixture('basic.yaml') } });
  const client = new RlsClient(`127.0.0.1:${svc.app.grpcPort}`);
  t.teardown(() => client.close());
  t.same(await client.check(''), { ok: true, response: 'SERVING' });
  t.same(await client.check('ratelimit'), { ok: true, response: 'SERVING' });
  t.same(await client.check('grpc.health.v1.Health'), { ok: false, code: Status.NOT_FOUND, details: 'unknown service' });
  t.same(await client.check('envoy.service.ratelimit.v3.RateLimitService'), { ok: false, code: Status.NOT_FOUND, details: 'unknown service' });
  t.equal(svc.stat(CHECK_TOTAL), 4, `${CHECK_TOTAL} counts every Check`);
  t.equal(svc.stat('ratelimit_server.ShouldRateLimit.total_requests'), 0, 'health calls are not ShouldRateLimit calls');

  const watchAll = client.watch('');
  const watchUnknown = client.watch('no.such.Service');
  await waitFor('the first Watch messages', () => watchAll.statuses.length >= 1 && watchUnknown.statuses.length >= 1);
  t.same(watchAll.statuses, ['SERVING']);
  t.same(watchUnknown.statuses, ['SERVICE_UNKNOWN'], 'Watch on an unknown service: SERVICE_UNKNOWN, not an error');
  t.equal(watchUnknown.ended, false, 'and the stream stays open');
  watchAll.cancel();
  watchUnknown.cancel();
  await waitFor('cancelled watches end', () => watchAll.ended && watchUnknown.ended);
  t.equal(watchAll.error?.code, Status.CANCELLED);
});

t.test('HEALTHY_WITH_AT_LEAST_ONE_CONFIG_LOADED: NOT_SERVING until a config loads; Watch streams each change', async (t) => {
  const svc = await startService(t, {
    env: { HEALTHY_WITH_AT_LEAST_ONE_CONFIG_LOADED: 'true', RUNTIME_WATCH_ROOT: 'false', RUNTIME_WATCH_POLL_INTERVAL: '100ms' },
  });
  const client = new RlsClient(`127.0.0.1:${svc.app.grpcPort}`);
  t.teardown(() => client.close());

  t.same(await client.check('ratelimit'), { ok: true, response: 'NOT_SERVING' }, 'no config yet: NOT_SERVING');
  t.same(await client.check(''), { ok: true, response: 'SERVING' }, '"" is SERVING regardless');
  t.equal((await svc.request('/healthcheck')).status, 500, '/healthcheck agrees: 500');

  const watch = client.watch('ratelimit');
  const watchAll = client.watch('');
  await waitFor('the first Watch message', () => watch.statuses.length >= 1 && watchAll.statuses.length >= 1);
  t.same(watch.statuses, ['NOT_SERVING'], 'Watch starts with the current status');

  await svc.writeConfig('basic.yaml', fixture('basic.yaml'));
  await waitFor('Watch streams SERVING after the config loads', () => watch.statuses.length >= 2);
  t.same(watch.statuses, ['NOT_SERVING', 'SERVING']);
  t.same(await client.check('ratelimit'), { ok: true, response: 'SERVING' });
  t.equal((await svc.request('/healthcheck')).status, 200, '/healthcheck agrees: 200');
  const r = await client.call({ domain: 'basic', descriptors: [D('key1', 'x')] });
  t.equal(r.ok, true, 'and decisions are served');

  // A successful load with no domains makes the config component unhealthy again.
  await svc.removeConfig('basic.yaml');
  await waitFor('Watch streams NOT_SERVING after the last config is removed', () => watch.statuses.length >= 3);
  t.same(watch.statuses, ['NOT_SERVING', 'SERVING', 'NOT_SERVING']);
  t.same(await client.check('ratelimit'), { ok: true, response: 'NOT_SERVING' });
  t.equal((await svc.request('/healthcheck')).status, 500);

  t.same(watchAll.statuses, ['SERVING'], 'the "" watcher saw no change');
  t.equal(watch.ended, false, 'the Watch stream is still open');
  watch.cancel();
  watchAll.cancel();
});

t.test('whole process: SIGTERM streams NOT_SERVING to watchers and the process exits 0', async (t) => {
  const { root } = await runtimeRoot(t, { 'basic.yaml': fixture('basic.yaml') });
  const proc = await startProcess(t, { RUNTIME_ROOT: root });
  const client = new RlsClient(proc.grpcAddress);
  t.teardown(() => client.close());

  t.same(await client.check('ratelimit'), { ok: true, response: 'SERVING' });
  const watch = client.watch('ratelimit');
  await waitFor('the first Watch message', () => watch.statuses.length >= 1);
  t.same(watch.statuses, ['SERVING']);

  const signalled = Date.now();
  proc.kill('SIGTERM');
  await waitFor('Watch streams NOT_SERVING after SIGTERM', () => watch.statuses.length >= 2 || watch.ended, 5000);
  t.same(watch.statuses, ['SERVING', 'NOT_SERVING'], 'NOT_SERVING is streamed before the server goes away');
  // The watcher stays open: the server ends Watch streams itself instead of waiting out the grace period.
  const exit = await proc.waitForExit(12_000);
  t.equal(watch.ended, true, 'the Watch stream was ended by the server');
  t.same(exit, { code: 0, signal: null }, 'exit code 0');
  t.comment(`exited ${Date.now() - signalled} ms after SIGTERM`);
  t.ok(Date.now() - signalled < 5000, 'draining does not wait for the grace period once calls are done');
});
