/**
 * GET /counters and POST /counters/reset on the debug port, against the three real stores (the
 * embedded one, redis-server, memcached), the service in-process on its manual clock: decisions
 * through /json, then the counter as the debug port shows it, the reset, and the next decision
 * counted from zero. Then a real process with DEBUG_TOKEN in pool mode, where the main thread
 * opens an engine of its own to answer.
 */
import t, { type Test } from 'tap';
import { startProcess, runtimeRoot } from '../support/process-harness.js';
import { startService, type Service } from '../support/service-harness.js';
import { httpRequest, type HttpResult } from '../support/http-request.js';
import { D } from '../support/service-inputs.js';
import { waitFor } from '../support/wait-for.js';
import { startMemcached, startRedis } from '../support/store-servers.js';
import type { CounterReport, LimitReport } from '../../src/engine/index.js';

/** A minute boundary (and an hour boundary: 1_699_999_200 % 3600 === 0). */
const HOUR_START = 1_699_999_200;

const RULES = `
domain: counters
descriptors:
  - key: client
    rate_limit: {unit: minute, requests_per_unit: 5}
    descriptors:
      - key: path
        rate_limit: {unit: hour, requests_per_unit: 100}
  - key: open
    rate_limit: {unlimited: true}
  - key: whitelisted
`;

/** Minutes and hours, not seconds: Redis expires keys by the real clock, the service runs on a manual one. */
const ALGORITHM_RULES = `
domain: shapes
descriptors:
  - key: multi
    rate_limit: {unit: minute, requests_per_unit: 3}
    rate_limits:
      - {unit: hour, requests_per_unit: 5}
  - key: sliding
    rate_limit: {unit: minute, requests_per_unit: 10, algorithm: sliding_window}
  - key: bucket
    rate_limit: {unit: minute, requests_per_unit: 4, algorithm: token_bucket}
`;

type Limit = LimitReport;
type Report = CounterReport;

const query = (domain: string, descriptor: string) => `domain=${encodeURIComponent(domain)}&descriptor=${encodeURIComponent(descriptor)}`;

function counters(svc: Service, domain: string, descriptor: string): Promise<HttpResult> {
  return svc.debug(`/counters?${query(domain, descriptor)}`);
}

function reset(debugUrl: string, domain: string, descriptor: string, headers: Record<string, string> = {}): Promise<HttpResult> {
  return httpRequest(`${debugUrl}/counters/reset?${query(domain, descriptor)}`, { method: 'POST', headers });
}

async function hits(svc: Service, domain: string, descriptor: ReturnType<typeof D>, times: number): Promise<number[]> {
  const remaining: number[] = [];
  for (let i = 0; i < times; i++) {
    const reply = await svc.post({ domain, descriptors: [descriptor] });
    remaining.push((reply.json as { statuses: Array<{ limitRemaining?: number }> }).statuses[0]?.limitRemaining ?? 0);
  }
  return remaining;
}

/** The counter once it shows `count` (memcached adds hits after it answers). */
function countReaches(svc: Service, domain: string, descriptor: string, count: number): Promise<Report> {
  return waitFor(`${descriptor} to count ${count}`, async () => {
    const report = (await counters(svc, domain, descriptor)).json as Report;
    return report.limits[0]?.count === count ? report : undefined;
  });
}

