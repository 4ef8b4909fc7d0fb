import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';

/** This process's hold on DATA_DIR; release() lets another instance have it. */
export interface InstanceLock {
  release(): void;
}

const LOCK_FILE = 'instance.lock';
const PID_FILE = 'instance.pid';

/**
 * Takes DATA_DIR for this process alone, or says who has it. Two instances writing one alert log
 * and one score database would each answer from their own memory and overwrite the other's
 * compactions. The lock is SQLite's exclusive lock on a file of its own: an fcntl lock, which the
 * kernel drops when the process ends however it ends (kill -9 included), so a crash never leaves
 * a stale lock behind.
 */
export function lockDataDir(dir: string): InstanceLock {
  mkdirSync(dir, { recursive: true });
  const db = new Database(join(dir, LOCK_FILE), { timeout: 0 });
  try {
    db.pragma('locking_mode = EXCLUSIVE');
    db.exec('BEGIN EXCLUSIVE');
  } catch (error) {
    db.close();
    if ((error as { code?: string }).code !== 'SQLITE_BUSY') throw error;
    throw new Error(`another instance is using DATA_DIR ${dir}${holderOf(dir)}; stop it, or give this one a DATA_DIR of its own`);
  }
  writeFileSync(join(dir, PID_FILE), `${process.pid}\n`);
  return {
    release() {
      if (!db.open) return;
      db.exec('ROLLBACK');
      db.close();
    },
  };
}

function holderOf(dir: string): string {
  try {
    const pid = readFileSync(join(dir, PID_FILE), 'utf8').trim();
    return /^\d+$/.test(pid) ? ` (process ${pid})` : '';
  } catch {
    return '';
  }
}
