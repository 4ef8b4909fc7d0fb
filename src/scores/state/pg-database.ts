import type pg from 'pg';
import { ADDED_COLUMNS, ADDED_INDEXES } from './added-columns.js';
import { POSTGRES } from './dialect.js';
import { schemaOf } from './schema.js';

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

/** The PostgreSQL client, loaded on the first connection: a service on SQLite never loads it. */
async function loadPg(): Promise<typeof pg> {
  const { default: driver } = await import('pg');
  // BIGINT columns hold epoch milliseconds, well inside a double's exact range: read them as numbers.
  driver.types.setTypeParser(driver.types.builtins.INT8, (value) => Number(value));
  return driver;
}

/** JSON documents come back as text, as SQLite returns them: the stores parse them where they read them (plan.ts). */
function jsonbAsText(driver: typeof pg): pg.CustomTypesConfig {
  return {
    getTypeParser: ((oid: number, format?: 'text' | 'binary') => (oid === driver.types.builtins.JSONB ? (value: string) => value : driver.types.getTypeParser(oid, format))) as typeof driver.types.getTypeParser,
  };
}

/**
 * The score API's tables on a PostgreSQL server (`SCORES_DATABASE_URL`), shared by every
 * instance; created when missing, and given the columns added since in place. Creation is
 * serialised with an advisory lock so instances starting together do not race on
 * `CREATE ... IF NOT EXISTS` or on a migration.
 */
export async function openScoresPostgres(url: string): Promise<pg.Pool> {
  const driver = await loadPg();
  const pool = new driver.Pool({ connectionString: url, max: 8, types: jsonbAsText(driver) });
  const client = await pool.connect();
  try {
    await client.query('SELECT pg_advisory_lock(7313)');
    await client.query(schemaOf(POSTGRES));
    await migrate(client);
    await client.query('SELECT pg_advisory_unlock(7313)');
  } finally {
    client.release();
  }
  return pool;
}
