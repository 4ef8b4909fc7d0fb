import type { Dialect } from './dialect.js';

/**
 * Store logic written once for SQLite and PostgreSQL. A store method is a plan: a generator that
 * yields the statements it needs, one at a time, and is handed each one's rows back. An executor
 * runs it: on SQLite (better-sqlite3, synchronous) the method returns its value at once, as the
 * embedded store always has; on PostgreSQL it returns a promise of it.
 */
export type Mode = 'sync' | 'async';

/** What a store method returns in a mode. */
export type Outcome<M extends Mode, T> = M extends 'sync' ? T : Promise<T>;

/** A statement of the catalogue (queries.ts), written once: with `?` placeholders, or with the dialect's pieces. */
export interface Query<Args extends readonly unknown[], Row> {
  readonly sql: string | ((d: Dialect) => string);
  /** Types only: what the statement binds, and each row it returns. */
  readonly shape?: { args: Args; row: Row };
}

export type AnyQuery = Query<readonly unknown[], unknown>;

export function query<Args extends readonly unknown[], Row = never>(sql: string | ((d: Dialect) => string)): Query<Args, Row> {
  return { sql };
}

/** The statement's text for one database. */
export function render(query: AnyQuery, d: Dialect): string {
  return d.placeholders(typeof query.sql === 'string' ? query.sql : query.sql(d));
}

export type Step =
  | { readonly kind: 'rows' | 'row' | 'write'; readonly query: AnyQuery; readonly args: readonly unknown[] }
  /** Writes of this account wait for each other until the transaction ends. */
  | { readonly kind: 'lockAccount'; readonly userId: string };

export type Plan<T> = Generator<Step, T, unknown>;

export function* rows<A extends readonly unknown[], R>(query: Query<A, R>, ...args: A): Plan<R[]> {
  return (yield { kind: 'rows', query, args }) as R[];
}

/** The first row, or undefined. */
export function* row<A extends readonly unknown[], R>(query: Query<A, R>, ...args: A): Plan<R | undefined> {
  return (yield { kind: 'row', query, args }) as R | undefined;
}

export function* write<A extends readonly unknown[]>(query: Query<A, never>, ...args: A): Plan<void> {
  yield { kind: 'write', query, args };
}

export function* lockAccount(userId: string): Plan<void> {
  yield { kind: 'lockAccount', userId };
}

/** The first row made into a T, or undefined when there is none. */
export function* rowAs<A extends readonly unknown[], R, T>(make: (found: R) => T, query: Query<A, R>, ...args: A): Plan<T | undefined> {
  const found = yield* row(query, ...args);
  return found === undefined ? undefined : make(found);
}

export function* rowsAs<A extends readonly unknown[], R, T>(make: (found: R) => T, query: Query<A, R>, ...args: A): Plan<T[]> {
  return (yield* rows(query, ...args)).map(make);
}

/** A row with a JSON document column, as both executors return it (text), that holds a T. */
export interface DocRow<T> {
  doc: string;
  /** Types only. */
  readonly holds?: T;
}

export const parseDoc = <T>(found: DocRow<T>): T => JSON.parse(found.doc) as T;

/** The document of the first row, or undefined. */
export const doc = <A extends readonly unknown[], T>(query: Query<A, DocRow<T>>, ...args: A): Plan<T | undefined> => rowAs(parseDoc<T>, query, ...args);

export const docs = <A extends readonly unknown[], T>(query: Query<A, DocRow<T>>, ...args: A): Plan<T[]> => rowsAs(parseDoc<T>, query, ...args);

/**
 * What runs plans on one database. Each store gives its executor the queries it uses, which are
 * rendered (and on SQLite prepared) once, when the store is made.
 */
export interface Executor<M extends Mode> {
  /** Each statement on its own. */
  run<T>(plan: () => Plan<T>): Outcome<M, T>;
  /**
   * All of them in one transaction, in which an account's quota can be checked: concurrent
   * writes of the account, from any process, run one after the other.
   */
  transaction<T>(plan: () => Plan<T>): Outcome<M, T>;
  /** Closes what it runs on: the database, or the pool. */
  close(): Outcome<M, void>;
}

/** Runs the plan, answering each step with `perform`; a step's error is thrown into the plan, which may catch it. */
export function drive<T>(plan: Plan<T>, perform: (step: Step) => unknown): T {
  let next = plan.next();
  while (!next.done) {
    let answer: unknown;
    try {
      answer = perform(next.value);
    } catch (error) {
      next = plan.throw(error);
      continue;
    }
    next = plan.next(answer);
  }
  return next.value;
}

/** `drive` with steps that complete later. */
export async function driveAsync<T>(plan: Plan<T>, perform: (step: Step) => Promise<unknown>): Promise<T> {
  let next = plan.next();
  while (!next.done) {
    next = await perform(next.value).then(
      (answer) => plan.next(answer),
      (error: unknown) => plan.throw(error),
    );
  }
  return next.value;
}
