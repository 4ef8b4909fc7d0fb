/**
 * Large silences, through the real process: each silence's matchers are compiled once, when it
 * is created or loaded, never per request, and a matcher's value is bounded
 * (ALERTMANAGER_MAX_SILENCE_MATCHER_BYTES).
 */
import { join } from 'node:path';
import t from 'tap';
import { alertsReady, postAll, postJson, regexSilence as silence, timed } from '../support/alert-process.js';
import { startProcess, type ServiceProcess } from '../support/process-harness.js';
import { tempDir } from '../support/temp-dir.js';

/** `host-(?:0|1|…)` of about `bytes` bytes: a regex, not a plain list, so it is compiled. */
const bigPattern = (bytes: number, seed: number) => {
  const hosts: string[] = [];
  for (let n = 0; hosts.join('|').length < bytes; n++) hosts.push(`${seed}-${String(n).padStart(6, '0')}.example.org`);
  return `host-(?:${hosts.join('|')})`;
};

t.test('a silence matcher longer than ALERTMANAGER_MAX_SILENCE_MATCHER_BYTES is refused, naming it', async (t) => {
  const proc = await startProcess(t, { APIS: 'alerts', RUNTIME_ROOT: '/nonexistent' });
  const value = Array.from({ length: 20_000 }, (_, n) => `host-${n}`).join('|');
  const refused = await postJson(proc, '/api/v2/silences', silence('instance', value));
  t.equal(refused.status, 400);
  t.same(refused.json, `invalid silence: matchers.0.value is ${value.length} bytes, more than ALERTMANAGER_MAX_SILENCE_MATCHER_BYTES (65536)`);
  t.equal((await postJson(proc, '/api/v2/silences', silence('instance', value.slice(0, 60_000).replace(/\|[^|]*$/, '')))).status, 200, 'one under the bound is taken');
});

t.test('large regex silences are compiled once: listings stay fast, after a restart too', async (t) => {
  const dataDir = join(await tempDir(t, 'rl-silences-'), 'data');
  // No bound, as Alertmanager has none: the cost is paid once per silence, whatever its size.
  const env = { APIS: 'alerts', RUNTIME_ROOT: '/nonexistent', DATA_DIR: dataDir, ALERTMANAGER_MAX_SILENCE_MATCHER_BYTES: '0', API_THREAD_NICE: '0' };
  const first = await startProcess(t, env);
  const statuses = await postAll(first, '/api/v2/silences', Array.from({ length: 3 }, (_, i) => silence('instance', bigPattern(100_000, i))), 2);
  t.same(statuses, Array<number>(3).fill(200), 'three silences of 100 KB regexes');
  t.equal((await postJson(first, '/api/v2/alerts', [{ labels: { alertname: 'One', instance: 'host-2-000042.example.org' } }])).status, 200);
  const listings = async (proc: ServiceProcess, when: string) => {
    for (const path of ['/api/v2/alerts', '/api/v2/alerts/groups', '/api/v2/alerts', '/api/v2/alerts/groups']) {
      const { result, ms } = await timed(() => proc.request(path));
      t.equal(result.status, 200);
      t.ok(ms < 300, `${when}: ${path} answered in ${Math.round(ms)} ms`);
    }
    const [alert] = (await proc.request('/api/v2/alerts')).json as Array<{ status: { silencedBy: string[] } }>;
    t.equal(alert?.status.silencedBy.length, 1, `${when}: the alert is silenced by the one silence that lists it`);
  };
  await listings(first, 'after creating them');
  await first.stop();

  const second = await startProcess(t, env);
  await alertsReady(second);
  await listings(second, 'after a restart');
});
