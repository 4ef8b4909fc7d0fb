/**
 * Health and startup against a real Redis and the real service process:
 * KVSTORE_HEALTH_CHECK_ACTIVE_CONNECTION makes /healthcheck and gRPC health follow whether any
 * connection to Redis is up; without it health ignores Redis; a service started before its Redis
 * runs, answers 400 meanwhile and starts counting once Redis comes up, without a restart.
 */
import { randomUUID } from 'node:crypto';
import t from 'tap';
import { portForLater } from '../support/port-for-later.js';
import { RlsClient, type HealthStatusName } from '../support/grpc-client.js';
import { timedPost, timeUntil } from '../support/load-client.js';
import { runtimeRoot, startProcess, type ServiceProcess } from '../support/process-harness.js';
import { D } from '../support/service-inputs.js';
import { waitFor } from '../support/wait-for.js';
import { startRedis } from '../support/store-servers.js';
import type { Teardown } from '../support/teardown.js';

const MARGIN_MS = 1000;
const config = `domain: health
descriptors:
  - key: k
    rate_limit: { unit: hour, requests_per_unit: 1000000 }
`;

async function service(t: Teardown, env: Record<string, string>): Promise<{ proc: ServiceProcess; grpc: RlsClient }> {
  const { root } = await runtimeRoot(t, { 'health.yaml': config });
  const proc = await startProcess(t, { RUNTIME_ROOT: root, HTTP_WORKERS: '1', KVSTORE_TIMEOUT: '500ms', ...env });
  const grpc = new RlsClient(proc.grpcAddress);
  t.teardown(() => grpc.close());
  return { proc, grpc };
}

/** /healthcheck status (fresh connection each time) and gRPC Check{service:"ratelimit"}. */
async function healthOf(proc: ServiceProcess, grpc: RlsClient): Promise<{ http: number; body: string; grpc: HealthStatusName | string }> {
  const [http, check] = await Promise.all([proc.request('/healthcheck'), grpc.check('ratelimit', { timeoutMs: 2000 })]);
  return { http: http.status, body: http.text, grpc: check.ok ? check.response : `error ${check.code}` };
}

function healthBecomes(proc: ServiceProcess, grpc: RlsClient, http: number, status: HealthStatusName, timeoutMs: number): Promise<number> {
  return timeUntil(
    `/healthcheck ${http} and gRPC ${status}`,
    async () => {
      const now = await healthOf(proc, grpc);
      return { ok: now.http === http && now.grpc === status, detail: now };
    },
    timeoutMs,
  );
}

const body = () => ({ domain: 'health', descriptors: [D('k', randomUUID())] });

t.test('KVSTORE_HEALTH_CHECK_ACTIVE_CONNECTION=true: health follows Redis going down and coming back', async (t) => {
  const redis = await startRedis(t);
  const { proc, grpc } = await service(t, { KVSTORE_URL: redis.url, KVSTORE_HEALTH_CHECK_ACTIVE_CONNECTION: 'true' });
  await healthBecomes(proc, grpc, 200, 'SERVING', 5000);
  const up = await healthOf(proc, grpc);
  t.same(up, { http: 200, body: 'OK', grpc: 'SERVING' }, 'healthy while Redis is up');
  t.equal((await proc.post(body())).status, 200);
  t.equal((await grpc.check('', { timeoutMs: 2000 })).ok, true);

  await redis.stop();
  const downMs = await healthBecomes(proc, grpc, 500, 'NOT_SERVING', 5000);
  t.ok(downMs < 1500, `unhealthy ${Math.round(downMs)} ms after Redis died (< 1500 ms: the 250 ms health poll)`);
  t.same(await healthOf(proc, grpc), { http: 500, body: '', grpc: 'NOT_SERVING' }, '500 with an empty body; gRPC NOT_SERVING');
  const anyService = await grpc.check('', { timeoutMs: 2000 });
  t.same(anyService, { ok: true, response: 'SERVING' }, 'gRPC service "" is always SERVING (grpc-go default)');
  const failing = await timedPost(false, proc.httpPort!, body());
  t.equal(failing.status, 400, 'requests fail meanwhile');

  await redis.restart();
  const upMs = await healthBecomes(proc, grpc, 200, 'SERVING', 5000);
  t.ok(upMs < 2500, `healthy again ${Math.round(upMs)} ms after the restart (< reconnect max delay 1 s + poll + margin)`);
  // Healthy means some thread's connection is up again; each thread reconnects on its own
  // backoff (at most 1 s), so the thread that answers /json may still be a moment behind.
  await waitFor('/json answered 200', async () => (await proc.post(body())).status === 200, 3000, 50);
  t.pass('and decisions work');
  t.ok(proc.running);
});

