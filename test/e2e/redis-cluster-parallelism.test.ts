/**
 * KVSTORE_CLUSTER_PIPELINE_PARALLELISM against a real 3-master Redis Cluster: a request's keys
 * cost one round trip per node (the node's `total_reads_processed` grows by one), and the nodes
 * are reached one after the other with 1, all at once with 0 (up to KVSTORE_POOL_SIZE).
 */
import t, { type Test } from 'tap';
import { startService, type Service } from '../support/service-harness.js';
import { D } from '../support/service-inputs.js';
import { waitFor } from '../support/wait-for.js';
import { parseInfo, startRedisCluster, type RedisCluster, type RedisServer } from '../support/store-servers.js';

const RULES = 'domain: fan\ndescriptors:\n  - key: k\n    rate_limit:\n      unit: minute\n      requests_per_unit: 100\n';
/** The key of value `v` in the harness's first minute window. */
const keyOf = (value: string) => `fan_k_${value}_999960`;
const PAUSE_MS = 1500;

interface NodeFigures {
  reads: number;
  evalsha: number;
  slotRefreshes: number;
}

async function figures(node: RedisServer): Promise<NodeFigures> {
  const info = parseInfo(await node.cli('INFO', 'stats', 'commandstats'));
  const calls = (command: string) => Number(/calls=(\d+)/.exec(info[`cmdstat_${command}`] ?? '')?.[1] ?? 0);
  return { reads: Number(info['total_reads_processed']), evalsha: calls('evalsha'), slotRefreshes: calls('cluster|slots') };
}

async function service(t: Test, cluster: RedisCluster, parallelism: string): Promise<Service> {
  return startService(t, {
    files: { 'fan.yaml': RULES },
    env: {
      BACKEND_TYPE: 'kvstore',
      KVSTORE_TYPE: 'cluster',
      KVSTORE_URL: cluster.url,
      KVSTORE_POOL_SIZE: '3',
      EXPIRATION_JITTER_MAX_SECONDS: '0',
      REDIS_CLUSTER_PIPELINE_PARALLELISM: parallelism,
      // Longer than the pause below, so a paused node delays the answer instead of failing it.
      KVSTORE_TIMEOUT: '5s',
    },
  });
}

const request = (values: readonly string[]) => ({ domain: 'fan', descriptors: values.map((value) => D('k', value)) });

/**
 * Two values per node, the first two on node 0 (so node 0's calls are sent first): found by
 * counting 48 candidates once and seeing where their keys landed.
 */
async function twoValuesPerNode(t: Test, svc: Service, cluster: RedisCluster, tag: string): Promise<string[][]> {
  const candidates = Array.from({ length: 48 }, (_, i) => `${tag}${i}`);
  for (let round = 0; round < 3; round++) t.equal((await svc.post(request(candidates))).status, 200, 'every connection of the pool has counted once');
  const perNode = await Promise.all(cluster.nodes.map((node) => node.keys(`fan_k_${tag}*`)));
  return perNode.map((keys) => candidates.filter((value) => keys.includes(keyOf(value))).slice(0, 2));
}

for (const [parallelism, serial] of [
  ['1', true],
  ['0', false],
] as const) {
  t.test(`REDIS_CLUSTER_PIPELINE_PARALLELISM=${parallelism}`, async (t) => {
    const cluster = await startRedisCluster(t, { masters: 3 });
    const svc = await service(t, cluster, parallelism);
    const byNode = await twoValuesPerNode(t, svc, cluster, `p${parallelism}v`);
    t.same(byNode.map((values) => values.length), [2, 2, 2], 'two values on each of the three nodes');
    const values = byNode.flat();

    // INFO's own read, and any slot refresh, are counted apart from the request's.
    const idle = await Promise.all(cluster.nodes.map(figures));
    const idleAgain = await Promise.all(cluster.nodes.map(figures));
    const before = await Promise.all(cluster.nodes.map(figures));
    t.equal((await svc.post(request(values))).status, 200);
    const after = await Promise.all(cluster.nodes.map(figures));
    cluster.nodes.forEach((_, i) => {
      const at = (list: NodeFigures[]) => list[i] as NodeFigures;
      const [a, b, i0, i1] = [at(after), at(before), at(idle), at(idleAgain)];
      const infoReads = i1.reads - i0.reads - (i1.slotRefreshes - i0.slotRefreshes);
      t.equal(a.evalsha - b.evalsha, 2, `node ${i} counted its two keys`);
      t.equal(a.reads - b.reads - (a.slotRefreshes - b.slotRefreshes) - infoReads, 1, `node ${i} got them in one round trip`);
    });

    // Node 0 is paused: with 1 the other nodes wait for its answer, with 0 they are not held back.
    const first = cluster.nodes[0] as RedisServer;
    const second = cluster.nodes[1] as RedisServer;
    const secondBefore = (await figures(second)).evalsha;
    await first.cli('CLIENT', 'PAUSE', String(PAUSE_MS), 'ALL');
    const started = Date.now();
    const answer = svc.post(request(values));
    if (serial) {
      const during = await waitFor('the request to reach node 1', async () => ((await figures(second)).evalsha > secondBefore ? Date.now() - started : undefined), 3 * PAUSE_MS);
      t.ok(during >= PAUSE_MS - 200, `node 1 was reached only once node 0 answered (after ${during} ms)`);
    } else {
      const during = await waitFor('the request to reach node 1', async () => ((await figures(second)).evalsha > secondBefore ? Date.now() - started : undefined), PAUSE_MS);
      t.ok(during < PAUSE_MS - 200, `node 1 was reached while node 0 was paused (after ${during} ms)`);
    }
    t.equal((await answer).status, 200, 'the request is answered once node 0 is back');
    t.equal(await cluster.cli('GET', keyOf(values[0] as string)), '5', 'and every key counted once more');
  });
}
