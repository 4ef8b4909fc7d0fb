import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';

/**
 * How hard a commit goes to disk (the setting DATA_SYNC). `normal` (SQLite's synchronous=NORMAL
 * in WAL mode): a commit is in the operating system's hands before the API answers, so a killed
 * process (kill -9, a crash) loses nothing acknowledged; a power cut may lose the last commits.
 * `full`: every commit is fsynced first, which survives a power cut too and costs a disk flush
 * per write.
 */
export type Durability = 'normal' | 'full';

/**
 * The WAL is copied into the database file once it holds this much: SQLite's default of 1,000
 * pages of 4 KiB, kept in bytes whatever the page size, so that larger pages do not make the WAL
 * larger on disk.
 */
const WAL_CHECKPOINT_BYTES = 1000 * 4096;

export interface DatabaseLayout {
  /**
   * Bytes per page of a new file (SQLite's default is 4096). A file that exists keeps its own:
   * SQLite changes it only by rebuilding the file outside WAL mode.
   */
  pageSize?: number;
}

/**
 * An embedded database file (its directory made if need be) in WAL mode, so that another process
 * (a command-line tool) may write while the service reads and writes; each waits up to 5 s for
 * the other's transaction.
 */
export function openDatabase(file: string, durability: Durability, layout: DatabaseLayout = {}): Database.Database {
  mkdirSync(dirname(file), { recursive: true });
  const db = new Database(file);
  if (layout.pageSize !== undefined) db.pragma(`page_size = ${layout.pageSize}`);
  db.pragma('journal_mode = WAL');
  const pageBytes = db.pragma('page_size', { simple: true }) as number;
  db.pragma(`wal_autocheckpoint = ${Math.max(1, Math.round(WAL_CHECKPOINT_BYTES / pageBytes))}`);
  db.pragma(durability === 'full' ? 'synchronous = FULL' : 'synchronous = NORMAL');
  db.pragma('busy_timeout = 5000');
  return db;
}
