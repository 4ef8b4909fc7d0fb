import type { ScoreComment } from './comment.js';

type Maybe<T> = T | Promise<T>;

/** Comments on scores, oldest first. Every write is durable when it returns. */
export interface CommentStore {
  /**
   * Adds the comment when its score has fewer than `max` comments, else stores nothing and
   * answers false. Counted in the write's transaction, under the score owner's lock, so
   * comments racing each other cannot pass the bound together.
   */
  addComment(comment: ScoreComment, ownerId: string, max: number): Maybe<boolean>;
  getComment(scoreId: string, id: string): Maybe<ScoreComment | undefined>;
  /** Oldest first. */
  listComments(scoreId: string): Maybe<ScoreComment[]>;
  updateComment(comment: ScoreComment): Maybe<void>;
  /** Removes the comment and the replies to it, at once. */
  deleteComment(scoreId: string, id: string): Maybe<void>;
}
