import type pg from 'pg';
import { quotaRefusal, revisionRefusal, type Quota, type QuotaRefusal } from '../accounts/quota.js';
import type { Revision, Score } from '../library/score.js';
import type { ScoreStore } from '../library/score-store.js';
import { lockedUsage, musicXmlBytes, revisionCountSql } from './account-usage.js';
import { REVISION_COLUMNS, revisionOf, type RevisionRow } from './rows.js';
import { inTransaction } from './pg-database.js';

async function insertRevision(client: pg.PoolClient, revision: Revision, musicXml: string, size: number): Promise<void> {
  await client.query(`INSERT INTO revisions (${REVISION_COLUMNS}, musicxml, size) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`, [
    revision.id,
    revision.scoreId,
    revision.userId,
    revision.creationDate,
    revision.description,
    revision.autosave,
    musicXml,
    size,
  ]);
}

/** Scores as JSONB documents beside their owner, revisions with their MusicXML, on PostgreSQL. */
export class PgScoreStore implements ScoreStore {
  constructor(private readonly pool: pg.Pool) {}

  createScore(score: Score, first: Revision, musicXml: string, quota: Quota): Promise<QuotaRefusal | undefined> {
    return inTransaction(this.pool, async (client) => {
      const size = musicXmlBytes(musicXml);
      const refused = quotaRefusal(quota, await lockedUsage(client, score.ownerId), size, 0);
      if (refused !== undefined) return refused;
      await client.query('INSERT INTO scores (id, owner_id, doc) VALUES ($1, $2, $3)', [score.id, score.ownerId, JSON.stringify(score)]);
      await insertRevision(client, first, musicXml, size);
      return undefined;
    });
  }

  async getScore(id: string): Promise<Score | undefined> {
    const { rows } = await this.pool.query<{ doc: Score }>('SELECT doc FROM scores WHERE id = $1', [id]);
    return rows[0]?.doc;
  }

  async updateScore(score: Score): Promise<void> {
    await this.pool.query('UPDATE scores SET doc = $1 WHERE id = $2', [JSON.stringify(score), score.id]);
  }

  deleteScore(id: string): Promise<void> {
    return inTransaction(this.pool, async (client) => {
      await client.query('DELETE FROM revisions WHERE score_id = $1', [id]);
      await client.query('DELETE FROM scores WHERE id = $1', [id]);
    });
  }

  addRevision(revision: Revision, musicXml: string, score: Score, quota: Quota): Promise<QuotaRefusal | undefined> {
    return inTransaction(this.pool, async (client) => {
      const size = musicXmlBytes(musicXml);
      const usage = await lockedUsage(client, score.ownerId);
      const { rows } = await client.query<{ count: number }>(revisionCountSql('$1'), [score.id]);
      const refused = revisionRefusal(quota, (rows[0] as { count: number }).count) ?? quotaRefusal(quota, usage, size, 0);
      if (refused !== undefined) return refused;
      await insertRevision(client, revision, musicXml, size);
      await client.query('UPDATE scores SET doc = $1 WHERE id = $2', [JSON.stringify(score), score.id]);
      return undefined;
    });
  }

  async listRevisions(scoreId: string): Promise<Revision[]> {
    const { rows } = await this.pool.query<RevisionRow>(`SELECT ${REVISION_COLUMNS} FROM revisions WHERE score_id = $1 ORDER BY seq`, [scoreId]);
    return rows.map(revisionOf);
  }

  async getRevision(scoreId: string, revisionId: string): Promise<Revision | undefined> {
    const { rows } =
      revisionId === 'last'
        ? await this.pool.query<RevisionRow>(`SELECT ${REVISION_COLUMNS} FROM revisions WHERE score_id = $1 ORDER BY seq DESC LIMIT 1`, [scoreId])
        : await this.pool.query<RevisionRow>(`SELECT ${REVISION_COLUMNS} FROM revisions WHERE score_id = $1 AND id = $2`, [scoreId, revisionId]);
    return rows[0] === undefined ? undefined : revisionOf(rows[0]);
  }

  async revisionMusicXml(revisionId: string): Promise<string | undefined> {
    const { rows } = await this.pool.query<{ musicxml: string }>('SELECT musicxml FROM revisions WHERE id = $1', [revisionId]);
    return rows[0]?.musicxml;
  }
}
