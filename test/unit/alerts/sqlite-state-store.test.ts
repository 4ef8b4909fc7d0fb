/** The embedded alert state on a real SQLite file: what is written comes back after a reopen, whatever the log's shape. */
import Database from 'better-sqlite3';
import { join } from 'node:path';
import t from 'tap';
import type { Alert, Silence } from '../../../src/alerts/model.js';
import { isWholeAlert } from '../../../src/alerts/state/alert-state-store.js';
import { SqliteNotificationStore } from '../../../src/alerts/notify/notification-store.js';
import { SqliteStateStore } from '../../../src/alerts/state/sqlite-state-store.js';
import { tempDir } from '../../support/temp-dir.js';

const NOW = Date.UTC(2026, 10, 21, 12, 0, 0);

function alert(n: number, over: Partial<Alert> = {}): Alert {
  return { fingerprint: n.toString(16).padStart(16, '0'), labels: { alertname: 'A', n: String(n) }, annotations: { summary: `number ${n}` }, startsAt: NOW, endsAt: NOW + 60_000, updatedAt: NOW, generatorURL: '', timeout: false, ...over };
}

function silence(id: string, over: Partial<Silence> = {}): Silence {
  return { id, matchers: [{ name: 'n', type: '=', value: '1' }], startsAt: NOW, endsAt: NOW + 60_000, updatedAt: NOW, createdBy: 'me', comment: 'c', annotations: {}, ...over };
}

/** What the store's changes add up to, replayed in order as the service replays them. */
function load(store: SqliteStateStore): { alerts: Alert[]; silences: Silence[] } {
  const alerts = new Map<string, Alert>();
  const silences = new Map<string, Silence>();
  for (const change of store.read()) {
    for (const a of change.alerts ?? []) {
      const held = alerts.get(a.fingerprint);
      if (isWholeAlert(a)) alerts.set(a.fingerprint, a);
      else if (held !== undefined) alerts.set(a.fingerprint, { ...held, endsAt: a.endsAt, updatedAt: a.updatedAt, timeout: a.timeout });
    }
    for (const s of change.silences ?? []) silences.set(s.id, s);
    for (const fingerprint of change.removedAlerts ?? []) alerts.delete(fingerprint);
    for (const id of change.removedSilences ?? []) silences.delete(id);
  }
  return { alerts: [...alerts.values()], silences: [...silences.values()] };
}

function rows(dir: string): number {
  const db = new Database(join(dir, 'alerts.sqlite'), { readonly: true });
  try {
    return (db.prepare('SELECT count(*) AS n FROM changes').get() as { n: number }).n;
  } finally {
    db.close();
  }
}

t.test('writes, replacements and removals come back in order after a reopen', async (t) => {
  const dir = await tempDir(t, 'alert-state-');
  const store = new SqliteStateStore(dir, 'normal');
  t.same(load(store), { alerts: [], silences: [] });
  store.write({ alerts: [alert(1), alert(2, { startsAt: Number.NEGATIVE_INFINITY, generatorURL: 'http://x/', timeout: true })], silences: [silence('s1'), silence('s2')] });
  store.write({ alerts: [alert(1, { annotations: {} })], silences: [silence('s1', { comment: 'updated' })] });
  store.write({ removedAlerts: [alert(3).fingerprint, alert(2).fingerprint], removedSilences: ['s2'] });
  store.close();

  const reopened = new SqliteStateStore(dir, 'full');
  t.same(load(reopened), { alerts: [alert(1, { annotations: {} })], silences: [silence('s1', { comment: 'updated' })] }, 'the last write of each wins; removed ones are gone');
  reopened.write({ alerts: [alert(2, { startsAt: Number.NEGATIVE_INFINITY })] });
  reopened.close();
  const again = new SqliteStateStore(dir, 'normal');
  t.equal(load(again).alerts.find((a) => a.fingerprint === alert(2).fingerprint)?.startsAt, Number.NEGATIVE_INFINITY, "Go's zero time survives JSON");
  again.close();
});

t.test('a renewal gives the alert written before it new times, in order, and weighs a quarter of an alert in the log', async (t) => {
  const dir = await tempDir(t, 'alert-state-');
  const store = new SqliteStateStore(dir, 'normal');
  store.write({ alerts: [alert(1), alert(2)] });
  store.write({ alerts: [{ fingerprint: alert(1).fingerprint, endsAt: NOW + 120_000, updatedAt: NOW + 60_000, timeout: true }, alert(2, { annotations: { summary: 'changed' } })] });
  store.write({ alerts: [alert(2, { endsAt: NOW + 5_000 }), { fingerprint: alert(2).fingerprint, endsAt: NOW + 9_000, updatedAt: NOW + 1, timeout: false }] });
  store.close();
  const reopened = new SqliteStateStore(dir, 'normal');
  t.same(load(reopened).alerts, [alert(1, { endsAt: NOW + 120_000, updatedAt: NOW + 60_000, timeout: true }), alert(2, { endsAt: NOW + 9_000, updatedAt: NOW + 1 })], 'labels, annotations and start kept; the later write wins');
  let renewals = 0;
  while (!reopened.wantsCompaction(1)) {
    reopened.write({ alerts: [{ fingerprint: alert(1).fingerprint, endsAt: NOW, updatedAt: NOW, timeout: false }] });
    renewals++;
  }
  t.equal(renewals, 4 * (10_000 - 4.5) + 1, 'four renewals count as one entry (the log held 4.5)');
  reopened.close();
});

