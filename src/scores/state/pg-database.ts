import pg from 'pg';
import { ADDED_COLUMNS, ADDED_INDEXES } from './added-columns.js';

const SCHEMA = `
CREATE TABLE IF NOT EXISTS users (
  id TEXT PRIMARY KEY,
  username TEXT NOT NULL UNIQUE,
  registration_date BIGINT NOT NULL,
  picture_file TEXT,
  cover_picture_file TEXT
);
CREATE TABLE IF NOT EXISTS scores (
  id TEXT PRIMARY KEY,
  owner_id TEXT NOT NULL REFERENCES users(id),
  doc JSONB NOT NULL
);
CREATE INDEX IF NOT EXISTS scores_by_owner ON scores (owner_id);
CREATE TABLE IF NOT EXISTS revisions (
  seq BIGSERIAL PRIMARY KEY,
  id TEXT NOT NULL UNIQUE,
  score_id TEXT NOT NULL REFERENCES scores(id),
  user_id TEXT NOT NULL,
  creation_date BIGINT NOT NULL,
  description TEXT NOT NULL,
  autosave BOOLEAN NOT NULL,
  musicxml TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS revisions_by_score ON revisions (score_id, seq);
CREATE TABLE IF NOT EXISTS tracks (
  seq BIGSERIAL PRIMARY KEY,
  id TEXT NOT NULL UNIQUE,
  score_id TEXT NOT NULL,
  doc JSONB NOT NULL
);
CREATE INDEX IF NOT EXISTS tracks_by_score ON tracks (score_id, seq);
CREATE TABLE IF NOT EXISTS uploads (
  id TEXT PRIMARY KEY,
  owner_id TEXT NOT NULL,
  purpose TEXT NOT NULL,
  content_type TEXT NOT NULL,
  size BIGINT NOT NULL,
  creation_date BIGINT NOT NULL
);
CREATE TABLE IF NOT EXISTS education_profiles (
  user_id TEXT PRIMARY KEY REFERENCES users(id),
  email TEXT UNIQUE,
  doc JSONB NOT NULL
);
CREATE TABLE IF NOT EXISTS classes (
  seq BIGSERIAL PRIMARY KEY,
  id TEXT NOT NULL UNIQUE,
  enrollment_code TEXT NOT NULL UNIQUE,
  doc JSONB NOT NULL
);
CREATE INDEX IF NOT EXISTS classes_by_teachers_group ON classes ((doc->>'teachersGroupId'));
CREATE INDEX IF NOT EXISTS classes_by_students_group ON classes ((doc->>'studentsGroupId'));
CREATE TABLE IF NOT EXISTS class_members (
  seq BIGSERIAL PRIMARY KEY,
  class_id TEXT NOT NULL REFERENCES classes(id),
  user_id TEXT NOT NULL REFERENCES users(id),
  role TEXT NOT NULL,
  UNIQUE (class_id, user_id)
);
CREATE INDEX IF NOT EXISTS class_members_by_user ON class_members (user_id, seq);
CREATE TABLE IF NOT EXISTS assignments (
  seq BIGSERIAL PRIMARY KEY,
  id TEXT NOT NULL UNIQUE,
  class_id TEXT NOT NULL REFERENCES classes(id),
  doc JSONB NOT NULL
);
CREATE INDEX IF NOT EXISTS assignments_by_class ON assignments (class_id, seq);
CREATE INDEX IF NOT EXISTS assignments_by_attachment ON assignments USING GIN ((doc->'attachments') jsonb_path_ops);
CREATE TABLE IF NOT EXISTS submissions (
  seq BIGSERIAL PRIMARY KEY,
  id TEXT NOT NULL UNIQUE,
  class_id TEXT NOT NULL,
  assignment_id TEXT NOT NULL REFERENCES assignments(id),
  creator_id TEXT NOT NULL,
  doc JSONB NOT NULL,
  UNIQUE (assignment_id, creator_id)
);
CREATE INDEX IF NOT EXISTS submissions_by_student ON submissions (class_id, creator_id, seq);
CREATE TABLE IF NOT EXISTS tokens (
  hash TEXT PRIMARY KEY,
  user_id TEXT NOT NULL REFERENCES users(id),
  scopes TEXT NOT NULL,
  created BIGINT NOT NULL
);
`;

/** Adds what added-columns.ts lists and the database lacks (under the creation lock). */
async function migrate(client: pg.PoolClient): Promise<void> {
  for (const { table, column, type, fill } of ADDED_COLUMNS) {
    const { rowCount } = await client.query('SELECT 1 FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = $1 AND column_name = $2', [table, column]);
    if (rowCount !== 0) continue;
    await client.query(`ALTER TABLE ${table} ADD COLUMN ${column} ${type.postgres}`);
    if (fill.postgres !== '') await client.query(fill.postgres);
  }
  await client.query(ADDED_INDEXES);
}

// BIGINT columns hold epoch milliseconds, well inside a double's exact range: read them as numbers.
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number(value));

/**
 * The score API's tables on a PostgreSQL server (`SCORES_DATABASE_URL`), shared by every
 * instance; created when missing, and given the columns added since in place. Creation is
 * serialised with an advisory lock so instances starting together do not race on
 * `CREATE ... IF NOT EXISTS` or on a migration.
 */
export async function openScoresPostgres(url: string): Promise<pg.Pool> {
  const pool = new pg.Pool({ connectionString: url, max: 8 });
  const client = await pool.connect();
  try {
    await client.query('SELECT pg_advisory_lock(7313)');
    await client.query(SCHEMA);
    await migrate(client);
    await client.query('SELECT pg_advisory_unlock(7313)');
  } finally {
    client.release();
  }
  return pool;
}

/** Runs `work` in one transaction on one connection. */
export async function inTransaction<T>(pool: pg.Pool, work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    const result = await work(client);
    await client.query('COMMIT');
    return result;
  } catch (error) {
    await client.query('ROLLBACK');
    throw error;
  } finally {
    client.release();
  }
}
