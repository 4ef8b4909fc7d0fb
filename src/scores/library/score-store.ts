import type { Quota, QuotaRefusal } from '../accounts/quota.js';
import type { Collaborator, Grantee } from './collaborator.js';
import type { Revision, Score } from './score.js';

/**
 * Scores, their revisions and each revision's MusicXML. Embedded on SQLite; a PostgreSQL store
 * serves several instances, hence the possibly asynchronous results. Every write is durable when
 * it returns.
 */
export interface ScoreStore {
  /**
   * A new score with its first revision, at once, when its MusicXML fits the owner's quota;
   * otherwise nothing is stored and the refusal says why. The check and the write are one
   * transaction, so writes racing each other cannot pass the quota together. With
   * `collectionId` the score is filed in that collection in the same transaction.
   */
  createScore(score: Score, first: Revision, musicXml: string, quota: Quota, collectionId?: string): QuotaRefusal | undefined | Promise<QuotaRefusal | undefined>;
  /** The score, trashed or not; undefined when it never existed or was deleted for good. */
  getScore(id: string): Score | undefined | Promise<Score | undefined>;
  updateScore(score: Score): void | Promise<void>;
  /** Removes the score, its revisions and their data, its collaborators and its comments, and takes it out of every collection. */
  deleteScore(id: string): void | Promise<void>;
  /**
   * A new revision of an existing score, its modification date updated with it, when the score
   * has fewer revisions than the quota allows and the MusicXML fits its owner's bytes (as createScore).
   */
  addRevision(revision: Revision, musicXml: string, score: Score, quota: Quota): QuotaRefusal | undefined | Promise<QuotaRefusal | undefined>;
  /** Oldest first. */
  listRevisions(scoreId: string): Revision[] | Promise<Revision[]>;
  /** A revision by id, or the newest one for `last`. */
  getRevision(scoreId: string, revisionId: string): Revision | undefined | Promise<Revision | undefined>;
  revisionMusicXml(revisionId: string): string | undefined | Promise<string | undefined>;

  /** Whom the score is shared with, oldest first. */
  listCollaborators(scoreId: string): Collaborator[] | Promise<Collaborator[]>;
  /**
   * Shares the score with the collaborator's grantee; one already sharing it keeps its id and
   * creation date and takes the new rights. A new one is refused (nothing stored, answer false)
   * when the score already has `max` collaborators; counted under the owner's lock.
   */
  saveCollaborator(collaborator: Collaborator, ownerId: string, max: number): Collaborator | false | Promise<Collaborator | false>;
  /** The collaborator sharing the score with this grantee, if any. */
  collaboratorFor(scoreId: string, grantee: Grantee): Collaborator | undefined | Promise<Collaborator | undefined>;
  removeCollaborator(scoreId: string, id: string): void | Promise<void>;
  /** The owner's public scores not in the trash, the most recently modified first, at most `max`. */
  publicScoresOf(ownerId: string, max: number): Score[] | Promise<Score[]>;
  /** Every score of the owner, trashed ones included. */
  scoresOwnedBy(ownerId: string): Score[] | Promise<Score[]>;
  /** The scores shared with the user by name (not through a group), not in the trash, the first shared first, at most `max`. */
  scoresSharedWith(userId: string, max: number): Score[] | Promise<Score[]>;
}
