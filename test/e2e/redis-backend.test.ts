/**
 * The key-value store (Redis) backend against real redis-server processes: upstream's
 * integration tests (per-second limit, minute limit exhausted, two descriptors, stop-increment,
 * CACHE_KEY_PREFIX) on every way of reaching Redis (TCP, unix socket, password, ACL user, TLS,
 * mutual TLS, TLS without hostname verification, sentinel, cluster, a per-second server), with
 * the answers checked exactly and the keys, values and TTLs read back with redis-cli. Then the
 * failures (wrong credentials, TLS that cannot work) and the real process with HTTP workers.
 */
import t, { type Test } from 'tap';
import {
  expectBadRequest,
  expectCounters,
  redisClusterInspector,
  redisInspector,
  runStoreScenarios,
  scenario2,
  splitRedisInspector,
  storeService,
  type StoreInspector,
} from '../support/backend-scenarios.js';
import { generateCerts, type CertSet } from '../support/certs.js';
import { runtimeRoot, startProcess } from '../support/process-harness.js';
import { D, fixture, waitFor, type Service } from '../support/service-harness.js';
import { startRedis, startRedisCluster, startSentinelGroup, type RedisCluster, type RedisServer } from '../support/store-servers.js';
import { ok, over, response } from './expect.js';

const REDIS_ERROR = 'ratelimit.service.call.should_rate_limit.redis_error';

/**
 * Requests fail while the store cannot be used: 400 with the store's reason, redis_error counted
 * per request, nothing stored, and the service keeps answering.
 */
async function expectStoreFailures(t: Test, svc: Service, store: StoreInspector, value: string, reason: RegExp, what: string): Promise<void> {
  const before = svc.stat(REDIS_ERROR);
  for (let i = 0; i < 3; i++) {
    const r = await svc.post({ domain: 'another', descriptors: [D('key2', value)] });
    expectBadRequest(t, r, reason, `${what}: request ${i}`);
    t.equal(svc.stat(REDIS_ERROR) - before, i + 1, `${what}: redis_error counts request ${i}`);
  }
  const health = await svc.request('/healthcheck');
  t.equal(health.status, 200, `${what}: the service is still up and answering`);
  t.same(await store.keys(`*_${value}_*`), [], `${what}: nothing was counted`);
}

/** Each case's service at once (closing one takes a quarter of a second), then closed together. */
async function expectFailingSetups(t: Test, cases: Array<[string, Record<string, string>, StoreInspector]>, reason: RegExp): Promise<void> {
  const closers: Array<() => unknown> = [];
  try {
    await Promise.all(
      cases.map(async ([what, env, store], i) => {
        const svc = await storeService({ teardown: (fn) => void closers.push(fn) }, { KVSTORE_POOL_SIZE: '1', ...env });
        await expectStoreFailures(t, svc, store, `bad${i}`, reason, what);
      }),
    );
  } finally {
    await Promise.all(closers.map((close) => close()));
  }
}

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
async function tlsRedis(t: Test, certs: CertSet, mutual: boolean): Promise<RedisServer> {
  return startRedis(t, {
    unixSocket: true,
    tls: {
      certFile: certs.server.certFile,
      keyFile: certs.server.keyFile,
      caFile: certs.ca.certFile,
      authClients: mutual ? 'yes' : 'no',
      ...(mutual ? { clientCertFile: certs.clientEnvoy.certFile, clientKeyFile: certs.clientEnvoy.keyFile } : {}),
    },
    args: ['--bind', '127.0.0.1', '127.0.0.2'],
  });
}