async function fixedWindowScenarios(t: Test, env: Record<string, string>) {
  const svc = await startService(t, { env, files: { 'counters.yaml': RULES }, now: HOUR_START + 10 });

  await t.test('a descriptor\'s counter: its rule, key, window, count and remaining', async (t) => {
    await hits(svc, 'counters', D('client', 'alice'), 3);
    await hits(svc, 'counters', D('client', 'bob'), 2);
    const report = await countReaches(svc, 'counters', 'client=alice', 3);
    t.same(report, {
      domain: 'counters',
      descriptor: [{ key: 'client', value: 'alice' }],
      rule: 'counters.client',
      unlimited: false,
      limits: [
        {
          fullKey: 'counters.client',
          name: '',
          requestsPerUnit: 5,
          unit: 'MINUTE',
          algorithm: 'fixed_window',
          shadowMode: false,
          cacheKey: `counters_client_alice_${HOUR_START}`,
          windowStart: HOUR_START,
          resetAt: HOUR_START + 60,
          secondsUntilReset: 50,
          count: 3,
          remaining: 2,
        },
      ],
    });
    const nested = await counters(svc, 'counters', 'client=alice,path=/x');
    t.same(
      [nested.status, (nested.json as Report).rule, (nested.json as Report).limits[0]?.unit, (nested.json as Report).limits[0]?.count],
      [200, 'counters.client.path', 'HOUR', 0],
      'a nested rule: its own counter, not yet counted',
    );
  });

  await t.test('a reset answers what the counter was; the next decision counts from zero', async (t) => {
    const answer = await reset(svc.debugUrl, 'counters', 'client=alice');
    t.equal(answer.status, 200);
    t.equal((answer.json as Report).limits[0]?.count, 3, 'the count before the reset');
    t.equal(((await counters(svc, 'counters', 'client=alice')).json as Report).limits[0]?.count, 0, 'read back: 0');
    t.same(await hits(svc, 'counters', D('client', 'alice'), 1), [4], 'the next decision: 4 of 5 remain');
    await countReaches(svc, 'counters', 'client=alice', 1);
    t.equal(((await counters(svc, 'counters', 'client=bob')).json as Report).limits[0]?.count, 2, "another client's counter is untouched");
  });

  await t.test('a value holding , and = is named in the JSON form', async (t) => {
    await hits(svc, 'counters', D('client', 'a,b=c'), 2);
    const descriptor = JSON.stringify([{ key: 'client', value: 'a,b=c' }]);
    const report = await countReaches(svc, 'counters', descriptor, 2);
    t.equal(report.limits[0]?.cacheKey, `counters_client_a,b=c_${HOUR_START}`);
    t.equal(((await reset(svc.debugUrl, 'counters', descriptor)).json as Report).limits[0]?.count, 2);
    t.equal(((await counters(svc, 'counters', descriptor)).json as Report).limits[0]?.count, 0);
  });

  await t.test('no rule: 404; a malformed request: 400 naming the parameter', async (t) => {
    const cases: Array<[string, number, string, string | undefined]> = [
      [query('nowhere', 'client=alice'), 404, 'NOT_FOUND', undefined],
      [query('counters', 'nobody=x'), 404, 'NOT_FOUND', undefined],
      [query('counters', 'whitelisted=x'), 404, 'NOT_FOUND', undefined],
      [query('counters', 'client=alice,path=/x,deeper=y'), 404, 'NOT_FOUND', undefined],
      ['descriptor=client=alice', 400, 'BAD_REQUEST', 'domain'],
      ['domain=counters', 400, 'BAD_REQUEST', 'descriptor'],
      [query('counters', 'client'), 400, 'BAD_REQUEST', 'descriptor'],
      [query('counters', '[{"key":1}]'), 400, 'BAD_REQUEST', 'descriptor'],
      [query('counters', '[oops'), 400, 'BAD_REQUEST', 'descriptor'],
    ];
    for (const [target, status, code, param] of cases) {
      const reply = await svc.debug(`/counters?${target}`);
      t.equal(reply.status, status, `${target}: ${status}`);
      t.same([(reply.json as { code: string }).code, (reply.json as { param?: string }).param], [code, param], `${target}: ${code}`);
    }
    const unlimited = await counters(svc, 'counters', 'open=x');
    t.same([unlimited.status, (unlimited.json as Report).unlimited, (unlimited.json as Report).limits], [200, true, []], 'an unlimited rule has no counter');
    t.equal((await svc.debug(`/counters/reset?${query('counters', 'client=alice')}`)).status, 405, 'a reset is a POST');
  });
}

t.test('the embedded store', async (t) => fixedWindowScenarios(t, {}));

t.test('Redis', async (t) => {
  const redis = await startRedis(t);
  await fixedWindowScenarios(t, { BACKEND_TYPE: 'redis', REDIS_URL: redis.url });
  t.equal(await redis.cli('EXISTS', `counters_client_bob_${HOUR_START}`), '1', 'the key the report names is the key Redis holds');
});

t.test('memcached', async (t) => {
  const memcached = await startMemcached(t);
  await fixedWindowScenarios(t, { BACKEND_TYPE: 'objcache', OBJCACHE_HOST_PORT: memcached.url });
});

