import { TOKEN_ID_LENGTH } from '../accounts/tokens.js';
import type { DialectName } from './dialect.js';

/**
 * A column added after the first release, with the statement that fills it in rows stored
 * before it: a database made by an older version gains it in place when it is opened (both
 * stores run these), and its tokens keep working: they get their derived id and no expiry.
 */
export interface AddedColumn {
  table: string;
  column: string;
  type: Readonly<Record<DialectName, string>>;
  /** '' when NULL is right for older rows. */
  fill: Readonly<Record<DialectName, string>>;
}

const noFill = { sqlite: '', postgres: '' };

export const ADDED_COLUMNS: readonly AddedColumn[] = [
  { table: 'tokens', column: 'id', type: { sqlite: 'TEXT', postgres: 'TEXT' }, fill: { sqlite: `UPDATE tokens SET id = substr(hash, 1, ${TOKEN_ID_LENGTH})`, postgres: `UPDATE tokens SET id = substr(hash, 1, ${TOKEN_ID_LENGTH})` } },
  { table: 'tokens', column: 'expires', type: { sqlite: 'INTEGER', postgres: 'BIGINT' }, fill: noFill },
  { table: 'tokens', column: 'revoked', type: { sqlite: 'INTEGER', postgres: 'BIGINT' }, fill: noFill },
  { table: 'revisions', column: 'size', type: { sqlite: 'INTEGER', postgres: 'BIGINT' }, fill: { sqlite: 'UPDATE revisions SET size = length(CAST(musicxml AS BLOB))', postgres: 'UPDATE revisions SET size = octet_length(musicxml)' } },
];

/** Indexes over the added columns (and the upload sizes a quota sums), created when missing. */
export const ADDED_INDEXES = `
CREATE UNIQUE INDEX IF NOT EXISTS tokens_by_id ON tokens (id);
CREATE INDEX IF NOT EXISTS tokens_by_user ON tokens (user_id, created);
CREATE INDEX IF NOT EXISTS revisions_sizes ON revisions (score_id, size);
CREATE INDEX IF NOT EXISTS uploads_by_owner ON uploads (owner_id, size);
`;
