import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import type { Alert, Silence } from '../model.js';
import type { AlertStateStore, StateChange } from './alert-state-store.js';

/** JSON keeps ±Infinity as null; Go's zero time is stored as this marker instead. */
const ZERO = -8.64e15;
const encodeTime = (ms: number) => (Number.isFinite(ms) ? ms : ZERO);
const decodeTime = (ms: number) => (ms === ZERO ? Number.NEGATIVE_INFINITY : ms);

function encodeAlert(alert: Alert): string {
  return JSON.stringify({ ...alert, startsAt: encodeTime(alert.startsAt), endsAt: encodeTime(alert.endsAt), updatedAt: encodeTime(alert.updatedAt) });
}

function decodeAlert(json: string): Alert {
  const alert = JSON.parse(json) as Alert;
  return { ...alert, startsAt: decodeTime(alert.startsAt), endsAt: decodeTime(alert.endsAt), updatedAt: decodeTime(alert.updatedAt) };
}

/**
 * How hard a commit goes to disk. `normal` (SQLite's synchronous=NORMAL in WAL mode): a commit is
 * in the operating system's hands before the API answers, so a killed process (kill -9, a crash)
 * loses nothing acknowledged; a power cut may lose the last commits. `full`: every commit is
 * fsynced first, which survives a power cut too and costs a disk flush per write.
 */
export type Durability = 'normal' | 'full';

/** The embedded durable store: SQLite (better-sqlite3) in WAL mode, one transaction per write. */
export class SqliteStateStore implements AlertStateStore {
  private readonly db: Database.Database;
  private readonly putAlert: Database.Statement<[string, string]>;
  private readonly putSilence: Database.Statement<[string, string]>;
  private readonly dropAlert: Database.Statement<[string]>;
  private readonly dropSilence: Database.Statement<[string]>;
  private readonly apply: (change: StateChange) => void;

  constructor(dataDir: string, durability: Durability) {
    mkdirSync(dataDir, { recursive: true });
    this.db = new Database(join(dataDir, 'alerts.sqlite'));
    this.db.pragma('journal_mode = WAL');
    this.db.pragma(durability === 'full' ? 'synchronous = FULL' : 'synchronous = NORMAL');
    this.db.exec('CREATE TABLE IF NOT EXISTS alerts (fingerprint TEXT PRIMARY KEY, json TEXT NOT NULL)');
    this.db.exec('CREATE TABLE IF NOT EXISTS silences (id TEXT PRIMARY KEY, json TEXT NOT NULL)');
    this.putAlert = this.db.prepare('INSERT OR REPLACE INTO alerts (fingerprint, json) VALUES (?, ?)');
    this.putSilence = this.db.prepare('INSERT OR REPLACE INTO silences (id, json) VALUES (?, ?)');
    this.dropAlert = this.db.prepare('DELETE FROM alerts WHERE fingerprint = ?');
    this.dropSilence = this.db.prepare('DELETE FROM silences WHERE id = ?');
    this.apply = this.db.transaction((change: StateChange) => {
      for (const alert of change.alerts ?? []) this.putAlert.run(alert.fingerprint, encodeAlert(alert));
      for (const silence of change.silences ?? []) this.putSilence.run(silence.id, JSON.stringify(silence));
      for (const fingerprint of change.removedAlerts ?? []) this.dropAlert.run(fingerprint);
      for (const id of change.removedSilences ?? []) this.dropSilence.run(id);
    });
  }

  load(): { alerts: Alert[]; silences: Silence[] } {
    const alerts = (this.db.prepare('SELECT json FROM alerts').all() as Array<{ json: string }>).map((row) => decodeAlert(row.json));
    const silences = (this.db.prepare('SELECT json FROM silences').all() as Array<{ json: string }>).map((row) => JSON.parse(row.json) as Silence);
    return { alerts, silences };
  }

  write(change: StateChange): void {
    this.apply(change);
  }

  close(): void {
    this.db.close();
  }
}