async function algorithmScenarios(t: Test, env: Record<string, string>) {
  const svc = await startService(t, { env, files: { 'shapes.yaml': ALGORITHM_RULES }, now: HOUR_START });
  const at = (second: number) => svc.clock.setMilliseconds((HOUR_START + second) * 1000);

  await t.test('several limits: every counter reported and reset', async (t) => {
    await hits(svc, 'shapes', D('multi', 'v'), 2);
    const report = (await counters(svc, 'shapes', 'multi=v')).json as Report;
    t.same(
      report.limits.map((l) => [l.fullKey, l.unit, l.cacheKey, l.count, l.remaining]),
      [
        ['shapes.multi', 'MINUTE', `shapes_multi_v_${HOUR_START}`, 2, 1],
        ['shapes.multi.limit_2', 'HOUR', `shapes_multi_v_#2_${HOUR_START}`, 2, 3],
      ],
    );
    t.same(((await reset(svc.debugUrl, 'shapes', 'multi=v')).json as Report).limits.map((l) => l.count), [2, 2], 'both, as they were');
    t.same(((await counters(svc, 'shapes', 'multi=v')).json as Report).limits.map((l) => l.count), [0, 0], 'both reset');
  });

  await t.test('a sliding window: both windows and the estimate', async (t) => {
    at(0);
    await hits(svc, 'shapes', D('sliding', 'v'), 4);
    at(75); // 15 s into the next minute: 3/4 of the previous window still weighs
    await hits(svc, 'shapes', D('sliding', 'v'), 2);
    const limit = ((await counters(svc, 'shapes', 'sliding=v')).json as Report).limits[0] as Limit;
    t.same(
      [limit.algorithm, limit.count, limit.remaining, limit.currentWindow, limit.previousWindow, limit.secondsUntilReset],
      [
        'sliding_window',
        3 + 2,
        5,
        { cacheKey: `{shapes_sliding_v_}${HOUR_START + 60}`, windowStart: HOUR_START + 60, count: 2 },
        { cacheKey: `{shapes_sliding_v_}${HOUR_START}`, windowStart: HOUR_START, count: 4 },
        45,
      ],
    );
    await reset(svc.debugUrl, 'shapes', 'sliding=v');
    const after = ((await counters(svc, 'shapes', 'sliding=v')).json as Report).limits[0] as Limit;
    t.same([after.count, after.currentWindow?.count, after.previousWindow?.count], [0, 0, 0], 'both windows reset');
    t.same(await hits(svc, 'shapes', D('sliding', 'v'), 1), [9], 'the next decision counts from zero');
  });

  await t.test('a token bucket: its tokens, refilled by a reset', async (t) => {
    at(120);
    await hits(svc, 'shapes', D('bucket', 'v'), 3);
    const limit = ((await counters(svc, 'shapes', 'bucket=v')).json as Report).limits[0] as Limit;
    t.same([limit.algorithm, limit.cacheKey, limit.tokens, limit.count, limit.remaining, limit.secondsUntilReset], ['token_bucket', 'shapes_bucket_v_tb', 1, 3, 1, 45]);
    t.equal(((await reset(svc.debugUrl, 'shapes', 'bucket=v')).json as Report).limits[0]?.tokens, 1, 'the reset answers the tokens there were');
    t.equal(((await counters(svc, 'shapes', 'bucket=v')).json as Report).limits[0]?.tokens, 4, 'full again');
    t.same(await hits(svc, 'shapes', D('bucket', 'v'), 4), [3, 2, 1, 0], 'four tokens to take');
  });
}

t.test('algorithms on the embedded store', async (t) => algorithmScenarios(t, {}));

t.test('algorithms on Redis', async (t) => {
  const redis = await startRedis(t);
  await algorithmScenarios(t, { BACKEND_TYPE: 'redis', REDIS_URL: redis.url });
});

t.test('a real process in pool mode with DEBUG_TOKEN: reading is open, a reset needs the token', async (t) => {
  const { root } = await runtimeRoot(t, { 'counters.yaml': RULES });
  const proc = await startProcess(t, { RUNTIME_ROOT: root, DEBUG_TOKEN: 'c0unter-t0ken', DECISION_MODE: 'pool', POOL_THREADS: '1' });
  for (let i = 0; i < 2; i++) await proc.post({ domain: 'counters', descriptors: [D('client', 'carol')] });

  const read = await proc.debug(`/counters?${query('counters', 'client=carol')}`);
  t.same([read.status, (read.json as Report).limits[0]?.count], [200, 2], 'read without the token, by an engine the main thread opened');

  const refused = await reset(proc.debugUrl, 'counters', 'client=carol');
  t.same(
    [refused.status, refused.headers['www-authenticate'], refused.json],
    [401, 'Bearer', { code: 'UNAUTHORIZED', message: 'a counter reset needs DEBUG_TOKEN: send it as a bearer token or ?token=' }],
  );
  t.equal(((await proc.debug(`/counters?${query('counters', 'client=carol')}`)).json as Report).limits[0]?.count, 2, 'a refused reset changes nothing');

  const done = await reset(proc.debugUrl, 'counters', 'client=carol', { authorization: 'Bearer c0unter-t0ken' });
  t.same([done.status, (done.json as Report).limits[0]?.count], [200, 2]);
  const next = await proc.post({ domain: 'counters', descriptors: [D('client', 'carol')] });
  t.equal((next.json as { statuses: Array<{ limitRemaining: number }> }).statuses[0]?.limitRemaining, 4, 'the pool threads count from zero');
});
