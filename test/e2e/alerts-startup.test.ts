/**
 * A restart on a large alert state, through the real process: the state loads in the
 * background a slice at a time, so the API thread answers `/-/healthy` from the moment it runs
 * and throughout the load, while
 * `/-/ready` and the alert and silence routes answer 503 in Alertmanager's form until every
 * alert is back.
 */
import { join } from 'node:path';
import t, { type Test } from 'tap';
import { freePort } from '../../src/transports/free-port.js';
import { timed, writeAlertState } from '../support/alert-process.js';
import { spawnProcess, type ServiceProcess } from '../support/process-harness.js';
import { httpRequest } from '../support/http-request.js';
import { LOCAL_LISTENERS_ENV } from '../support/service-inputs.js';
import { waitFor } from '../support/wait-for.js';
import { tempDir } from '../support/temp-dir.js';

const ALERTS = 100_000;

t.test(`a restart on ${ALERTS} alerts: healthy at once, 503 until they are loaded, then all of them`, async (t) => {
  const dataDir = join(await tempDir(t, 'rl-startup-'), 'data');
  writeAlertState(dataDir, ALERTS, Date.now());
  const { proc, url } = await spawnOnKnownPort(t, { APIS: 'alerts', ...LOCAL_LISTENERS_ENV, RUNTIME_ROOT: '/nonexistent', DATA_DIR: dataDir, API_THREAD_NICE: '0', HTTP_WORKERS: '0' });
  const request = (path: string) => httpRequest(`${url}${path}`);

  const seen = { health: new Set<number>(), ready: new Set<number>(), notReady: 0, refused: [] as unknown[], slowestHealthMs: 0 };
  for (;;) {
    const [health, ready, alerts] = await Promise.all([timed(() => request('/-/healthy')), request('/-/ready'), request('/api/v2/alerts?filter=instance%3D%22host-7%22')]);
    seen.health.add(health.result.status);
    seen.slowestHealthMs = Math.max(seen.slowestHealthMs, health.ms);
    if (ready.status === 200) break;
    seen.ready.add(ready.status);
    seen.notReady++;
    if (alerts.status !== 200) seen.refused.push({ status: alerts.status, body: alerts.json });
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  t.same([...seen.health], [200], '/-/healthy answered 200 throughout');
  t.same([...seen.ready], [503], '/-/ready answered 503 until the state was in');
  t.ok(seen.notReady > 0, `/-/ready said 503 ${seen.notReady} times before the state was in`);
  t.ok(seen.refused.length > 0, 'the alert routes were asked while loading');
  t.same(seen.refused[0], { status: 503, body: { code: 503, message: 'the alert state is still loading; try again shortly' } }, "in Alertmanager's error form");
  t.ok(seen.slowestHealthMs < 1000, `the slowest /-/healthy while loading took ${Math.round(seen.slowestHealthMs)} ms`);

  const loadedMs = await proc.waitFor('the load time', (output) => /msg="alert state loaded" alerts=100000 ms=(\d+)/.exec(output)?.[1]);
  t.comment(`${ALERTS} alerts loaded in ${loadedMs} ms`);
  const one = await request('/api/v2/alerts?filter=instance%3D%22host-7%22');
  t.equal(one.status, 200);
  t.same((one.json as Array<{ labels: unknown }>).map((a) => a.labels), [{ alertname: 'Load7', instance: 'host-7' }], 'an alert of the state is there');
  const all = await request('/api/v2/alerts?filter=alertname%3D~%22Load.*%22');
  t.equal((all.json as unknown[]).length, ALERTS, 'and every one of them');
});

/**
 * The service on a port chosen in advance, so the requests start as soon as it listens, not after
 * it says so. Between the choice and the bind, any socket of a test running beside this one can
 * take the port (an outgoing connection's local port included); the service then exits saying so,
 * and the start is tried again on another port.
 */
async function spawnOnKnownPort(t: Test, env: Record<string, string>): Promise<{ proc: ServiceProcess; url: string }> {
  for (let attempt = 1; ; attempt++) {
    const port = await freePort('127.0.0.1');
    const proc = spawnProcess(t, { ...env, PORT: String(port) });
    const url = `http://127.0.0.1:${port}`;
    // The port answers decisions first; the alert API's own routes come once the API thread runs.
    const outcome = await waitFor(
      'the alert API to answer',
      async () => {
        if (!proc.running) return 'exited';
        const answer = await httpRequest(`${url}/-/healthy`).catch(() => undefined);
        return answer?.status === 200 ? 'answering' : undefined;
      },
      30_000,
      5,
    );
    if (outcome === 'answering') return { proc, url };
    if (attempt === 3 || !proc.output.includes('another process listens')) {
      throw new Error(`the service exited (${proc.exitReason}) before answering; output:\n${proc.output}`);
    }
  }
}
