import { quotaRefusal, revisionRefusal, type Quota, type QuotaRefusal } from '../accounts/quota.js';
import type { Collaborator, Grantee } from '../library/collaborator.js';
import type { Revision, Score } from '../library/score.js';
import type { ScoreStore } from '../library/score-store.js';
import { lockedUsage, musicXmlBytes } from './account-usage.js';
import { executorOn, type Connection } from './connection.js';
import { doc, docs, lockAccount, row, rowAs, rowsAs, write, type Executor, type Mode, type Outcome, type Plan } from './plan.js';
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
      yield* write(Q.deleteCollaborators, id);
      yield* write(Q.deleteComments, id);
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

  listCollaborators(scoreId: string): Outcome<M, Collaborator[]> {
    return this.db.run(() => docs(Q.collaborators, scoreId));
  }

  saveCollaborator(collaborator: Collaborator, ownerId: string, max: number): Outcome<M, Collaborator | false> {
    return this.db.transaction(function* () {
      yield* lockAccount(ownerId);
      const { scoreId, grantee } = collaborator;
      const existing = yield* doc(Q.collaboratorFor, scoreId, grantee.kind, grantee.id);
      if (existing === undefined && Number(((yield* row(Q.collaboratorCount, scoreId)) as { count: number }).count) >= max) return false;
      const saved = existing === undefined ? collaborator : { ...collaborator, id: existing.id, creationDate: existing.creationDate };
      yield* write(Q.upsertCollaborator, saved.id, scoreId, grantee.kind, grantee.id, JSON.stringify(saved));
      return saved;
    });
  }

  collaboratorFor(scoreId: string, grantee: Grantee): Outcome<M, Collaborator | undefined> {
    return this.db.run(() => doc(Q.collaboratorFor, scoreId, grantee.kind, grantee.id));
  }

  removeCollaborator(scoreId: string, id: string): Outcome<M, void> {
    return this.db.run(() => write(Q.deleteCollaborator, scoreId, id));
  }

  publicScoresOf(ownerId: string, max: number): Outcome<M, Score[]> {
    return this.db.run(() => docs(Q.publicScoresOf, ownerId, max));
  }

  scoresOwnedBy(ownerId: string): Outcome<M, Score[]> {
    return this.db.run(() => docs(Q.ownedScores, ownerId));
  }

  scoresSharedWith(userId: string, max: number): Outcome<M, Score[]> {
    return this.db.run(() => docs(Q.scoresSharedWith, userId, max));
  }
}

export class SqliteScoreStore extends SqlScoreStore<'sync'> {}
export class PgScoreStore extends SqlScoreStore<'async'> {}
