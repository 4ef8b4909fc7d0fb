export type DialectName = 'sqlite' | 'postgres';

/**
 * What the score database's SQL says differently on SQLite and on PostgreSQL. The schema
 * (schema.ts) and the queries (queries.ts) are written once with these pieces and rendered for
 * each; everything else in them is SQL both databases read alike.
 */
export interface Dialect {
  readonly name: DialectName;
  /** Epoch milliseconds and byte counts (64-bit). */
  readonly bigint: string;
  /** A JSON document column. */
  readonly doc: string;
  /** A true/false column. */
  readonly flag: string;
  /** An ascending row number, the primary key, that orders a table's rows oldest first. */
  readonly seq: string;
  /** A top-level field of the JSON document in `column`, as text: the indexes on one are written with it too. */
  field(column: string, name: string): string;
  /** Whether a top-level boolean field of the document is true. */
  isTrue(column: string, name: string): string;
  /** The document with a top-level boolean field set to false. */
  withFalse(column: string, name: string): string;
  /** Whether one of the document's `attachments` is the score whose id is bound to this condition's `?`. */
  attachesScore(column: string): string;
  /** The index `attachesScore` uses on assignments, where the database has one. */
  readonly attachmentsIndex: string;
  /** The statement with each `?` outside quotes written as this database's placeholder. */
  placeholders(sql: string): string;
}

export const SQLITE: Dialect = {
  name: 'sqlite',
  bigint: 'INTEGER',
  doc: 'TEXT',
  flag: 'INTEGER',
  // INTEGER PRIMARY KEY is the rowid itself: ascending, no separate index.
  seq: 'INTEGER PRIMARY KEY',
  field: (column, name) => `json_extract(${column}, '$.${name}')`,
  isTrue: (column, name) => `json_extract(${column}, '$.${name}') = 1`,
  withFalse: (column, name) => `json_set(${column}, '$.${name}', json('false'))`,
  attachesScore: (column) => `EXISTS (SELECT 1 FROM json_each(${column}, '$.attachments') WHERE json_extract(value, '$.score') = ?)`,
  attachmentsIndex: '',
  placeholders: (sql) => sql,
};

export const POSTGRES: Dialect = {
  name: 'postgres',
  bigint: 'BIGINT',
  doc: 'JSONB',
  flag: 'BOOLEAN',
  seq: 'BIGSERIAL PRIMARY KEY',
  // Parenthesised, as an index on an expression is written.
  field: (column, name) => `(${column}->>'${name}')`,
  isTrue: (column, name) => `(${column}->>'${name}')::boolean`,
  withFalse: (column, name) => `jsonb_set(${column}, '{${name}}', 'false')`,
  // Containment, which the GIN index below answers.
  attachesScore: (column) => `${column}->'attachments' @> jsonb_build_array(jsonb_build_object('score', CAST(? AS TEXT)))`,
  attachmentsIndex: "CREATE INDEX IF NOT EXISTS assignments_by_attachment ON assignments USING GIN ((doc->'attachments') jsonb_path_ops);",
  placeholders: (sql) => {
    let n = 0;
    return sql.replace(/'[^']*'|\?/g, (match) => (match === '?' ? `$${++n}` : match));
  },
};
