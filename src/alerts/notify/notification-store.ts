import type Database from 'better-sqlite3';
import type { Durability } from '../../sqlite/index.js';
import { openAlertsDatabase } from '../state/alerts-database.js';
import type { LabelSet } from '../matchers/matcher.js';
import type { LogEntry, SendReason } from './dedup.js';
import type { FailureReason } from './integration.js';

/** One try to send one group to one integration, as the history keeps it. */
export interface NotificationAttempt {
  at: number;
  receiver: string;
  /** `webhook`, `email`, ... and the entry's position: `webhook[0]`. */
  integration: string;
  groupKey: string;
  groupLabels: LabelSet;
  /** Fingerprints of the firing and the resolved alerts sent. */
  firing: readonly string[];
  resolved: readonly string[];
  /** Why it was sent (the dedup decision). */
  reason: SendReason;
  /** 1 for the first try of a flush, then counting retries. */
  attempt: number;
  outcome: 'sent' | 'failed';
  /** For `failed`: Alertmanager's failure reason, the error, and whether another try follows. */
  failure?: { reason: FailureReason; error: string; willRetry: boolean };
  durationMs: number;
}

export interface AttemptQuery {
  receiver?: string;
  groupKey?: string;
  integration?: string;
  outcome?: 'sent' | 'failed';
  /** Inclusive bounds on `at`. */
  since?: number;
  until?: number;
  limit: number;
}

/**
 * What the notification pipeline keeps durably, beside the alert state in DATA_DIR/alerts:
 * the notification log (per group, receiver and integration: what was last sent, so a restart
 * neither repeats nor drops a notification; Alertmanager keeps the same as `nflog` snapshots)
 * and the history of every attempt, kept for a retention and served by the history route.
 */
export interface NotificationStore {
  /** The notification log as stored, by `logKey`. */
  readLog(): Map<string, LogEntry>;
  /** Replaces the log entry of `key`, forgotten after `expiresAt`; resolves once it is stored. */
  writeLog(key: string, entry: LogEntry, expiresAt: number): Promise<void>;
  /** Keeps an attempt (stored with the next write). */
  addAttempt(attempt: NotificationAttempt): void;
  /** Newest first. */
  attempts(query: AttemptQuery): NotificationAttempt[];
  /** Drops log entries past their expiry and attempts older than `historyBefore`. */
  prune(now: number, historyBefore: number): void;
  close(): void;
}

/** The notification log's key: one group sent to one integration of one receiver. */
export function logKey(groupKey: string, receiver: string, integration: string): string {
  return `${groupKey}\u0000${receiver}\u0000${integration}`;
}

interface AttemptRow {
  at: number;
  receiver: string;
  integration: string;
  group_key: string;
  detail: string;
}

/** The columns of an attempt that are not filtered on, as one JSON text. */
type AttemptDetail = Pick<NotificationAttempt, 'groupLabels' | 'firing' | 'resolved' | 'reason' | 'attempt' | 'outcome' | 'failure' | 'durationMs'>;

/**
 * The embedded notification store: SQLite, in the same database file as the alert state. Writes
 * made in one turn of the event loop are committed together, in one transaction: a thousand
 * groups flushing at once cost a few commits (and with DATA_SYNC=full a few disk flushes), not
 * two thousand.
 */
export class SqliteNotificationStore implements NotificationStore {
  private readonly db: Database.Database;
  private pending: Array<() => void> = [];
  private committed: Array<{ resolve: () => void; reject: (error: unknown) => void }> = [];
  private commitScheduled = false;
  private readonly commitAll: (writes: ReadonlyArray<() => void>) => void;
  private readonly upsertLog: Database.Statement<[string, string, number]>;
  private readonly insertAttempt: Database.Statement<[number, string, string, string, string, string]>;

