/**
 * The key-value store (Redis) backend against real redis-server processes: upstream's
 * integration tests (per-second limit, minute limit exhausted, two descriptors, stop-increment,
 * CACHE_KEY_PREFIX) over TCP, a unix socket, a password, an ACL user and a per-second server,
 * with the answers checked exactly and the keys, values and TTLs read back with redis-cli; wrong
 * credentials; and the real process with HTTP workers. TLS, sentinel and cluster are in
 * redis-topologies.test.ts.
 */
import t from 'tap';
import { expectCounters, expectFailingSetups, REDIS_ERROR, redisInspector, runStoreScenarios, scenario2, splitRedisInspector, storeService } from '../support/backend-scenarios.js';
import { runtimeRoot, startProcess } from '../support/process-harness.js';
import { D, fixture } from '../support/service-inputs.js';
import { waitFor } from '../support/wait-for.js';
import { startRedis } from '../support/store-servers.js';
import { oneWindowAhead } from '../support/wall-clock.js';
import { ok, over, response } from './expect.js';

t.test('single server over TCP (KVSTORE_URL alone selects the store)', async (t) => {
  const redis = await startRedis(t);
  await runStoreScenarios(t, { store: redisInspector(redis), env: { KVSTORE_URL: redis.url }, tag: 'tcp' });

  await t.test('with the default jitter a TTL is its unit plus [0, 300) s', async (t) => {
    const svc = await storeService(t, { KVSTORE_URL: redis.url }, { EXPIRATION_JITTER_MAX_SECONDS: '300' });
    const ttls: number[] = [];
    for (let i = 0; i < 8; i++) {
      const key = `another_key3_jitter${i}-tcp_997200`;
      await svc.post({ domain: 'another', descriptors: [D('key3', `jitter${i}-tcp`)] });
      ttls.push(Number(await redis.cli('TTL', key)));
    }
    t.ok(ttls.every((ttl) => ttl >= 3600 - 2 && ttl < 3600 + 300), `every TTL in [3600, 3900): ${ttls.join(' ')}`);
    t.ok(new Set(ttls).size > 1, 'the TTLs differ: jitter is random per key');
  });
});

t.test('single server over a unix socket', async (t) => {
  const redis = await startRedis(t, { unixSocket: true });
  const socket = redis.socketPath as string;
  await t.test('KVSTORE_URL is a path: the socket type follows', async (t) => {
    await runStoreScenarios(t, { store: redisInspector(redis), env: { BACKEND_TYPE: 'kvstore', KVSTORE_URL: socket }, tag: 'unix' });
  });
  await t.test('KVSTORE_SOCKET_TYPE=unix', async (t) => {
    const svc = await storeService(t, { BACKEND_TYPE: 'kvstore', KVSTORE_SOCKET_TYPE: 'unix', KVSTORE_URL: socket });
    await scenario2(t, { svc, store: redisInspector(redis), prefix: '' }, 's2-unixtype');
  });
});

t.test('password and ACL user', async (t) => {
  const redis = await startRedis(t, { password: 'default-secret', aclUser: { user: 'limiter', password: 'acl-secret' } });
  const store = redisInspector(redis);
  await t.test('KVSTORE_AUTH=<password>', (t) =>
    runStoreScenarios(t, { store, env: { BACKEND_TYPE: 'kvstore', KVSTORE_URL: redis.url, KVSTORE_AUTH: 'default-secret' }, tag: 'pw' }),
  );
  await t.test('KVSTORE_AUTH=<user>:<password>', (t) =>
    runStoreScenarios(t, { store, env: { BACKEND_TYPE: 'kvstore', KVSTORE_URL: redis.url, KVSTORE_AUTH: 'limiter:acl-secret' }, tag: 'acl' }),
  );
  await t.test('wrong or missing credentials: every request fails with 400 and redis_error, nothing crashes', (t) => {
    const env = { BACKEND_TYPE: 'kvstore', KVSTORE_URL: redis.url };
    return expectFailingSetups(
      t,
      [
        ['a wrong password', { ...env, KVSTORE_AUTH: 'wrong-secret' }, store],
        ['the ACL user with a wrong password', { ...env, KVSTORE_AUTH: 'limiter:wrong-secret' }, store],
        ['an unknown user', { ...env, KVSTORE_AUTH: 'nobody:acl-secret' }, store],
        ['no password', env, store],
      ],
      // WRONGPASS/NOAUTH while connecting, "not connected (reconnecting)" between attempts.
      /^key-value store/,
    );
  });
});

/**
 * TLS servers sign with certs.server (SAN localhost, 127.0.0.1) and listen on 127.0.0.1 and
 * 127.0.0.2; the test reads them over their plain unix socket (a TLS handshake per redis-cli run
 * would cost more than the rest of the test).
 */
