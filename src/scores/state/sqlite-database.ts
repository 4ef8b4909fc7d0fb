import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';

/** `normal`: a commit survives a killed process; `full`: a power cut too (an fsync per commit). */
export type Synchronous = 'normal' | 'full';

const SCHEMA = `
CREATE TABLE IF NOT EXISTS users (
  id TEXT PRIMARY KEY,
  username TEXT NOT NULL UNIQUE,
  registration_date INTEGER NOT NULL,
  picture_file TEXT,
  cover_picture_file TEXT
);
CREATE TABLE IF NOT EXISTS scores (
  id TEXT PRIMARY KEY,
  owner_id TEXT NOT NULL REFERENCES users(id),
  doc TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS scores_by_owner ON scores (owner_id);
CREATE TABLE IF NOT EXISTS revisions (
  seq INTEGER PRIMARY KEY,
  id TEXT NOT NULL UNIQUE,
  score_id TEXT NOT NULL REFERENCES scores(id),
  user_id TEXT NOT NULL,
  creation_date INTEGER NOT NULL,
  description TEXT NOT NULL,
  autosave INTEGER NOT NULL,
  musicxml TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS revisions_by_score ON revisions (score_id, seq);
CREATE TABLE IF NOT EXISTS tokens (
  hash TEXT PRIMARY KEY,
  user_id TEXT NOT NULL REFERENCES users(id),
  scopes TEXT NOT NULL,
  created INTEGER NOT NULL
);
`;

/**
 * The score API's embedded database, `scores.sqlite` in `dir`, in WAL mode so that the
 * command-line tools can write while the service reads and writes (each waits up to 5 s for the
 * other's transaction).
 */
export function openScoresDatabase(dir: string, synchronous: Synchronous): Database.Database {
  mkdirSync(dir, { recursive: true });
  const db = new Database(join(dir, 'scores.sqlite'));
  db.pragma('journal_mode = WAL');
  db.pragma(synchronous === 'full' ? 'synchronous = FULL' : 'synchronous = NORMAL');
  db.pragma('busy_timeout = 5000');
  db.pragma('foreign_keys = ON');
  db.exec(SCHEMA);
  return db;
}
