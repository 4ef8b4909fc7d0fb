import type { LogEntry } from './dedup.js';
import { logKey, type NotificationStore } from './notification-store.js';

/**
 * The notification log in memory, written through to the store: what was last sent per group,
 * receiver and integration. An entry is written before the flush that sent it counts as done, so
 * after kill -9 the worst case is one repeated notification, never a lost one.
 */
export class NotificationLog {
  private readonly entries: Map<string, LogEntry>;

  /** `retentionMs`: how long an entry is kept after its send (Alertmanager's --data.retention). */
  constructor(
    private readonly store: NotificationStore,
    private readonly retentionMs: number,
  ) {
    this.entries = store.readLog();
  }

  get(groupKey: string, receiver: string, integration: string): LogEntry | undefined {
    return this.entries.get(logKey(groupKey, receiver, integration));
  }

  /** Resolves once the entry is stored: only then is the flush that sent it done. */
  async record(groupKey: string, receiver: string, integration: string, entry: LogEntry): Promise<void> {
    const key = logKey(groupKey, receiver, integration);
    this.entries.set(key, entry);
    await this.store.writeLog(key, entry, entry.at + this.retentionMs);
  }

  /** Forgets the entries past their retention, here and in the store. */
  prune(now: number): void {
    for (const [key, entry] of this.entries) if (entry.at + this.retentionMs < now) this.entries.delete(key);
  }
}
