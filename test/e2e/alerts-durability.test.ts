/**
 * Every acknowledged write of the alert API survives kill -9: alerts posted, silences created,
 * updated and expired are all there after a restart on the same DATA_DIR. (Alertmanager keeps
 * alerts only in memory and snapshots silences every 15 minutes.)
 */
import Database from 'better-sqlite3';
import { join } from 'node:path';
import t from 'tap';
import { startProcess, type ServiceProcess } from '../support/process-harness.js';
import { httpRequest } from '../support/http-request.js';
import { tempDir } from '../support/temp-dir.js';

async function post(proc: ServiceProcess, path: string, body: unknown) {
  return httpRequest(`${proc.baseUrl}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
}

t.test('alerts and silences survive kill -9 right after they were acknowledged', async (t) => {
  const dataDir = join(await tempDir(t, 'rl-durable-'), 'data');
  const env = { APIS: 'alerts', DATA_DIR: dataDir, RUNTIME_ROOT: '/nonexistent', HTTP_WORKERS: '1' };
  const first = await startProcess(t, env);
  const hour = 3_600_000;
  const silence = (value: string) => ({ matchers: [{ name: 'alertname', value, isRegex: false }], startsAt: new Date().toISOString(), endsAt: new Date(Date.now() + hour).toISOString(), createdBy: 'me', comment: value });
  t.equal((await post(first, '/api/v2/alerts', Array.from({ length: 50 }, (_, i) => ({ labels: { alertname: 'durable', i: String(i) }, endsAt: new Date(Date.now() + hour).toISOString() })))).status, 200);
  // The same start: an active silence is updated in place only when its start (in whole seconds) stays.
  const keptBody = silence('kept');
  const kept = (await post(first, '/api/v2/silences', keptBody)).json as { silenceID: string };
  // As stored: a start already past is moved to the moment of creation, which may be in the next whole second.
  const stored = (await httpRequest(`${first.baseUrl}/api/v2/silence/${kept.silenceID}`)).json as { startsAt: string };
  const updated = (await post(first, '/api/v2/silences', { ...keptBody, startsAt: stored.startsAt, id: kept.silenceID, comment: 'updated' })).json as { silenceID: string };
  t.equal(updated.silenceID, kept.silenceID, 'updated in place');
  const expired = (await post(first, '/api/v2/silences', silence('expired'))).json as { silenceID: string };
  t.equal((await httpRequest(`${first.baseUrl}/api/v2/silence/${expired.silenceID}`, { method: 'DELETE' })).status, 200);
  first.kill('SIGKILL');
  await first.waitForExit();

  const second = await startProcess(t, env);
  const alerts = (await httpRequest(`${second.baseUrl}/api/v2/alerts`)).json as unknown[];
  t.equal(alerts.length, 50, 'every posted alert is back');
  const silences = (await httpRequest(`${second.baseUrl}/api/v2/silences`)).json as Array<{ id: string; comment: string; status: { state: string } }>;
  const byId = new Map(silences.map((s) => [s.id, s]));
  t.match(byId.get(kept.silenceID), { comment: 'updated', status: { state: 'active' } }, 'the update is there');
  t.match(byId.get(expired.silenceID), { status: { state: 'expired' } }, 'the expiry is there');
});

t.test('an alert re-sent with new times alone is logged as a renewal, and comes back with those times', async (t) => {
  const dataDir = join(await tempDir(t, 'rl-durable-'), 'data');
  const env = { APIS: 'alerts', DATA_DIR: dataDir, RUNTIME_ROOT: '/nonexistent', HTTP_WORKERS: '1' };
  const first = await startProcess(t, env);
  const startsAt = new Date(Date.now() - 60_000).toISOString();
  const at = (minutes: number) => new Date(Date.now() + minutes * 60_000).toISOString();
  const renewed = { labels: { alertname: 'renewed' }, annotations: { summary: 'same' }, startsAt };
  const changed = { labels: { alertname: 'changed' }, annotations: { summary: 'first' }, startsAt };
  t.equal((await post(first, '/api/v2/alerts', [{ ...renewed, endsAt: at(10) }, { ...changed, endsAt: at(10) }])).status, 200);
  t.equal((await post(first, '/api/v2/alerts', [{ ...renewed, endsAt: at(20) }, { ...changed, annotations: { summary: 'second' }, endsAt: at(20) }])).status, 200);
  first.kill('SIGKILL');
  await first.waitForExit();

  const db = new Database(join(dataDir, 'alerts', 'alerts.sqlite'), { readonly: true });
  const last = JSON.parse((db.prepare('SELECT change FROM changes ORDER BY seq DESC LIMIT 1').get() as { change: string }).change) as { a: unknown[][] };
  db.close();
  t.same(last.a.map((entry) => entry.length), [4, 8], 'the re-sent alert is four fields, the one whose annotations changed is whole');

  const second = await startProcess(t, env);
  const alerts = (await httpRequest(`${second.baseUrl}/api/v2/alerts`)).json as Array<{ labels: { alertname: string }; annotations: { summary: string }; startsAt: string; endsAt: string }>;
  const byName = new Map(alerts.map((alert) => [alert.labels.alertname, alert]));
  t.match(byName.get('renewed'), { annotations: { summary: 'same' }, startsAt: new Date(startsAt).toISOString() }, 'labels, annotations and start as first posted');
  t.ok(Date.parse(byName.get('renewed')?.endsAt ?? '') > Date.now() + 15 * 60_000, 'the end the renewal gave');
  t.equal(byName.get('changed')?.annotations.summary, 'second');
});
