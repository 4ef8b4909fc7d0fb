import { join } from 'node:path';
import type Database from 'better-sqlite3';
import { openDatabase, type Durability } from '../../sqlite/index.js';
import { ADDED_COLUMNS, ADDED_INDEXES } from './added-columns.js';
import { SQLITE } from './dialect.js';
import { schemaOf } from './schema.js';

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
  db.exec(schemaOf(SQLITE));
  migrate(db);
  return db;
}
