/**
 * Store faults against real servers and the real service process: Redis killed under load and
 * restarted, a sentinel failover, memcached killed and frozen (SIGSTOP). Every request must get
 * an answer within the store timeout plus a margin, failures must be counted exactly in
 * `redis_error`, and decisions must resume on their own once the store is back.
 */
import * as grpc from '@grpc/grpc-js';
import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import http from 'node:http';
import { performance } from 'node:perf_hooks';
import t from 'tap';
import { startBlackholeProxy } from '../support/blackhole-proxy.js';
import { countByStatus, runLoad, slowest, timedGrpc, timedPost, timeUntil, type TimedAnswer } from '../support/load-client.js';
import { runtimeRoot, startProcess, type ServiceProcess } from '../support/process-harness.js';
import { D } from '../support/service-inputs.js';
import { waitFor } from '../support/wait-for.js';
import { startMemcached, startRedis, startSentinelGroup } from '../support/store-servers.js';
import type { Teardown } from '../support/teardown.js';

const REDIS_ERROR = 'ratelimit.service.call.should_rate_limit.redis_error';
/** Slack over a store timeout for a loaded 2-core machine (two HTTP threads, the test client, the servers). */
const MARGIN_MS = 1000;

const config = `domain: faults
descriptors:
  - key: big
    rate_limit: { unit: hour, requests_per_unit: 1000000 }
  - key: small
    rate_limit: { unit: hour, requests_per_unit: 100 }
`;

async function service(t: Teardown, env: Record<string, string>): Promise<ServiceProcess> {
  const { root } = await runtimeRoot(t, { 'faults.yaml': config });
  return startProcess(t, { RUNTIME_ROOT: root, ...env });
}

/** A fresh connection each time, so successive polls can land on any HTTP thread. */
function pollOnce(proc: ServiceProcess, body: unknown): Promise<{ ok: boolean; detail: unknown }> {
  return timedPost(false, proc.httpPort!, body, 5000).then((a) => ({ ok: a.status === 200, detail: { status: a.status, error: a.error ?? a.transportError } }));
}

t.test('Redis killed while 10,000 requests run: every request answered in time, failures counted exactly, recovery after restart', async (t) => {
  const redis = await startRedis(t);
  const proc = await service(t, { KVSTORE_URL: redis.url, HTTP_WORKERS: '2', KVSTORE_TIMEOUT: '500ms' });
  const agent = new http.Agent({ keepAlive: true, maxSockets: 50 });
  t.teardown(() => agent.destroy());
  const run = randomUUID();
  const bodies = [
    { domain: 'faults', descriptors: [D('big', run)] },
    { domain: 'faults', descriptors: [D('small', run)] },
  ];

  const TOTAL = 10_000;
  const KILL_AFTER = 3000;
  let killStartedAt = Infinity;
  let killEndedAt = Infinity;
  let kill: Promise<void> | undefined;
  const answers = await runLoad(
    TOTAL,
    50,
    (index) => timedPost(agent, proc.httpPort!, bodies[index % 2]),
    (_answer, done) => {
      if (done === KILL_AFTER) {
        killStartedAt = performance.now();
        kill = redis.stop().then(() => void (killEndedAt = performance.now()));
      }
    },
  );
  await kill;

  const counts = countByStatus(answers);
  t.comment(`answers by status: ${JSON.stringify(counts)}; slowest: ${JSON.stringify(slowest(answers))}`);
  t.same(Object.keys(counts).filter((s) => !['200', '429', '400'].includes(s)), [], 'every request got 200, 429 or 400 (no socket error, no other status)');
  t.equal(answers.filter((a) => a === undefined).length, 0, 'every request got an answer');
  const before = answers.filter((a) => a.endedAt < killStartedAt);
  const after = answers.filter((a) => a.startedAt > killEndedAt);
  t.ok(before.length >= KILL_AFTER - 50, `${before.length} answers before the kill`);
  t.same(countByStatus(before.filter((a) => a.status === 400)), {}, 'no failure before the kill');
  t.ok(before.some((a) => a.status === 429), 'the small limit was passed before the kill (429s)');
  t.ok(after.length > 5000, `${after.length} requests started after Redis was gone`);
  t.same(countByStatus(after), { 400: after.length }, 'every request started after the kill failed with 400');
  const failed = answers.filter((a) => a.status === 400);
  const withoutHeader = failed.filter((a) => a.error === undefined || a.error === '');
  t.equal(withoutHeader.length, 0, 'every 400 says why in X-Ratelimit-Error');
  t.match(failed[0]?.error ?? '', /key-value store/, `the reason names the store: ${failed[0]?.error}`);
  const maxMs = Math.max(...answers.map((a) => a.ms));
  t.ok(maxMs < 500 + MARGIN_MS, `slowest request ${Math.round(maxMs)} ms < KVSTORE_TIMEOUT 500 ms + ${MARGIN_MS} ms`);
  t.ok(proc.running, 'the service process is still running');
  t.equal(await proc.stat(REDIS_ERROR), failed.length, `redis_error counts the ${failed.length} failures exactly`);

  await redis.restart();
  const resumeMs = await timeUntil('a 200 after Redis restarted', () => pollOnce(proc, bodies[0]), 5000);
  t.ok(resumeMs < 2000, `decisions resumed ${Math.round(resumeMs)} ms after the restart (< 2000 ms)`);
  // The other threads too: gRPC is decided on the main thread.
  const client = new grpc.Client(proc.grpcAddress, grpc.credentials.createInsecure());
  t.teardown(() => client.close());
  const grpcMs = await timeUntil(
    'gRPC OK after the restart',
    async () => {
      const a = await timedGrpc(client, bodies[0], 5000);
      return { ok: a.status === 200, detail: a };
    },
    5000,
  );
  t.ok(resumeMs + grpcMs < 2000, `gRPC (main thread) resumed too, ${Math.round(resumeMs + grpcMs)} ms after the restart`);
  const keys = await redis.keys(`faults_big_${run}_*`);
  t.equal(keys.length, 1, 'one key in the restarted Redis');
  t.equal(await redis.cli('GET', keys[0] ?? ''), '2', 'the two successful calls counted there (the old counts died with the server: no persistence)');
});

