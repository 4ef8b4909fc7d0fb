/**
 * What a flood of unauthenticated POST /api/v2/alerts can make the service hold, through the real
 * process: at most ALERTMANAGER_MAX_ALERTS alerts (new ones past it get 503 naming the setting,
 * counted in one log line a minute, while alerts already held are still taken, so resolving
 * goes on), and a resolved alert leaves memory and disk ALERTMANAGER_RESOLVED_RETENTION after
 * its end, with the on-disk log compacted behind it.
 */
import Database from 'better-sqlite3';
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import t from 'tap';
import { postJson } from '../support/alert-process.js';
import { startProcess } from '../support/process-harness.js';
import { waitFor } from '../support/wait-for.js';
import { tempDir } from '../support/temp-dir.js';

const firing = (names: readonly string[]) => names.map((name) => ({ labels: { alertname: 'Flood', instance: name } }));
const resolved = (names: readonly string[]) => names.map((name) => ({ labels: { alertname: 'Flood', instance: name }, startsAt: new Date(Date.now() - 60_000).toISOString(), endsAt: new Date().toISOString() }));
const names = (from: number, count: number) => Array.from({ length: count }, (_, i) => `host-${from + i}`);

t.test('ALERTMANAGER_MAX_ALERTS: new alerts past it are refused with 503 naming it and logged once a minute; resolves still go in', async (t) => {
  const proc = await startProcess(t, { APIS: 'alerts', RUNTIME_ROOT: '/nonexistent', ALERTMANAGER_MAX_ALERTS: '100', ALERTMANAGER_RESOLVED_RETENTION: '0s' });
  t.equal((await postJson(proc, '/api/v2/alerts', firing(names(0, 60)))).status, 200);
  const over = await postJson(proc, '/api/v2/alerts', [...firing(names(60, 60)), { labels: {} }]);
  t.equal(over.status, 503, 'a 5xx, which senders retry');
  t.same(over.json, 'alerts not stored: 20 new alerts would pass ALERTMANAGER_MAX_ALERTS (100)\nat least one label pair required', 'names the setting and how many; the invalid alert is still reported');
  const held = (await proc.request('/api/v2/alerts')).json as unknown[];
  t.equal(held.length, 100, 'the first 100 are held, no more');
  t.equal((await postJson(proc, '/api/v2/alerts', firing(['host-500']))).status, 503, 'full: another new one is refused too');
  t.equal((await postJson(proc, '/api/v2/alerts', [...resolved(names(0, 30)), ...firing(names(30, 30))])).status, 200, 'alerts already held are taken when full: resolves, re-sends');
  t.equal(((await proc.request('/api/v2/alerts')).json as unknown[]).length, 70, 'the resolved ones are no longer listed');
  await waitFor('the resolved alerts to leave the store', async () => (await postJson(proc, '/api/v2/alerts', firing(names(200, 30)))).status === 200, 10_000, 250);
  t.equal(((await proc.request('/api/v2/alerts')).json as unknown[]).length, 100, 'once they left, new alerts fit again');
  const lines = proc.output.split('\n').filter((line) => line.includes('new alerts refused'));
  t.equal(lines.length, 1, 'one log line for the refusals of this minute');
  t.match(lines[0], /refused=20 ALERTMANAGER_MAX_ALERTS=100/, 'the first refusal is told at once, with its count');
  // 20 + 1 refused above, and 30 more for each retry while the resolved ones were still held.
  const refused = (await proc.stat('ratelimit.alerts.refused_full')) ?? 0;
  t.ok(refused >= 21 && (refused - 21) % 30 === 0, `every refused alert counted, on the debug port with every other statistic (${refused})`);
  await waitFor('the held alerts gauge', async () => (await proc.stat('ratelimit.alerts.held')) === 100, 5000, 100);
  t.pass('the alerts held, as a gauge');
});

/** Alerts and log entries in the durable store, read as the service reads it at startup. */
function storedState(dataDir: string): { alerts: number; entries: number } {
  const db = new Database(join(dataDir, 'alerts', 'alerts.sqlite'), { readonly: true });
  try {
    const alerts = new Set<string>();
    let entries = 0;
    for (const { change } of db.prepare('SELECT change FROM changes ORDER BY seq').all() as Array<{ change: string }>) {
      const row = JSON.parse(change) as { a?: Array<[string]>; s?: unknown[]; ra?: string[]; rs?: string[] };
      for (const [fingerprint] of row.a ?? []) alerts.add(fingerprint);
      for (const fingerprint of row.ra ?? []) alerts.delete(fingerprint);
      entries += (row.a?.length ?? 0) + (row.s?.length ?? 0) + (row.ra?.length ?? 0) + (row.rs?.length ?? 0);
    }
    return { alerts: alerts.size, entries };
  } finally {
    db.close();
  }
}

async function bytesOnDisk(dataDir: string): Promise<number> {
  let total = 0;
  for (const name of ['alerts.sqlite', 'alerts.sqlite-wal']) total += (await stat(join(dataDir, 'alerts', name)).catch(() => ({ size: 0 }))).size;
  return total;
}

t.test('resolved alerts leave memory and disk shortly after their end, so a churn of distinct alerts keeps both small', async (t) => {
  const dataDir = join(await tempDir(t, 'rl-churn-'), 'data');
  const env = { APIS: 'alerts', RUNTIME_ROOT: '/nonexistent', DATA_DIR: dataDir, ALERTMANAGER_RESOLVED_RETENTION: '0s' };
  const proc = await startProcess(t, env);
  // 40,000 distinct alerts, each resolved right after it fired, as a flood of short-lived alerts is.
  let largest = 0;
  for (let round = 0; round < 8; round++) {
    const batch = names(round * 5000, 5000);
    t.equal((await postJson(proc, '/api/v2/alerts', firing(batch))).status, 200);
    t.equal((await postJson(proc, '/api/v2/alerts', resolved(batch))).status, 200);
    await waitFor(`round ${round}: the resolved alerts to leave the durable store`, () => storedState(dataDir).alerts === 0, 10_000, 100);
    largest = Math.max(largest, await bytesOnDisk(dataDir));
  }
  const { entries } = storedState(dataDir);
  t.ok(entries <= 25_000, `the log was compacted behind them: ${entries} entries left of 120,000 writes`);
  t.ok(largest < 8 * 1024 * 1024, `the store took at most ${(largest / 1024 / 1024).toFixed(1)} MB on disk`);
  await proc.stop();

  const again = await startProcess(t, env);
  const loaded = await again.waitFor('the alert state loaded', (output) => /msg="alert state loaded" alerts=(\d+)/.exec(output)?.[1]);
  t.equal(Number(loaded), 0, 'a restart loads none of them');
});