t.test('TLS', async (t) => {
  const certs = await generateCerts(t);
  const [redis, mutual] = await Promise.all([tlsRedis(t, certs, false), tlsRedis(t, certs, true)]);
  const tlsEnv = { BACKEND_TYPE: 'kvstore', KVSTORE_TLS: 'true', KVSTORE_TLS_CACERT: certs.ca.certFile, KVSTORE_POOL_SIZE: '1' };
  const clientCert = { KVSTORE_TLS_CLIENT_CERT: certs.clientEnvoy.certFile, KVSTORE_TLS_CLIENT_KEY: certs.clientEnvoy.keyFile };
  const otherAddress = (server: RedisServer) => `127.0.0.2:${server.port}`;
  const viaSocket = (server: RedisServer): StoreInspector =>
    redisInspector({
      cli: (...args) => server.cliOverSocket(...args),
      keys: async (pattern = '*') => (await server.cliOverSocket('--scan', '--pattern', pattern)).split('\n').filter((line) => line !== '').sort(),
    });
  const [plainStore, mutualStore] = [viaSocket(redis), viaSocket(mutual)];

  await t.test('KVSTORE_TLS=true with KVSTORE_TLS_CACERT', (t) =>
    runStoreScenarios(t, { store: plainStore, env: { ...tlsEnv, KVSTORE_URL: redis.url }, tag: 'tls' }),
  );
  await t.test('mutual TLS: KVSTORE_TLS_CLIENT_CERT and KVSTORE_TLS_CLIENT_KEY', (t) =>
    runStoreScenarios(t, { store: mutualStore, env: { ...tlsEnv, ...clientCert, KVSTORE_URL: mutual.url }, tag: 'mtls' }),
  );
  await t.test('KVSTORE_TLS_SKIP_HOSTNAME_VERIFICATION=true reaches 127.0.0.2, which the certificate does not name', (t) =>
    runStoreScenarios(t, {
      store: plainStore,
      env: { ...tlsEnv, KVSTORE_URL: otherAddress(redis), KVSTORE_TLS_SKIP_HOSTNAME_VERIFICATION: 'true' },
      tag: 'tls-skip',
    }),
  );
  await t.test('KVSTORE_TLS_SKIP_HOSTNAME_VERIFICATION with mutual TLS', async (t) => {
    const svc = await storeService(t, { ...tlsEnv, ...clientCert, KVSTORE_URL: otherAddress(mutual), KVSTORE_TLS_SKIP_HOSTNAME_VERIFICATION: 'true' });
    await scenario2(t, { svc, store: mutualStore, prefix: '' }, 's2-mtls-skip');
  });

  await t.test('TLS that cannot work: requests fail', (t) =>
    expectFailingSetups(
      t,
      [
        ['without KVSTORE_TLS (plain text to the TLS port)', { BACKEND_TYPE: 'kvstore', KVSTORE_URL: redis.url }, plainStore],
        ['127.0.0.2 without skipping hostname verification', { ...tlsEnv, KVSTORE_URL: otherAddress(redis) }, plainStore],
        ['mutual TLS without a client certificate', { ...tlsEnv, KVSTORE_URL: mutual.url }, mutualStore],
        ['a CA that did not sign the server certificate', { ...tlsEnv, KVSTORE_TLS_CACERT: certs.foreignCa.certFile, KVSTORE_URL: redis.url }, plainStore],
        [
          'skipping hostname verification with a CA that did not sign',
          { ...tlsEnv, KVSTORE_TLS_CACERT: certs.foreignCa.certFile, KVSTORE_URL: otherAddress(redis), KVSTORE_TLS_SKIP_HOSTNAME_VERIFICATION: 'true' },
          plainStore,
        ],
      ],
      /^key-value store/,
    ),
  );
});

t.test('sentinel: KVSTORE_TYPE=sentinel, KVSTORE_URL=<master>,<sentinels>', async (t) => {
  const group = await startSentinelGroup(t, { masterName: 'rlmaster' });
  await runStoreScenarios(t, {
    store: redisInspector(group.master),
    env: { BACKEND_TYPE: 'kvstore', KVSTORE_TYPE: 'sentinel', KVSTORE_URL: group.sentinelUrl },
    tag: 'sentinel',
  });
  t.equal(await group.master.cli('GET', 'another_key2_s3-sentinel_999960'), '25', 'the counters are on the master the sentinels name');
});