t.test('sentinel failover: decisions resume on the promoted replica, and count there', async (t) => {
  const group = await startSentinelGroup(t, { masterName: 'faultmaster' });
  const proc = await service(t, { KVSTORE_TYPE: 'sentinel', KVSTORE_URL: group.sentinelUrl, HTTP_WORKERS: '1', KVSTORE_TIMEOUT: '500ms' });
  const run = randomUUID();
  const body = { domain: 'faults', descriptors: [D('small', run)] };
  const LIMIT = 100;
  const remainingOf = (a: TimedAnswer): number => (JSON.parse(a.body) as { statuses: Array<{ limitRemaining?: number }> }).statuses[0]?.limitRemaining ?? 0;

  for (let i = 1; i <= 5; i++) {
    const a = await timedPost(false, proc.httpPort!, body);
    t.equal(a.status, 200, `request ${i} before the failover`);
  }
  const [key] = await group.master.keys(`faults_small_${run}_*`);
  t.ok(key, `the counter is on the master (${key})`);
  t.equal(await group.master.cli('GET', key ?? ''), '5');
  // The replica has it too (WAIT: replicated before the master dies, so no count is lost by design of the test).
  t.equal(await group.master.cli('WAIT', '1', '2000'), '1', 'the replica acknowledged the writes');

  const oldPort = group.master.port;
  await group.master.stop();
  const failing = await timedPost(false, proc.httpPort!, body);
  t.equal(failing.status, 400, `with the master gone a request fails (${failing.error})`);
  t.ok(failing.ms < 500 + MARGIN_MS, `and fails in time (${Math.round(failing.ms)} ms)`);
  const newPort = await group.waitForFailover(oldPort);
  t.equal(newPort, group.replica.port, 'the sentinels promoted the replica');

  let last: TimedAnswer | undefined;
  const resumeMs = await timeUntil(
    'a 200 after the failover',
    async () => {
      last = await timedPost(false, proc.httpPort!, body, 5000);
      return { ok: last.status === 200, detail: { status: last.status, error: last.error } };
    },
    10_000,
    50,
  );
  t.ok(resumeMs < 5000, `decisions resumed ${Math.round(resumeMs)} ms after the sentinels reported the new master (< 5000 ms)`);
  for (let i = 0; i < 5; i++) {
    last = await timedPost(false, proc.httpPort!, body);
    t.equal(last.status, 200, `request ${i + 1} after the failover`);
  }
  // The service's answer and the new master agree: the count continued from the replicated 5.
  const onNewMaster = Number(await group.replica.cli('GET', key ?? ''));
  t.equal(onNewMaster, LIMIT - remainingOf(last!), `the new master holds the count the service answered with (${onNewMaster})`);
  t.ok(onNewMaster >= 11, 'and it continued from the replicated count');
  const role = await group.replica.info('replication');
  t.equal(role['role'], 'master', 'the counts went to the promoted replica, now a master');
  const fresh = { domain: 'faults', descriptors: [D('small', `${run}-fresh`)] };
  t.equal((await timedPost(false, proc.httpPort!, fresh)).status, 200);
  t.same(await group.replica.keys(`faults_small_${run}-fresh_*`), [key!.replace(run, `${run}-fresh`)], 'a new key is created on the new master');
});