t.test('without KVSTORE_HEALTH_CHECK_ACTIVE_CONNECTION, health stays 200 while Redis is down', async (t) => {
  const redis = await startRedis(t);
  const { proc, grpc } = await service(t, { KVSTORE_URL: redis.url });
  t.same(await healthOf(proc, grpc), { http: 200, body: 'OK', grpc: 'SERVING' });
  await redis.stop();
  // Redis is known to be gone once requests fail; health must then stay 200 for well over the
  // health poll (250 ms) and the time the setting above takes to turn unhealthy.
  await timeUntil('requests to fail with Redis down', async () => ({ ok: (await timedPost(false, proc.httpPort!, body())).status === 400, detail: '' }), 5000);
  const seen = new Set<string>();
  const until = Date.now() + 1500;
  let polls = 0;
  while (Date.now() < until) {
    seen.add(JSON.stringify(await healthOf(proc, grpc)));
    polls++;
  }
  t.same([...seen], [JSON.stringify({ http: 200, body: 'OK', grpc: 'SERVING' })], `healthy in all ${polls} polls over 1.5 s with Redis down`);
  t.equal((await timedPost(false, proc.httpPort!, body())).status, 400, 'while requests still fail');
});

t.test('started before Redis: runs, warns, fails fast, and counts once Redis is up (no restart)', async (t) => {
  const port = await portForLater();
  const { proc, grpc } = await service(t, { KVSTORE_URL: `127.0.0.1:${port}`, KVSTORE_HEALTH_CHECK_ACTIVE_CONNECTION: 'true' });
  t.ok(proc.running, 'the service started and listens with no Redis');
  const warning = await timeUntil('a warning about the store', async () => ({ ok: /level=warn.*key-value store/.test(proc.stderr + proc.stdout), detail: proc.stderr.slice(-500) }), 5000).then(
    () => (proc.stderr + proc.stdout).split('\n').find((line) => /level=warn.*key-value store/.test(line)),
  );
  t.match(warning, /ECONNREFUSED|connect/, `the warning says why: ${warning}`);
  const answers = await Promise.all(Array.from({ length: 20 }, () => timedPost(false, proc.httpPort!, body())));
  t.same(
    answers.map((a) => a.status),
    answers.map(() => 400),
    'every request fails with 400',
  );
  t.match(answers[0]?.error ?? '', /key-value store/, `X-Ratelimit-Error: ${answers[0]?.error}`);
  const maxMs = Math.max(...answers.map((a) => a.ms));
  t.ok(maxMs < 500 + MARGIN_MS, `quickly: the slowest took ${Math.round(maxMs)} ms`);
  t.same(await healthOf(proc, grpc), { http: 500, body: '', grpc: 'NOT_SERVING' }, 'unhealthy: no connection is up yet');

  const pid = proc.child.pid;
  const redis = await startRedis(t, { port });
  const resumeMs = await timeUntil(
    'a 200 once Redis runs',
    async () => {
      const a = await timedPost(false, proc.httpPort!, body(), 5000);
      return { ok: a.status === 200, detail: { status: a.status, error: a.error } };
    },
    5000,
  );
  t.ok(resumeMs < 2000, `decisions work ${Math.round(resumeMs)} ms after Redis started (< 2000 ms)`);
  await healthBecomes(proc, grpc, 200, 'SERVING', 3000);
  t.ok(proc.running && proc.child.pid === pid, 'the same process, never restarted');
  t.ok((await redis.keys('health_k_*')).length >= 1, 'the counter is in the Redis that came up late');
});