t.test('the log asks for compaction once it outgrows the state, and a compaction keeps exactly that state', async (t) => {
  const dir = await tempDir(t, 'alert-state-');
  const store = new SqliteStateStore(dir, 'normal');
  load(store);
  let writes = 0;
  while (!store.wantsCompaction(50)) {
    store.write({ alerts: [alert(writes % 50)] });
    writes++;
  }
  t.equal(writes, 10_001, 'a small state is compacted after ten thousand entries, not before');
  t.notOk(store.wantsCompaction(5001), 'a state of more than half the log is left alone');
  const state = { alerts: Array.from({ length: 2500 }, (_, n) => alert(n)), silences: [silence('s')] };
  store.compact(state);
  t.notOk(store.wantsCompaction(0), 'a fresh log is small');
  t.equal(rows(dir), 4, 'the state in rows of 1000 entries');
  store.write({ removedAlerts: [alert(0).fingerprint] });
  store.close();

  const reopened = new SqliteStateStore(dir, 'normal');
  const loaded = load(reopened);
  t.equal(loaded.alerts.length, 2499);
  t.same(loaded.silences, [silence('s')]);
  t.notOk(reopened.wantsCompaction(loaded.alerts.length + loaded.silences.length), 'a log close to its state is left alone at startup');
  reopened.close();
});

t.test('a store of one row per alert and silence is read and replaced at the first compaction', async (t) => {
  const dir = await tempDir(t, 'alert-state-');
  const legacy = new Database(join(dir, 'alerts.sqlite'));
  legacy.exec('CREATE TABLE alerts (fingerprint TEXT PRIMARY KEY, json TEXT NOT NULL); CREATE TABLE silences (id TEXT PRIMARY KEY, json TEXT NOT NULL)');
  legacy.prepare('INSERT INTO alerts VALUES (?, ?)').run(alert(7).fingerprint, JSON.stringify(alert(7)));
  legacy.prepare('INSERT INTO silences VALUES (?, ?)').run('s', JSON.stringify(silence('s')));
  legacy.close();

  const store = new SqliteStateStore(dir, 'normal');
  const loaded = load(store);
  t.same(loaded, { alerts: [alert(7)], silences: [silence('s')] });
  t.ok(store.wantsCompaction(2), 'the old tables are folded into the log at once');
  store.compact(loaded);
  store.close();
  const reopened = new SqliteStateStore(dir, 'normal');
  t.same(load(reopened), loaded);
  t.notOk(reopened.wantsCompaction(2));
  reopened.close();
});

/** The page size of the alerts database in `dir`. */
function pageSize(dir: string): number {
  const db = new Database(join(dir, 'alerts.sqlite'), { readonly: true });
  try {
    return db.pragma('page_size', { simple: true }) as number;
  } finally {
    db.close();
  }
}

t.test('a new alerts database has 16 KiB pages, where a POST of 100 alerts is one row on two', async (t) => {
  const dir = await tempDir(t, 'alert-state-');
  const store = new SqliteStateStore(dir, 'normal');
  store.write({ alerts: Array.from({ length: 100 }, (_, i) => alert(i)) });
  store.close();
  t.equal(pageSize(dir), 16_384);
  const notifications = new SqliteNotificationStore(dir, 'normal');
  notifications.close();
  t.equal(pageSize(dir), 16_384, 'the notification log shares the file and its pages');
});

t.test('a database made on 4 KiB pages keeps them, and both stores read and write it', async (t) => {
  const dir = await tempDir(t, 'alert-state-');
  const old = new Database(join(dir, 'alerts.sqlite'));
  old.pragma('page_size = 4096');
  old.pragma('journal_mode = WAL');
  old.exec('CREATE TABLE changes (seq INTEGER PRIMARY KEY, change TEXT NOT NULL)');
  old.close();
  const store = new SqliteStateStore(dir, 'normal');
  t.same(load(store), { alerts: [], silences: [] });
  store.write({ alerts: Array.from({ length: 100 }, (_, i) => alert(i)) });
  store.close();
  const notifications = new SqliteNotificationStore(dir, 'normal');
  notifications.close();
  t.equal(pageSize(dir), 4096);
  const reopened = new SqliteStateStore(dir, 'normal');
  t.equal(load(reopened).alerts.length, 100);
  reopened.close();
});
