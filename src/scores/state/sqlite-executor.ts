import type Database from 'better-sqlite3';
import { SQLITE } from './dialect.js';
import { drive, render, type AnyQuery, type Executor, type Plan, type Step } from './plan.js';

/** better-sqlite3 binds no booleans: flag columns hold 0 and 1 (rows.ts reads both forms). */
const bindable = (value: unknown) => (typeof value === 'boolean' ? Number(value) : value);

/** Runs plans on the score API's SQLite database, synchronously, each query prepared once. */
export class SqliteExecutor implements Executor<'sync'> {
  private readonly statements = new Map<AnyQuery, Database.Statement<unknown[], unknown>>();
  private readonly inTransaction: Database.Transaction<(plan: () => Plan<unknown>) => unknown>;

  constructor(
    private readonly db: Database.Database,
    queries: Readonly<Record<string, AnyQuery>>,
  ) {
    for (const query of Object.values(queries)) this.statements.set(query, db.prepare(render(query, SQLITE)));
    this.inTransaction = db.transaction((plan: () => Plan<unknown>) => this.run(plan));
  }

  run<T>(plan: () => Plan<T>): T {
    return drive(plan(), (step) => this.perform(step));
  }

  transaction<T>(plan: () => Plan<T>): T {
    // IMMEDIATE takes the database's write lock at BEGIN, before anything is read: a quota read
    // in the transaction cannot be overtaken by another write, from this process or another.
    return this.inTransaction.immediate(plan) as T;
  }

  close(): void {
    this.db.close();
  }

  private perform(step: Step): unknown {
    // The write lock IMMEDIATE took already keeps every other write out.
    if (step.kind === 'lockAccount') return undefined;
    const statement = this.statements.get(step.query);
    if (statement === undefined) throw new Error(`a query the store did not give its executor: ${render(step.query, SQLITE)}`);
    const args = step.args.map(bindable);
    if (step.kind === 'rows') return statement.all(...args);
    if (step.kind === 'row') return statement.get(...args);
    statement.run(...args);
    return undefined;
  }
}
