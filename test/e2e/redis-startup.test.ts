/**
 * KVSTORE_STARTUP_* (upstream's REDIS_STARTUP_*): a service started before its Redis retries the
 * first connection and serves once Redis is up; with KVSTORE_STARTUP_MAX_ELAPSED_TIME it stops
 * (exit status 1) if Redis never came up in time.
 */
import t from 'tap';
import { portForLater } from '../support/port-for-later.js';
import { runtimeRoot, spawnProcess, startProcess } from '../support/process-harness.js';
import { D, LOCAL_LISTENERS_ENV, TEST_APIS_ENV } from '../support/service-inputs.js';
import { waitFor } from '../support/wait-for.js';
import { startRedis } from '../support/store-servers.js';

const RULES = { 'late.yaml': 'domain: late\ndescriptors:\n  - key: k\n    rate_limit: { unit: hour, requests_per_unit: 10 }\n' };
const request = { domain: 'late', descriptors: [D('k', 'v')] };

t.test('started before redis-server, the service counts once Redis is up', async (t) => {
  const port = await portForLater();
  const { root } = await runtimeRoot(t, RULES);
  const proc = await startProcess(t, {
    RUNTIME_ROOT: root,
    REDIS_URL: `127.0.0.1:${port}`,
    REDIS_STARTUP_INITIAL_INTERVAL: '100ms',
    REDIS_STARTUP_MAX_INTERVAL: '200ms',
    REDIS_STARTUP_MAX_ELAPSED_TIME: '60s',
  });
  const before = await proc.post(request);
  t.equal(before.status, 400, 'no Redis yet: the decision fails as a store error');
  t.match(before.headers['x-ratelimit-error'], /key-value store/);

  await startRedis(t, { port });
  const answered = await waitFor('a decision counted in Redis', async () => {
    const r = await proc.post(request);
    return r.status === 200 ? r : undefined;
  }, 5000);
  t.match(answered.json, { overallCode: 'OK', statuses: [{ code: 'OK', limitRemaining: 9 }] }, 'the first hit counted');
  t.ok(proc.running, 'the service is still running');
});

const GIVING_UP = [
  { maxElapsed: '1s', ms: 1000, when: 'no Redis within it, the service stops with status 1' },
  // Shorter than any start: the store gives up before the service has finished starting.
  { maxElapsed: '1ms', ms: 1, when: 'passing while the service is still starting, it stops with status 1 all the same' },
];

for (const { maxElapsed, ms, when } of GIVING_UP) {
  t.test(`KVSTORE_STARTUP_MAX_ELAPSED_TIME=${maxElapsed}: ${when}`, async (t) => {
    const port = await portForLater();
    const { root } = await runtimeRoot(t, RULES);
    const proc = spawnProcess(t, {
      ...LOCAL_LISTENERS_ENV,
      ...TEST_APIS_ENV,
      RUNTIME_ROOT: root,
      KVSTORE_URL: `127.0.0.1:${port}`,
      KVSTORE_STARTUP_MAX_ELAPSED_TIME: maxElapsed,
    });
    const exit = await proc.exited;
    t.same(exit, { code: 1, signal: null }, 'exit status 1, not the end of an unheard SIGTERM');
    t.match(proc.output, new RegExp(`no connection to the key-value store within KVSTORE_STARTUP_MAX_ELAPSED_TIME \\(${ms} ms\\); stopping`));
  });
}
