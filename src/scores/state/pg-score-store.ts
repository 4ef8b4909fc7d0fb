import type pg from 'pg';
import type { Revision, Score } from '../library/score.js';
import type { ScoreStore } from '../library/score-store.js';
import { REVISION_COLUMNS, revisionOf, type RevisionRow } from './rows.js';
import { inTransaction } from './pg-database.js';

async function insertRevision(client: pg.PoolClient, revision: Revision, musicXml: string): Promise<void> {
  await client.query(`INSERT INTO revisions (${REVISION_COLUMNS}, musicxml) VALUES ($1, $2, $3, $4, $5, $6, $7)`, [
    revision.id,
    revision.scoreId,
    revision.userId,
    revision.creationDate,
    revision.description,
    revision.autosave,
    musicXml,
  ]);
}

/** Scores as JSONB documents beside their owner, revisions with their MusicXML, on PostgreSQL. */
export class PgScoreStore implements ScoreStore {
  constructor(private readonly pool: pg.Pool) {}

  createScore(score: Score, first: Revision, musicXml: string): Promise<void> {
    return inTransaction(this.pool, async (client) => {
      await client.query('INSERT INTO scores (id, owner_id, doc) VALUES ($1, $2, $3)', [score.id, score.ownerId, JSON.stringify(score)]);
      await insertRevision(client, first, musicXml);
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

  addRevision(revision: Revision, musicXml: string, score: Score): Promise<void> {
    return inTransaction(this.pool, async (client) => {
      await insertRevision(client, revision, musicXml);
      await client.query('UPDATE scores SET doc = $1 WHERE id = $2', [JSON.stringify(score), score.id]);
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
