import { quotaRefusal, revisionRefusal, type Quota, type QuotaRefusal } from '../accounts/quota.js';
import type { Revision, Score } from '../library/score.js';
import type { ScoreStore } from '../library/score-store.js';
import { lockedUsage, musicXmlBytes } from './account-usage.js';
import { executorOn, type Connection } from './connection.js';
import { doc, docs, row, rowAs, rowsAs, write, type Executor, type Mode, type Outcome, type Plan } from './plan.js';
import { SCORE_QUERIES as Q } from './queries.js';
import { revisionOf } from './rows.js';

function* insertRevision(revision: Revision, musicXml: string, size: number): Plan<void> {
  yield* write(Q.insertRevision, revision.id, revision.scoreId, revision.userId, revision.creationDate, revision.description, revision.autosave, musicXml, size);
}

/** Scores as JSON documents beside their indexed owner, revisions with their MusicXML, in the score database. */
class SqlScoreStore<M extends Mode> implements ScoreStore {
  private readonly db: Executor<M>;

  constructor(connection: Connection<M>) {
    this.db = executorOn(connection, Q);
  }

  createScore(score: Score, first: Revision, musicXml: string, quota: Quota, collectionId?: string): Outcome<M, QuotaRefusal | undefined> {
    return this.db.transaction(function* () {
      const size = musicXmlBytes(musicXml);
      const refused = quotaRefusal(quota, yield* lockedUsage(score.ownerId), size, 0);
      if (refused !== undefined) return refused;
      yield* write(Q.insertScore, score.id, score.ownerId, JSON.stringify(score));
      yield* insertRevision(first, musicXml, size);
      if (collectionId !== undefined) yield* write(Q.fileScore, collectionId, score.id);
      return undefined;
    });
  }

  getScore(id: string): Outcome<M, Score | undefined> {
    return this.db.run(() => doc(Q.score, id));
  }

  updateScore(score: Score): Outcome<M, void> {
    return this.db.run(() => write(Q.updateScore, JSON.stringify(score), score.id));
  }

  deleteScore(id: string): Outcome<M, void> {
    return this.db.transaction(function* () {
      yield* write(Q.unfileScore, id);
      yield* write(Q.deleteRevisions, id);
      yield* write(Q.deleteScore, id);
    });
  }

  addRevision(revision: Revision, musicXml: string, score: Score, quota: Quota): Outcome<M, QuotaRefusal | undefined> {
    return this.db.transaction(function* () {
      const size = musicXmlBytes(musicXml);
      const usage = yield* lockedUsage(score.ownerId);
      const { count } = (yield* row(Q.revisionCount, score.id)) as { count: number };
      const refused = revisionRefusal(quota, count) ?? quotaRefusal(quota, usage, size, 0);
      if (refused !== undefined) return refused;
      yield* insertRevision(revision, musicXml, size);
      yield* write(Q.updateScore, JSON.stringify(score), score.id);
      return undefined;
    });
  }

  listRevisions(scoreId: string): Outcome<M, Revision[]> {
    return this.db.run(() => rowsAs(revisionOf, Q.revisions, scoreId));
  }

  getRevision(scoreId: string, revisionId: string): Outcome<M, Revision | undefined> {
    return this.db.run(() => (revisionId === 'last' ? rowAs(revisionOf, Q.lastRevision, scoreId) : rowAs(revisionOf, Q.revision, scoreId, revisionId)));
  }

  revisionMusicXml(revisionId: string): Outcome<M, string | undefined> {
    return this.db.run(function* () {
      return (yield* row(Q.musicXml, revisionId))?.musicxml;
    });
  }

  publicScoresOf(ownerId: string, max: number): Outcome<M, Score[]> {
    return this.db.run(() => docs(Q.publicScoresOf, ownerId, max));
  }
}

export class SqliteScoreStore extends SqlScoreStore<'sync'> {}
export class PgScoreStore extends SqlScoreStore<'async'> {}
