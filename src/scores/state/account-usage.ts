import type pg from 'pg';
import type { Usage } from '../accounts/quota.js';

/**
 * An account's usage (accounts/quota.ts) in SQL both stores run: the sizes of its scores'
 * revisions and of its uploads, read from indexes that hold the sizes (`revisions_sizes`,
 * `uploads_by_owner`), so no MusicXML is read to sum them. `param` is the account id's
 * placeholder: `@owner` for SQLite, `$1` for PostgreSQL.
 */
export function usageSql(param: string): string {
  return `SELECT
  CAST((SELECT COALESCE(SUM(revisions.size), 0) FROM scores JOIN revisions ON revisions.score_id = scores.id WHERE scores.owner_id = ${param})
    + (SELECT COALESCE(SUM(size), 0) FROM uploads WHERE owner_id = ${param}) AS BIGINT) AS bytes,
  (SELECT COUNT(*) FROM uploads WHERE owner_id = ${param}) AS uploads`;
}

/** The number of revisions of a score, counted on its index. */
export function revisionCountSql(param: string): string {
  return `SELECT COUNT(*) AS count FROM revisions WHERE score_id = ${param}`;
}

/** The size a revision's MusicXML counts for: its UTF-8 bytes, as the migration measures stored ones. */
export function musicXmlBytes(musicXml: string): number {
  return Buffer.byteLength(musicXml, 'utf8');
}

/**
 * On PostgreSQL: locks the account's row for the rest of the transaction, then reads its usage,
 * so quota-checked writes of one account, from any instance, run one after the other and two
 * cannot both see room for one.
 */
export async function lockedUsage(client: pg.PoolClient, userId: string): Promise<Usage> {
  await client.query('SELECT 1 FROM users WHERE id = $1 FOR UPDATE', [userId]);
  const { rows } = await client.query<Usage>(usageSql('$1'), [userId]);
  return rows[0] as Usage;
}

