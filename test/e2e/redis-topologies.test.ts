/**
 * The Redis backend on the ways of reaching Redis that need more than one server or a
 * certificate: TLS, mutual TLS, TLS without hostname verification, sentinel and cluster, each
 * with upstream's integration scenarios against real redis-server processes, and the TLS
 * setups that cannot work refused with a reason.
 */
import t, { type Test } from 'tap';
import { expectFailingSetups, redisClusterInspector, redisInspector, runStoreScenarios, scenario2, storeService, type StoreInspector } from '../support/backend-scenarios.js';
import { D } from '../support/service-inputs.js';
import { ok, response } from './expect.js';
import { generateCerts, type CertSet } from '../support/certs.js';
import { startRedis, startRedisCluster, startSentinelGroup, type RedisCluster, type RedisServer } from '../support/store-servers.js';

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

