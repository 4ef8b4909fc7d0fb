import type { ScoreComment } from '../library/comment.js';
import type { CommentStore } from '../library/comment-store.js';
import { executorOn, type Connection } from './connection.js';
import { doc, docs, lockAccount, row, rows, write, type Executor, type Mode, type Outcome } from './plan.js';
import { COMMENT_QUERIES as Q } from './queries.js';

/** The comment and every reply under it, however deep, from the score's reply links. */
function thread(links: ReadonlyArray<{ id: string; reply_to: string | null }>, rootId: string): string[] {
  const found = [rootId];
  for (let i = 0; i < found.length; i++) {
    for (const link of links) if (link.reply_to === found[i] && !found.includes(link.id)) found.push(link.id);
  }
  return found;
}

/** Comments as JSON documents indexed by score (and the comment they answer), in the score database. */
class SqlCommentStore<M extends Mode> implements CommentStore {
  private readonly db: Executor<M>;

  constructor(connection: Connection<M>) {
    this.db = executorOn(connection, Q);
  }

  addComment(comment: ScoreComment, ownerId: string, max: number): Outcome<M, boolean> {
    return this.db.transaction(function* () {
      yield* lockAccount(ownerId);
      const { count } = (yield* row(Q.count, comment.scoreId)) as { count: number };
      if (Number(count) >= max) return false;
      yield* write(Q.insert, comment.id, comment.scoreId, comment.replyTo, JSON.stringify(comment));
      return true;
    });
  }

  getComment(scoreId: string, id: string): Outcome<M, ScoreComment | undefined> {
    return this.db.run(() => doc(Q.comment, scoreId, id));
  }

  listComments(scoreId: string): Outcome<M, ScoreComment[]> {
    return this.db.run(() => docs(Q.comments, scoreId));
  }

  updateComment(comment: ScoreComment): Outcome<M, void> {
    return this.db.run(() => write(Q.update, JSON.stringify(comment), comment.scoreId, comment.id));
  }

  deleteComment(scoreId: string, id: string): Outcome<M, void> {
    return this.db.transaction(function* () {
      for (const each of thread(yield* rows(Q.replyLinks, scoreId), id)) yield* write(Q.delete, scoreId, each);
    });
  }
}

export class SqliteCommentStore extends SqlCommentStore<'sync'> {}
export class PgCommentStore extends SqlCommentStore<'async'> {}
