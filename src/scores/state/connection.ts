import Database from 'better-sqlite3';
import type pg from 'pg';
import { PgExecutor } from './pg-executor.js';
import type { AnyQuery, Executor, Mode } from './plan.js';
import { SqliteExecutor } from './sqlite-executor.js';

/** What a store is made on: the embedded SQLite database (synchronous), or a PostgreSQL pool. */
export type Connection<M extends Mode> = M extends 'sync' ? Database.Database : pg.Pool;

/** The executor of a store's queries on its connection. */
export function executorOn<M extends Mode>(connection: Connection<M>, queries: Readonly<Record<string, AnyQuery>>): Executor<M> {
  const executor = connection instanceof Database ? new SqliteExecutor(connection, queries) : new PgExecutor(connection as pg.Pool, queries);
  return executor as Executor<Mode> as Executor<M>;
}