  constructor(dataDir: string, durability: Durability) {
    this.db = openAlertsDatabase(dataDir, durability);
    this.db.exec(`
      CREATE TABLE IF NOT EXISTS notification_log (key TEXT PRIMARY KEY, entry TEXT NOT NULL, expires_at INTEGER NOT NULL);
      CREATE TABLE IF NOT EXISTS notification_attempts (
        id INTEGER PRIMARY KEY, at INTEGER NOT NULL, receiver TEXT NOT NULL, integration TEXT NOT NULL,
        group_key TEXT NOT NULL, outcome TEXT NOT NULL, detail TEXT NOT NULL);
      CREATE INDEX IF NOT EXISTS notification_attempts_at ON notification_attempts (at);`);
    this.upsertLog = this.db.prepare('INSERT INTO notification_log (key, entry, expires_at) VALUES (?, ?, ?) ON CONFLICT (key) DO UPDATE SET entry = excluded.entry, expires_at = excluded.expires_at');
    this.insertAttempt = this.db.prepare('INSERT INTO notification_attempts (at, receiver, integration, group_key, outcome, detail) VALUES (?, ?, ?, ?, ?, ?)');
    this.commitAll = this.db.transaction((writes: ReadonlyArray<() => void>) => {
      for (const write of writes) write();
    });
  }

  /** Queues a write for this turn's transaction. */
  private queue(write: () => void): void {
    this.pending.push(write);
    if (this.commitScheduled) return;
    this.commitScheduled = true;
    setImmediate(() => this.commit());
  }

  /** Commits what is queued, and settles those waiting for it. */
  private commit(): void {
    this.commitScheduled = false;
    const writes = this.pending;
    const waiting = this.committed;
    this.pending = [];
    this.committed = [];
    if (writes.length === 0) return;
    try {
      this.commitAll(writes);
    } catch (error) {
      for (const waiter of waiting) waiter.reject(error);
      return;
    }
    for (const waiter of waiting) waiter.resolve();
  }

  readLog(): Map<string, LogEntry> {
    const rows = this.db.prepare('SELECT key, entry FROM notification_log').all() as Array<{ key: string; entry: string }>;
    return new Map(rows.map((row) => [row.key, JSON.parse(row.entry) as LogEntry]));
  }

  writeLog(key: string, entry: LogEntry, expiresAt: number): Promise<void> {
    const text = JSON.stringify(entry);
    this.queue(() => this.upsertLog.run(key, text, expiresAt));
    return new Promise((resolve, reject) => this.committed.push({ resolve, reject }));
  }

  addAttempt(attempt: NotificationAttempt): void {
    const { at, receiver, integration, groupKey, ...rest } = attempt;
    const detail: AttemptDetail = rest;
    const text = JSON.stringify(detail);
    this.queue(() => this.insertAttempt.run(at, receiver, integration, groupKey, attempt.outcome, text));
  }

  attempts(query: AttemptQuery): NotificationAttempt[] {
    this.commit();
    const where: string[] = [];
    const values: Array<string | number> = [];
    const add = (clause: string, value: string | number | undefined) => {
      if (value === undefined) return;
      where.push(clause);
      values.push(value);
    };
    add('receiver = ?', query.receiver);
    add('group_key = ?', query.groupKey);
    add('integration = ?', query.integration);
    add('outcome = ?', query.outcome);
    add('at >= ?', query.since);
    add('at <= ?', query.until);
    const sql = `SELECT at, receiver, integration, group_key, detail FROM notification_attempts${where.length > 0 ? ` WHERE ${where.join(' AND ')}` : ''} ORDER BY at DESC, id DESC LIMIT ?`;
    const rows = this.db.prepare(sql).all(...values, query.limit) as AttemptRow[];
    return rows.map((row) => ({ at: row.at, receiver: row.receiver, integration: row.integration, groupKey: row.group_key, ...(JSON.parse(row.detail) as AttemptDetail) }));
  }

  prune(now: number, historyBefore: number): void {
    this.commit();
    this.db.prepare('DELETE FROM notification_log WHERE expires_at < ?').run(now);
    this.db.prepare('DELETE FROM notification_attempts WHERE at < ?').run(historyBefore);
  }

  close(): void {
    this.commit();
    this.db.close();
  }
}