t.test('KVSTORE_PERSECOND=true: SECOND counters in the per-second server only, the others in the main one', async (t) => {
  const [main, perSecond] = await Promise.all([startRedis(t), startRedis(t)]);
  const isSecond = (key: string) => key.includes('basic_key1_');
  await runStoreScenarios(t, {
    // A read finds each key only in the server `route` names, or fails.
    store: splitRedisInspector([main, perSecond], (key) => (isSecond(key) ? 1 : 0)),
    env: { BACKEND_TYPE: 'kvstore', KVSTORE_URL: main.url, KVSTORE_PERSECOND: 'true', KVSTORE_PERSECOND_URL: perSecond.url },
    tag: 'ps',
  });
  const [mainKeys, perSecondKeys] = await Promise.all([main.keys('*'), perSecond.keys('*')]);
  t.ok(mainKeys.length >= 8, `the main server has the MINUTE and HOUR counters (${mainKeys.length})`);
  t.same(mainKeys.filter(isSecond), [], 'no SECOND counter in the main server');
  t.same(perSecondKeys.filter((key) => !isSecond(key)), [], 'nothing but SECOND counters in the per-second server');

  await t.test('one request with a SECOND and a MINUTE descriptor is split over both servers', async (t) => {
    const svc = await storeService(t, { BACKEND_TYPE: 'kvstore', KVSTORE_URL: main.url, KVSTORE_PERSECOND: 'true', KVSTORE_PERSECOND_URL: perSecond.url });
    const r = await svc.post({ domain: 'basic', descriptors: [D('key1', 'mixed-ps'), D('one_per_minute', 'mixed-ps')] });
    t.same(r.json, response('OK', [ok(50, 'SECOND', 49, 1), ok(1, 'MINUTE', 0, 20)]));
    t.equal(await perSecond.cli('GET', 'basic_key1_mixed-ps_1000000'), '1');
    t.equal(await main.cli('EXISTS', 'basic_key1_mixed-ps_1000000'), '0');
    t.equal(await main.cli('GET', 'basic_one_per_minute_mixed-ps_999960'), '1');
    t.equal(await perSecond.cli('EXISTS', 'basic_one_per_minute_mixed-ps_999960'), '0');
  });
});

t.test('the real process with HTTP_WORKERS=2 counts in Redis from every worker thread', async (t) => {
  const redis = await startRedis(t);
  const { root } = await runtimeRoot(t, { 'another.yaml': fixture('another.yaml') });
  const proc = await startProcess(t, {
    RUNTIME_ROOT: root,
    KVSTORE_URL: redis.url,
    HTTP_WORKERS: '2',
    KVSTORE_POOL_SIZE: '3',
    EXPIRATION_JITTER_MAX_SECONDS: '0',
  });
  // The main thread and both HTTP threads open their own connection (3 shared over 3 threads).
  await waitFor('3 service connections in CLIENT LIST', async () => {
    const clients = (await redis.cli('CLIENT', 'LIST')).split('\n').filter((line) => !line.includes('cmd=client'));
    return clients.length >= 3;
  });
  // Real clock: stay clear of an hour boundary so every request counts in one window.
  await oneWindowAhead(3_600_000, 10_000);
  const hourLeft = () => 3600 - (Math.floor(Date.now() / 1000) % 3600);
  const hour = Math.floor(Date.now() / 1000 / 3600) * 3600;

  for (let i = 0; i < 12; i++) {
    const r = await proc.post({ domain: 'another', descriptors: [D('key3', 'proc')] });
    const reset = hourLeft();
    const status = r.json?.statuses?.[0];
    const got = Number(String(status?.durationUntilReset).replace('s', ''));
    t.ok(Math.abs(got - reset) <= 1, `request ${i}: durationUntilReset ${got}s ~ ${reset}s`);
    const expected = i < 10 ? ok(10, 'HOUR', 9 - i, got) : over(10, 'HOUR', got);
    t.same(r.json, response(i < 10 ? 'OK' : 'OVER_LIMIT', [expected]), `request ${i}`);
    t.equal(r.status, i < 10 ? 200 : 429);
  }
  await expectCounters(t, redisInspector(redis), { [`another_key3_proc_${hour}`]: { value: 12, ttl: 3600 } }, 'after 12 requests');

  // 25 at once: the threads share one counter through Redis, so exactly 20 pass.
  const day = Math.floor(Date.now() / 1000 / 86400) * 86400;
  const answers = await Promise.all(Array.from({ length: 25 }, () => proc.post({ domain: 'another', descriptors: [D('key4', 'proc-burst')] })));
  t.equal(answers.filter((r) => r.status === 200).length, 20, '20 allowed');
  t.equal(answers.filter((r) => r.status === 429).length, 5, '5 over');
  const remaining = answers.filter((r) => r.status === 200).map((r) => r.json.statuses[0].limitRemaining ?? 0);
  t.same([...remaining].sort((a, b) => a - b), Array.from({ length: 20 }, (_, i) => i), 'each remaining count 0..19 once');
  t.equal(await redis.cli('GET', `another_key4_proc-burst_${day}`), '25');
  t.equal((await proc.stat(REDIS_ERROR)) ?? 0, 0, 'no store errors');
});

