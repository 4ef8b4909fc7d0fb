import type Database from 'better-sqlite3';
import { quotaRefusal, revisionRefusal, type Quota, type QuotaRefusal, type Usage } from '../accounts/quota.js';
import type { Revision, Score } from '../library/score.js';
import type { ScoreStore } from '../library/score-store.js';
import { musicXmlBytes, revisionCountSql, usageSql } from './account-usage.js';
import { REVISION_COLUMNS, revisionOf, type RevisionRow } from './rows.js';

/** Scores as JSON documents beside their indexed owner, revisions with their MusicXML, in the score API's SQLite database. */
export class SqliteScoreStore implements ScoreStore {
  private readonly insertScore: Database.Statement<[string, string, string]>;
  private readonly selectScore: Database.Statement<[string], { doc: string }>;
  private readonly replaceScore: Database.Statement<[string, string]>;
  private readonly insertRevision: Database.Statement<[string, string, string, number, string, number, string, number]>;
  private readonly selectRevisions: Database.Statement<[string], RevisionRow>;
  private readonly selectRevision: Database.Statement<[string, string], RevisionRow>;
  private readonly selectLastRevision: Database.Statement<[string], RevisionRow>;
  private readonly selectMusicXml: Database.Statement<[string], { musicxml: string }>;
  private readonly create: Database.Transaction<(score: Score, first: Revision, musicXml: string, quota: Quota) => QuotaRefusal | undefined>;
  private readonly revise: Database.Transaction<(revision: Revision, musicXml: string, score: Score, quota: Quota) => QuotaRefusal | undefined>;
  private readonly remove: (id: string) => void;

  constructor(db: Database.Database) {
    this.insertScore = db.prepare('INSERT INTO scores (id, owner_id, doc) VALUES (?, ?, ?)');
    this.selectScore = db.prepare('SELECT doc FROM scores WHERE id = ?');
    this.replaceScore = db.prepare('UPDATE scores SET doc = ? WHERE id = ?');
    this.insertRevision = db.prepare('INSERT INTO revisions (id, score_id, user_id, creation_date, description, autosave, musicxml, size) VALUES (?, ?, ?, ?, ?, ?, ?, ?)');
    this.selectRevisions = db.prepare(`SELECT ${REVISION_COLUMNS} FROM revisions WHERE score_id = ? ORDER BY seq`);
    this.selectRevision = db.prepare(`SELECT ${REVISION_COLUMNS} FROM revisions WHERE score_id = ? AND id = ?`);
    this.selectLastRevision = db.prepare(`SELECT ${REVISION_COLUMNS} FROM revisions WHERE score_id = ? ORDER BY seq DESC LIMIT 1`);
    this.selectMusicXml = db.prepare('SELECT musicxml FROM revisions WHERE id = ?');
    const selectUsage = db.prepare<[{ owner: string }], Usage>(usageSql('@owner'));
    const countRevisions = db.prepare<[string], { count: number }>(revisionCountSql('?'));
    const bytesRefusal = (quota: Quota, ownerId: string, size: number) => quotaRefusal(quota, selectUsage.get({ owner: ownerId }) as Usage, size, 0);
    const insertRevision = (revision: Revision, musicXml: string, size: number) =>
      this.insertRevision.run(revision.id, revision.scoreId, revision.userId, revision.creationDate, revision.description, revision.autosave ? 1 : 0, musicXml, size);
    // Each check runs in the write's transaction, begun IMMEDIATE (write lock first), so two
    // writes cannot both see room for one.
    this.create = db.transaction((score: Score, first: Revision, musicXml: string, quota: Quota) => {
      const size = musicXmlBytes(musicXml);
      const refused = bytesRefusal(quota, score.ownerId, size);
      if (refused !== undefined) return refused;
      this.insertScore.run(score.id, score.ownerId, JSON.stringify(score));
      insertRevision(first, musicXml, size);
      return undefined;
    });
    this.revise = db.transaction((revision: Revision, musicXml: string, score: Score, quota: Quota) => {
      const size = musicXmlBytes(musicXml);
      const refused = revisionRefusal(quota, (countRevisions.get(score.id) as { count: number }).count) ?? bytesRefusal(quota, score.ownerId, size);
      if (refused !== undefined) return refused;
      insertRevision(revision, musicXml, size);
      this.replaceScore.run(JSON.stringify(score), score.id);
      return undefined;
    });
    const dropRevisions = db.prepare('DELETE FROM revisions WHERE score_id = ?');
    const dropScore = db.prepare('DELETE FROM scores WHERE id = ?');
    this.remove = db.transaction((id: string) => {
      dropRevisions.run(id);
      dropScore.run(id);
    });
  }

  createScore(score: Score, first: Revision, musicXml: string, quota: Quota): QuotaRefusal | undefined {
    return this.create.immediate(score, first, musicXml, quota);
  }

  getScore(id: string): Score | undefined {
    const row = this.selectScore.get(id);
    return row === undefined ? undefined : (JSON.parse(row.doc) as Score);
  }

  updateScore(score: Score): void {
    this.replaceScore.run(JSON.stringify(score), score.id);
  }

  deleteScore(id: string): void {
    this.remove(id);
  }

  addRevision(revision: Revision, musicXml: string, score: Score, quota: Quota): QuotaRefusal | undefined {
    return this.revise.immediate(revision, musicXml, score, quota);
  }

  listRevisions(scoreId: string): Revision[] {
    return this.selectRevisions.all(scoreId).map(revisionOf);
  }

  getRevision(scoreId: string, revisionId: string): Revision | undefined {
    const row = revisionId === 'last' ? this.selectLastRevision.get(scoreId) : this.selectRevision.get(scoreId, revisionId);
    return row === undefined ? undefined : revisionOf(row);
  }

  revisionMusicXml(revisionId: string): string | undefined {
    return this.selectMusicXml.get(revisionId)?.musicxml;
  }
}

