import { join } from 'node:path';
import type Database from 'better-sqlite3';
import { openDatabase, type Durability } from '../../sqlite/index.js';
import { ADDED_COLUMNS, ADDED_INDEXES } from './added-columns.js';

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
CREATE TABLE IF NOT EXISTS tracks (
  seq INTEGER PRIMARY KEY,
  id TEXT NOT NULL UNIQUE,
  score_id TEXT NOT NULL,
  doc TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS tracks_by_score ON tracks (score_id, seq);
CREATE TABLE IF NOT EXISTS uploads (
  id TEXT PRIMARY KEY,
  owner_id TEXT NOT NULL,
  purpose TEXT NOT NULL,
  content_type TEXT NOT NULL,
  size INTEGER NOT NULL,
  creation_date INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS education_profiles (
  user_id TEXT PRIMARY KEY REFERENCES users(id),
  email TEXT UNIQUE,
  doc TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS classes (
  seq INTEGER PRIMARY KEY,
  id TEXT NOT NULL UNIQUE,
  enrollment_code TEXT NOT NULL UNIQUE,
  doc TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS classes_by_teachers_group ON classes (json_extract(doc, '$.teachersGroupId'));
CREATE INDEX IF NOT EXISTS classes_by_students_group ON classes (json_extract(doc, '$.studentsGroupId'));
CREATE TABLE IF NOT EXISTS class_members (
  seq INTEGER PRIMARY KEY,
  class_id TEXT NOT NULL REFERENCES classes(id),
  user_id TEXT NOT NULL REFERENCES users(id),
  role TEXT NOT NULL,
  UNIQUE (class_id, user_id)
);
CREATE INDEX IF NOT EXISTS class_members_by_user ON class_members (user_id, seq);
CREATE TABLE IF NOT EXISTS assignments (
  seq INTEGER PRIMARY KEY,
  id TEXT NOT NULL UNIQUE,
  class_id TEXT NOT NULL REFERENCES classes(id),
  doc TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS assignments_by_class ON assignments (class_id, seq);
CREATE TABLE IF NOT EXISTS submissions (
  seq INTEGER PRIMARY KEY,
  id TEXT NOT NULL UNIQUE,
  class_id TEXT NOT NULL,
  assignment_id TEXT NOT NULL REFERENCES assignments(id),
  creator_id TEXT NOT NULL,
  doc TEXT NOT NULL,
  UNIQUE (assignment_id, creator_id)
);
CREATE INDEX IF NOT EXISTS submissions_by_student ON submissions (class_id, creator_id, seq);
CREATE TABLE IF NOT EXISTS tokens (
  hash TEXT PRIMARY KEY,
  user_id TEXT NOT NULL REFERENCES users(id),
  scopes TEXT NOT NULL,
  created INTEGER NOT NULL
);
`;

/** Adds what added-columns.ts lists and the database lacks, in one transaction. */
function migrate(db: Database.Database): void {
  db.transaction(() => {
    for (const { table, column, type, fill } of ADDED_COLUMNS) {
      const columns = db.prepare<[], { name: string }>(`SELECT name FROM pragma_table_info('${table}')`).all();
      if (columns.some((c) => c.name === column)) continue;
      db.exec(`ALTER TABLE ${table} ADD COLUMN ${column} ${type.sqlite}`);
      if (fill.sqlite !== '') db.exec(fill.sqlite);
    }
    db.exec(ADDED_INDEXES);
  }).immediate();
}

/** The score API's embedded database, `scores.sqlite` in `dir`, which `scores:token` writes too. */
export function openScoresDatabase(dir: string, durability: Durability): Database.Database {
  const db = openDatabase(join(dir, 'scores.sqlite'), durability);
  db.pragma('foreign_keys = ON');
  db.exec(SCHEMA);
  migrate(db);
  return db;
}
