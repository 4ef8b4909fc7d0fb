/**
 * Many alerts and many regex silences, through the real process: every alert carries the one
 * silence that lists it, and long listings yield, so `/-/healthy` keeps answering meanwhile.
 * That a listing looks at each alert's mark instead of running every silence is shown exactly in
 * `test/unit/alerts/silence-marks.test.ts`; how long listings take against Alertmanager's is
 * measured by `npm run bench:alerts`, not here, where the host's speed would decide it.
 */
import t from 'tap';
import { healthWhile, postAll, postJson, regexSilence as silence, timed } from '../support/alert-process.js';
import { startProcess } from '../support/process-harness.js';

t.test('10,000 alerts and 1,000 regex silences: every alert is marked by its silence, and listings never hold the API thread', async (t) => {
  const proc = await startProcess(t, { APIS: 'alerts', RUNTIME_ROOT: '/nonexistent', API_THREAD_NICE: '0' });
  const ALERTS = 10_000;
  for (let at = 0; at < ALERTS; at += 5000) {
    const batch = Array.from({ length: 5000 }, (_, i) => ({ labels: { alertname: `Disk${(at + i) % 7}`, instance: `host-${at + i}`, job: 'node' } }));
    t.equal((await postJson(proc, '/api/v2/alerts', batch)).status, 200);
  }
  // Half list instances (20 each, 10,000 in all), half are patterns that match none of them.
  const silences = [
    ...Array.from({ length: 500 }, (_, s) => silence('instance', Array.from({ length: 20 }, (_, k) => `host-${s * 20 + k}`).join('|'))),
    ...Array.from({ length: 500 }, (_, s) => silence('instance', `db-${s}-[a-z]+\\.example\\.org`)),
  ];
  const statuses = await postAll(proc, '/api/v2/silences', silences);
  t.equal(statuses.filter((status) => status === 200).length, 1000, '1,000 silences created');

  const firstListing = await healthWhile(proc, timed(() => proc.request('/api/v2/alerts')));
  const alerts = firstListing.value.result.json as Array<{ status: { silencedBy: string[] } }>;
  t.equal(alerts.length, ALERTS);
  t.equal(alerts.filter((alert) => alert.status.silencedBy.length === 1).length, ALERTS, 'every alert silenced by the one silence listing its instance');
  t.ok(firstListing.slowestHealthMs < 1000, `/-/healthy answered within ${Math.round(firstListing.slowestHealthMs)} ms during the first listing (${Math.round(firstListing.value.ms)} ms)`);
  for (const path of ['/api/v2/alerts', '/api/v2/alerts/groups', '/api/v2/alerts?silenced=false']) {
    const { value, slowestHealthMs } = await healthWhile(proc, timed(() => proc.request(path)));
    t.equal(value.result.status, 200);
    if (path.endsWith('silenced=false')) t.same(value.result.json, [], 'no alert is left unsilenced');
    t.ok(slowestHealthMs < 1000, `/-/healthy answered within ${Math.round(slowestHealthMs)} ms while ${path} was listed (${Math.round(value.ms)} ms)`);
  }
});