t.test('a Redis that does not answer (SIGSTOP): requests fail within KVSTORE_TIMEOUT, then resume after SIGCONT', async (t) => {
  const redis = await startRedis(t);
  const proc = await service(t, { KVSTORE_URL: redis.url, KVSTORE_TIMEOUT: '300ms', HTTP_WORKERS: '1' });
  const agent = new http.Agent({ keepAlive: true, maxSockets: 20 });
  t.teardown(() => agent.destroy());
  const body = { domain: 'faults', descriptors: [D('big', randomUUID())] };
  t.same(countByStatus(await runLoad(100, 20, () => timedPost(agent, proc.httpPort!, body))), { 200: 100 }, 'all OK while Redis answers');
  const pid = redis.pid!;
  t.teardown(() => {
    try {
      process.kill(pid, 'SIGCONT');
    } catch {
      // already gone
    }
  });
  process.kill(pid, 'SIGSTOP');
  await waitFor('redis-server to be stopped (state T in /proc)', async () => /^\d+ \(.*\) T /.test(await readFile(`/proc/${pid}/stat`, 'utf8')), 5000);
  const frozen = await runLoad(100, 20, () => timedPost(agent, proc.httpPort!, body, 10_000));
  const openLoop: Array<Promise<TimedAnswer>> = [];
  for (let i = 0; i < 20; i++) {
    openLoop.push(timedPost(agent, proc.httpPort!, body, 10_000));
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const all = [...frozen, ...(await Promise.all(openLoop))];
  t.comment(`while frozen: ${JSON.stringify(countByStatus(all))}; slowest: ${JSON.stringify(slowest(all))}`);
  t.same(countByStatus(all), { 400: 120 }, 'every request fails with 400');
  const maxMs = Math.max(...all.map((a) => a.ms));
  t.ok(maxMs < 300 + MARGIN_MS, `the slowest took ${Math.round(maxMs)} ms (KVSTORE_TIMEOUT 300 ms + ${MARGIN_MS} ms)`);
  t.equal(await proc.stat(REDIS_ERROR), 120, 'redis_error counts every failure');
  process.kill(pid, 'SIGCONT');
  const resumeMs = await timeUntil('a 200 after Redis was resumed', () => pollOnce(proc, body), 5000);
  t.ok(resumeMs < 2000, `decisions resumed ${Math.round(resumeMs)} ms after SIGCONT`);
});

t.test('memcached killed: requests fail fast and are counted, then recover after a restart', async (t) => {
  const memcached = await startMemcached(t);
  const proc = await service(t, { BACKEND_TYPE: 'objcache', OBJCACHE_HOST_PORT: memcached.url, OBJCACHE_TIMEOUT: '300ms', HTTP_WORKERS: '1' });
  const agent = new http.Agent({ keepAlive: true, maxSockets: 10 });
  t.teardown(() => agent.destroy());
  const run = randomUUID();
  const body = { domain: 'faults', descriptors: [D('big', run)] };
  const ok = await runLoad(100, 10, () => timedPost(agent, proc.httpPort!, body));
  t.same(countByStatus(ok), { 200: 100 }, 'all OK while memcached runs');
  const errorsBefore = (await proc.stat(REDIS_ERROR)) ?? 0;
  t.equal(errorsBefore, 0);

  await memcached.stop();
  const down = await runLoad(500, 10, () => timedPost(agent, proc.httpPort!, body));
  t.comment(`while down: ${JSON.stringify(countByStatus(down))}; slowest: ${JSON.stringify(slowest(down))}`);
  t.same(countByStatus(down), { 400: 500 }, 'every request fails with 400');
  t.equal(down.filter((a) => !/object cache/.test(a.error ?? '')).length, 0, `X-Ratelimit-Error names the object cache: ${down[0]?.error}`);
  const maxMs = Math.max(...down.map((a) => a.ms));
  t.ok(maxMs < 300 + MARGIN_MS, `fast: the slowest took ${Math.round(maxMs)} ms (OBJCACHE_TIMEOUT 300 ms + ${MARGIN_MS} ms)`);
  t.equal(await proc.stat(REDIS_ERROR), 500, 'redis_error counts every failure');
  t.ok(proc.running, 'the service is still running');

  await memcached.restart();
  const resumeMs = await timeUntil('a 200 after memcached restarted', () => pollOnce(proc, body), 5000);
  t.ok(resumeMs < 2000, `decisions resumed ${Math.round(resumeMs)} ms after the restart`);
  const again = await runLoad(100, 10, () => timedPost(agent, proc.httpPort!, body));
  t.same(countByStatus(again), { 200: 100 }, 'all OK again, on the kept-alive connections too');
});

t.test('a memcached that does not answer (SIGSTOP): requests fail within OBJCACHE_TIMEOUT, never hang', async (t) => {
  const memcached = await startMemcached(t);
  const proc = await service(t, { BACKEND_TYPE: 'objcache', OBJCACHE_HOST_PORT: memcached.url, OBJCACHE_TIMEOUT: '300ms', HTTP_WORKERS: '1' });
  const agent = new http.Agent({ keepAlive: true, maxSockets: 20 });
  t.teardown(() => agent.destroy());
  const body = { domain: 'faults', descriptors: [D('big', randomUUID())] };
  t.same(countByStatus(await runLoad(100, 20, () => timedPost(agent, proc.httpPort!, body))), { 200: 100 }, 'all OK while memcached answers');

  const pid = memcached.pid!;
  // Registered before the stop: a frozen memcached must not outlive the test (the server's own teardown kills it after).
  t.teardown(() => {
    try {
      process.kill(pid, 'SIGCONT');
    } catch {
      // already gone
    }
  });
  process.kill(pid, 'SIGSTOP');
  // kill() only queues the signal: memcached's threads may answer a few more requests until it is delivered.
  await waitFor('memcached to be stopped (state T in /proc)', async () => /^\d+ \(.*\) T /.test(await readFile(`/proc/${pid}/stat`, 'utf8')), 5000);
  // Closed loop: 20 clients, each sending again when answered.
  const frozen = await runLoad(100, 20, () => timedPost(agent, proc.httpPort!, body, 10_000));
  t.comment(`closed loop while frozen: ${JSON.stringify(countByStatus(frozen))}; slowest: ${JSON.stringify(slowest(frozen))}`);
  t.same(countByStatus(frozen), { 400: 100 }, 'every request fails with 400 (none hangs until the client gives up)');
  const maxMs = Math.max(...frozen.map((a) => a.ms));
  t.ok(maxMs < 300 + MARGIN_MS, `the slowest took ${Math.round(maxMs)} ms (OBJCACHE_TIMEOUT 300 ms + ${MARGIN_MS} ms)`);
  // Open loop: a request every 50 ms whatever the answers, as real traffic arrives. A timeout
  // that only fires once the connection has been idle for OBJCACHE_TIMEOUT never fires here.
  const openLoop: Array<Promise<TimedAnswer>> = [];
  for (let i = 0; i < 40; i++) {
    openLoop.push(timedPost(agent, proc.httpPort!, body, 10_000));
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const arrivals = await Promise.all(openLoop);
  t.comment(`open loop while frozen: ${JSON.stringify(countByStatus(arrivals))}; slowest: ${JSON.stringify(slowest(arrivals))}`);
  t.same(countByStatus(arrivals), { 400: 40 }, 'open loop: every request fails with 400');
  const maxOpenMs = Math.max(...arrivals.map((a) => a.ms));
  t.ok(maxOpenMs < 300 + MARGIN_MS, `open loop: the slowest took ${Math.round(maxOpenMs)} ms (OBJCACHE_TIMEOUT 300 ms + ${MARGIN_MS} ms)`);
  t.equal(await proc.stat(REDIS_ERROR), 140, 'redis_error counts every failure');

  process.kill(pid, 'SIGCONT');
  const resumeMs = await timeUntil('a 200 after memcached was resumed', () => pollOnce(proc, body), 5000);
  t.ok(resumeMs < 2000, `decisions resumed ${Math.round(resumeMs)} ms after SIGCONT`);
});

t.test('memcached connections that go silent (no reset) are replaced under steady traffic', async (t) => {
  const memcached = await startMemcached(t);
  const proxy = await startBlackholeProxy(t, memcached.port);
  const proc = await service(t, { BACKEND_TYPE: 'objcache', OBJCACHE_HOST_PORT: proxy.url, OBJCACHE_TIMEOUT: '300ms', HTTP_WORKERS: '0' });
  // Enough sockets that no request waits in the client for one (its duration is the service's).
  const agent = new http.Agent({ keepAlive: true, maxSockets: 100 });
  t.teardown(() => agent.destroy());
  const body = { domain: 'faults', descriptors: [D('big', randomUUID())] };
  t.same(countByStatus(await runLoad(50, 5, () => timedPost(agent, proc.httpPort!, body))), { 200: 50 }, 'all OK through the proxy');
  const acceptedBefore = proxy.accepted;
  t.ok(proxy.silenceExisting() > 0, 'the open connections went silent');
  const silencedAt = performance.now();
  // Steady traffic, a request every 20 ms for 2.5 s: the connections are never idle.
  const sent: Array<Promise<TimedAnswer>> = [];
  while (performance.now() - silencedAt < 2500) {
    sent.push(timedPost(agent, proc.httpPort!, body, 10_000));
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  const answers = await Promise.all(sent);
  const late = answers.filter((a) => a.startedAt - silencedAt > 1500);
  t.comment(`all: ${JSON.stringify(countByStatus(answers))}; from 1.5 s on: ${JSON.stringify(countByStatus(late))}; slowest: ${JSON.stringify(slowest(answers, 3))}`);
  t.ok(answers.some((a) => a.status === 400), 'requests on the silent connections failed');
  t.ok(Math.max(...answers.map((a) => a.ms)) < 300 + MARGIN_MS, 'none waited past OBJCACHE_TIMEOUT + margin');
  t.same(countByStatus(late), { 200: late.length }, 'from 1.5 s after, every request is OK again: the silent connections were replaced');
  t.ok(proxy.accepted > acceptedBefore, `new connections were opened (${proxy.accepted - acceptedBefore})`);
});

t.test('memcached counts WEEK, MONTH and YEAR windows (TTLs over 30 days are absolute times in memcached)', async (t) => {
  const memcached = await startMemcached(t);
  const { root } = await runtimeRoot(t, {
    'long.yaml': `domain: long
descriptors:
  - key: week
    rate_limit: { unit: week, requests_per_unit: 100 }
  - key: month
    rate_limit: { unit: month, requests_per_unit: 100 }
  - key: year
    rate_limit: { unit: year, requests_per_unit: 100 }
`,
  });
  const proc = await startProcess(t, { RUNTIME_ROOT: root, BACKEND_TYPE: 'objcache', OBJCACHE_HOST_PORT: memcached.url, HTTP_WORKERS: '0' });
  const units = { week: 604800, month: 2592000, year: 31536000 };
  for (const [unit, seconds] of Object.entries(units)) {
    const value = randomUUID();
    const body = { domain: 'long', descriptors: [D(unit, value)] };
    const key = `long_${unit}_${value}_${Math.floor(Date.now() / 1000 / seconds) * seconds}`;
    t.equal((await proc.post(body)).json?.statuses?.[0]?.limitRemaining, 99, `${unit}: first request`);
    // The increment is asynchronous: the second request must wait for it to land.
    const stored = await waitFor(`${key} in memcached`, () => memcached.getWithTtl(key), 3000).catch(() => undefined);
    t.equal(stored?.value, '1', `${unit}: the counter is in memcached`);
    t.ok(stored !== undefined && stored.ttl > seconds - 10 && stored.ttl <= seconds + 300, `${unit}: it expires in its unit plus jitter (${stored?.ttl} s)`);
    t.equal((await proc.post(body)).json?.statuses?.[0]?.limitRemaining, 98, `${unit}: the second request sees the first`);
  }
});
