/**
 * Several limits on one descriptor, sliding windows and token buckets through POST /json and
 * gRPC ShouldRateLimit, on the embedded store and on a real redis-server, on the service's
 * manual clock. Requests alternate between the two transports: they share the counters.
 */
import t, { type Test } from 'tap';
import { RlsClient, toGrpcRequest, toJsonShape } from '../support/grpc-client.js';
import { startService, type Service } from '../support/service-harness.js';
import { D } from '../support/service-inputs.js';
import { startRedis, startRedisCluster } from '../support/store-servers.js';
import type { Teardown } from '../support/teardown.js';
import { ALGORITHM_RULES as RULES, MINUTE_START } from '../support/algorithm-rules.js';

interface Status {
  code: string;
  currentLimit: { requestsPerUnit: number; unit: string };
  limitRemaining?: number;
  durationUntilReset: string;
}

async function rig(t: Teardown, env: Record<string, string>) {
  const svc = await startService(t, { env, files: { 'algorithms.yaml': RULES }, now: MINUTE_START });
  const client = new RlsClient(`127.0.0.1:${svc.app.grpcPort}`);
  t.teardown(() => client.close());
  let turn = 0;
  /** One request, by /json and gRPC in turn; answers the descriptor's status in /json's form. */
  const ask = async (key: string): Promise<Status> => {
    const body = { domain: 'algorithms', descriptors: [D(key, 'v')] };
    if (turn++ % 2 === 0) {
      const reply = await svc.post(body);
      const status = (reply.json as { statuses?: Status[] } | undefined)?.statuses?.[0];
      if (status === undefined) {
        const failures = svc.logs.filter((record) => record.level === 'error' || record.level === 'warn');
        throw new Error(`/json answered ${reply.status} ${JSON.stringify(reply.text)}; warnings and errors logged: ${JSON.stringify(failures)}`);
      }
      return status;
    }
    const reply = await client.call(toGrpcRequest(body));
    if (!reply.ok) throw new Error(reply.details);
    return (toJsonShape(reply.response)['statuses'] as Status[])[0] as Status;
  };
  const codes = async (key: string, times: number) => {
    const out: string[] = [];
    for (let i = 0; i < times; i++) out.push((await ask(key)).code);
    return out;
  };
  const at = (second: number, ms = 0) => svc.clock.setMilliseconds((MINUTE_START + second) * 1000 + ms);
  return { svc, ask, codes, at };
}

const OK = 'OK';
const OVER = 'OVER_LIMIT';

async function scenarios(t: Test, env: Record<string, string>, inspect?: (svc: Service) => Promise<void>) {
  const { svc, ask, codes, at } = await rig(t, env);

  at(0);
  t.same(await codes('multi', 4), [OK, OK, OK, OVER], 'several limits: the per-second limit of 3');
  at(1);
  const minute = await ask('multi');
  t.same([minute.code, minute.currentLimit.requestsPerUnit, minute.limitRemaining], [OK, 5, undefined], 'the minute (5) is reported: least remaining');
  t.equal((await ask('multi')).code, OVER, 'the minute is spent');
  t.equal(svc.stat('ratelimit.service.rate_limit.algorithms.multi.limit_2.over_limit'), 1, 'the second limit has its own statistics');

  at(0);
  t.same(await codes('sliding', 11), [...Array<string>(10).fill(OK), OVER], 'sliding window: 10 per minute');
  at(90);
  const half = await ask('sliding');
  t.same([half.code, half.limitRemaining, half.durationUntilReset], [OK, 4, '30s'], 'half the previous 10 weighs: 10 - (5 + 1)');
  t.same(await codes('sliding', 5), [OK, OK, OK, OK, OVER]);

  // Later than every time above: a clock only moves forward (the embedded store keeps a ring of
  // three tables per unit, and a window it has already passed is answered as expired).
  at(120);
  const first = await ask('bucket');
  t.same([first.limitRemaining, first.durationUntilReset], [3, '1s'], 'token bucket: 3 of 4 tokens left, full again in a second');
  t.same(await codes('bucket', 4), [OK, OK, OK, OVER]);
  at(120, 250);
  t.same(await codes('bucket', 2), [OK, OVER], 'one token per 250 ms');
  at(121, 200);
  t.same(await codes('bucket', 4), [OK, OK, OK, OVER], '950 ms of refill across the second boundary: 3.8 tokens');
  await inspect?.(svc);
}

t.test('embedded store', async (t) => {
  await scenarios(t, {});
});

t.test('Redis: the counts of one script each, keys readable with redis-cli', async (t) => {
  const redis = await startRedis(t);
  await scenarios(t, { BACKEND_TYPE: 'redis', REDIS_URL: redis.url }, async () => {
    // (The first limit's per-second counters have expired by now: their TTL is one real second.)
    t.equal(await redis.cli('GET', `algorithms_multi_v_#2_${MINUTE_START}`), '6', 'the second limit: #2_ before the window start; every hit counted, as upstream');
    t.equal(await redis.cli('GET', `{algorithms_sliding_v_}${MINUTE_START + 60}`), '5', 'a sliding window counts only the allowed hits (its key braced: both windows in one cluster slot)');
    const [at, ttl] = await Promise.all([redis.cli('HGET', 'algorithms_bucket_v_tb', 'at'), redis.cli('PTTL', 'algorithms_bucket_v_tb').then(Number)]);
    // Real time runs on meanwhile: on a slow host the second may be over, and the bucket gone (-2).
    if (ttl !== -2) t.equal(at, String((MINUTE_START + 121) * 1000 + 200), 'a bucket: tokens and the time they were counted');
    t.ok(ttl === -2 || (ttl > 0 && ttl <= 1000), `an idle bucket expires within one unit (PTTL ${ttl} ms)`);
  });
});

t.test('Redis Cluster: sliding windows and token buckets of several descriptors in one request, on three masters', async (t) => {
  const cluster = await startRedisCluster(t);
  const { svc } = await rig(t, { BACKEND_TYPE: 'kvstore', KVSTORE_TYPE: 'cluster', KVSTORE_URL: cluster.url, KVSTORE_POOL_SIZE: '3' });
  svc.clock.setMilliseconds(MINUTE_START * 1000);
  // Several values: their keys land in different slots and nodes.
  const values = Array.from({ length: 8 }, (_, i) => `v${i}`);
  const request = { domain: 'algorithms', descriptors: values.flatMap((value) => [D('sliding', value), D('bucket', value)]) };
  const first = await svc.post(request);
  t.equal(first.status, 200, 'counted across the cluster', { body: first.text });
  const statuses = (first.json as { statuses: Status[] }).statuses;
  t.same(
    statuses.map((s) => s.limitRemaining),
    values.flatMap(() => [9, 3]),
    'each sliding window and each bucket counted once',
  );
  const owners = await Promise.all(cluster.nodes.map((node) => node.keys('{algorithms_sliding_*')));
  t.ok(owners.filter((keys) => keys.length > 0).length > 1, 'the sliding windows live on more than one node');
});
