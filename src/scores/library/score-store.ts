import type { Revision, Score } from './score.js';

/**
 * Scores, their revisions and each revision's MusicXML. Embedded on SQLite; a PostgreSQL store
 * serves several instances, hence the possibly asynchronous results. Every write is durable when
 * it returns.
 */
export interface ScoreStore {
  /** A new score with its first revision, at once. */
  createScore(score: Score, first: Revision, musicXml: string): void | Promise<void>;
  /** The score, trashed or not; undefined when it never existed or was deleted for good. */
  getScore(id: string): Score | undefined | Promise<Score | undefined>;
  updateScore(score: Score): void | Promise<void>;
  /** Removes the score, its revisions and their data. */
  deleteScore(id: string): void | Promise<void>;
  /** A new revision of an existing score; its modification date is updated with it. */
  addRevision(revision: Revision, musicXml: string, score: Score): void | Promise<void>;
  /** Oldest first. */
  listRevisions(scoreId: string): Revision[] | Promise<Revision[]>;
  /** A revision by id, or the newest one for `last`. */
  getRevision(scoreId: string, revisionId: string): Revision | undefined | Promise<Revision | undefined>;
  revisionMusicXml(revisionId: string): string | undefined | Promise<string | undefined>;
}
