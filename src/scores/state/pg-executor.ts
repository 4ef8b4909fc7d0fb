import type pg from 'pg';
import { POSTGRES } from './dialect.js';
import { driveAsync, render, type AnyQuery, type Executor, type Plan, type Step } from './plan.js';

/** Runs `work` in one transaction on one connection. */
async function inTransaction<T>(pool: pg.Pool, work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
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

/** Runs plans on the score API's PostgreSQL database, each statement awaited in turn. */
export class PgExecutor implements Executor<'async'> {
  private readonly texts = new Map<AnyQuery, string>();

  constructor(
    private readonly pool: pg.Pool,
    queries: Readonly<Record<string, AnyQuery>>,
  ) {
    for (const query of Object.values(queries)) this.texts.set(query, render(query, POSTGRES));
  }

  run<T>(plan: () => Plan<T>): Promise<T> {
    return driveAsync(plan(), (step) => this.perform(this.pool, step));
  }

  transaction<T>(plan: () => Plan<T>): Promise<T> {
    return inTransaction(this.pool, (client) => driveAsync(plan(), (step) => this.perform(client, step)));
  }

  close(): Promise<void> {
    return this.pool.end();
  }

  private async perform(on: pg.Pool | pg.PoolClient, step: Step): Promise<unknown> {
    // The account's row stays locked until the transaction ends, so that quota-checked writes of
    // one account, from any instance, run one after the other and two cannot both see room for one.
    if (step.kind === 'lockAccount') {
      await on.query('SELECT 1 FROM users WHERE id = $1 FOR UPDATE', [step.userId]);
      return undefined;
    }
    const text = this.texts.get(step.query);
    if (text === undefined) throw new Error(`a query the store did not give its executor: ${render(step.query, POSTGRES)}`);
    const { rows } = await on.query(text, [...step.args]);
    if (step.kind === 'rows') return rows;
    return step.kind === 'row' ? rows[0] : undefined;
  }
}