/** node index -> its slots, from CLUSTER NODES (`... <slot> <from-to> ...` after the 8th field). */
async function slotOwners(cluster: RedisCluster): Promise<(slot: number) => number> {
  const ranges: Array<[number, number, number]> = [];
  for (const line of (await cluster.cli('CLUSTER', 'NODES')).split('\n')) {
    const fields = line.trim().split(' ');
    const port = Number((fields[1] ?? '').split('@')[0]?.split(':')[1]);
    const node = cluster.nodes.findIndex((n) => n.port === port);
    for (const range of fields.slice(8)) {
      const [from, to] = range.split('-').map(Number) as [number, number | undefined];
      ranges.push([from, to ?? from, node]);
    }
  }
  return (slot) => {
    const found = ranges.find(([from, to]) => slot >= from && slot <= to);
    if (found === undefined) throw new Error(`no node serves slot ${slot}`);
    return found[2];
  };
}

t.test('cluster with 3 masters: KVSTORE_TYPE=cluster', async (t) => {
  const cluster = await startRedisCluster(t, { masters: 3 });
  const owner = await slotOwners(cluster);
  const nodeOf = async (key: string) => owner(Number(await cluster.cli('CLUSTER', 'KEYSLOT', key)));
  const chosen: Array<[string, string]> = [];
  /** A value whose key2 (MINUTE) and key3 (HOUR) counters hash to different nodes. */
  const pairValue = async (prefix: string, scenario: 4 | 5): Promise<string> => {
    const window = prefix === '' ? { minute: 999960, hour: 997200 } : { minute: 1200, hour: 0 };
    for (let i = 0; i < 50; i++) {
      const value = `s${scenario}${prefix === '' ? '' : 'p'}x${i}-cluster`;
      const k2 = `${prefix}another_key2_${value}_${window.minute}`;
      const k3 = `${prefix}another_key3_${value}_${window.hour}`;
      if ((await nodeOf(k2)) !== (await nodeOf(k3))) {
        chosen.push([k2, k3]);
        return value;
      }
    }
    throw new Error('no value with keys on two nodes');
  };
  await runStoreScenarios(t, {
    store: redisClusterInspector(cluster),
    env: { BACKEND_TYPE: 'kvstore', KVSTORE_TYPE: 'cluster', KVSTORE_URL: cluster.url },
    tag: 'cluster',
    pairValue,
  });
  t.equal(chosen.length, 3, 'scenarios 4, 5 and 9 used two-node pairs');
  const perNode = await Promise.all(cluster.nodes.map((node) => node.keys('*')));
  for (const [k2, k3] of chosen) {
    const n2 = perNode.findIndex((keys) => keys.includes(k2));
    const n3 = perNode.findIndex((keys) => keys.includes(k3));
    t.ok(n2 >= 0 && n3 >= 0 && n2 !== n3, `${k2} (node ${n2}) and ${k3} (node ${n3}), counted in one request, live on different nodes`);
  }
  t.ok(perNode.filter((keys) => keys.length > 0).length >= 2, 'the counters are spread over the nodes');

  await t.test('concurrent requests for keys on every node', async (t) => {
    const svc = await storeService(t, { BACKEND_TYPE: 'kvstore', KVSTORE_TYPE: 'cluster', KVSTORE_URL: cluster.url, KVSTORE_POOL_SIZE: '1' });
    const values = Array.from({ length: 24 }, (_, i) => `conc${i}-cluster`);
    const keys = values.map((value) => `another_key2_${value}_999960`);
    const nodes = new Set(await Promise.all(keys.map(nodeOf)));
    t.equal(nodes.size, 3, 'the keys hash to all three nodes');
    // Sent at once, the store gets them in one event-loop turn.
    const answers = await Promise.all(values.map((value) => svc.post({ domain: 'another', descriptors: [D('key2', value)] })));
    t.same(
      answers.map((r) => r.headers['x-ratelimit-error'] ?? r.status),
      values.map(() => 200),
      'every request is answered 200',
    );
    t.same(answers.map((r) => r.json), values.map(() => response('OK', [ok(20, 'MINUTE', 19, 20)])));
    const reads = await redisClusterInspector(cluster).read(keys);
    t.same(reads.map((r) => r?.value), values.map(() => 1), 'each counter is 1');
  });
});

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
  const hourLeft = () => 3600 - (Math.floor(Date.now() / 1000) % 3600);
  if (hourLeft() < 10) await waitFor('the next hour', () => hourLeft() > 3000, 15_000, 200);
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
