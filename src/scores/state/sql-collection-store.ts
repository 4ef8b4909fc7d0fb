import type { Collection } from '../library/collection.js';
import { specialCollectionId } from '../library/collection.js';
import type { CollectionStore } from '../library/collection-store.js';
import type { Score } from '../library/score.js';
import { executorOn, type Connection } from './connection.js';
import { docs, lockAccount, row, rows, rowAs, rowsAs, write, type Executor, type Mode, type Outcome, type Plan } from './plan.js';
import { COLLECTION_QUERIES as Q } from './queries.js';
import { collectionOf } from './rows.js';

function* saveScore(score: Score): Plan<void> {
  yield* write(Q.updateScore, JSON.stringify(score), score.id);
}

/** Whether the owner's score is filed anywhere but `leaving`: root by its id, or a regular collection of theirs not in the trash. */
function* filedElsewhere(score: Score, leaving: string): Plan<boolean> {
  const root = specialCollectionId(score.ownerId, 'root');
  const homes = yield* rows(Q.homesOf, score.id);
  return homes.some((home) => home.collection_id !== leaving && (home.collection_id === root || (home.owner_id === score.ownerId && home.trashed_at === null)));
}

/** Collections as rows of the score database, and which scores each holds as rows of `collection_scores`. */
class SqlCollectionStore<M extends Mode> implements CollectionStore {
  private readonly db: Executor<M>;

  constructor(connection: Connection<M>) {
    this.db = executorOn(connection, Q);
  }

  createCollection(collection: Collection, max: number): Outcome<M, boolean> {
    return this.db.transaction(function* () {
      // Two creations of one account cannot both see room for one.
      yield* lockAccount(collection.ownerId);
      const { count } = (yield* row(Q.count, collection.ownerId)) as { count: number };
      if (count >= max) return false;
      yield* write(Q.insert, collection.id, collection.ownerId, collection.title, collection.sharingKey, collection.creationDate);
      return true;
    });
  }

  getCollection(id: string): Outcome<M, Collection | undefined> {
    return this.db.run(() => rowAs(collectionOf, Q.collection, id));
  }

  listCollections(ownerId: string): Outcome<M, Collection[]> {
    return this.db.run(() => rowsAs(collectionOf, Q.collectionsOf, ownerId));
  }

  updateCollection(collection: Collection): Outcome<M, void> {
    return this.db.run(() => write(Q.update, collection.title, collection.trashedAt, collection.id));
  }

  trashCollection(collection: Collection, now: number): Outcome<M, void> {
    return this.db.transaction(function* () {
      yield* write(Q.update, collection.title, now, collection.id);
      for (const score of yield* docs(Q.scoresIn, collection.id)) {
        if (score.ownerId !== collection.ownerId || score.trashedAt !== null) continue;
        if (yield* filedElsewhere(score, collection.id)) continue;
        yield* saveScore({ ...score, trashedAt: now, trashedWith: collection.id });
      }
    });
  }

  untrashCollection(collection: Collection): Outcome<M, void> {
    return this.db.transaction(function* () {
      yield* write(Q.update, collection.title, null, collection.id);
      for (const score of yield* docs(Q.scoresIn, collection.id)) {
        if (score.trashedWith !== collection.id) continue;
        const { trashedWith: _, ...back } = score;
        yield* saveScore({ ...back, trashedAt: null });
      }
    });
  }

  deleteCollectionsOf(ownerId: string): Outcome<M, void> {
    return this.db.transaction(function* () {
      yield* write(Q.unfileAllOf, ownerId);
      yield* write(Q.deleteAllOf, ownerId);
    });
  }

  addScore(collectionId: string, scoreId: string): Outcome<M, void> {
    return this.db.run(() => write(Q.file, collectionId, scoreId));
  }

  removeScore(collectionId: string, scoreId: string): Outcome<M, void> {
    return this.db.run(() => write(Q.unfile, collectionId, scoreId));
  }

  scoresIn(collectionId: string): Outcome<M, Score[]> {
    return this.db.run(() => docs(Q.scoresIn, collectionId));
  }

  rootScores(ownerId: string): Outcome<M, Score[]> {
    return this.db.run(function* () {
      const filed = new Set((yield* rows(Q.filedScores, ownerId)).map((found) => found.score_id));
      const added = new Set((yield* rows(Q.filedIn, specialCollectionId(ownerId, 'root'))).map((found) => found.score_id));
      const owned = yield* docs(Q.ownedScores, ownerId);
      return owned.filter((score) => score.trashedAt === null && (added.has(score.id) || !filed.has(score.id)));
    });
  }

  trashedScores(ownerId: string): Outcome<M, Score[]> {
    return this.db.run(function* () {
      return (yield* docs(Q.ownedScores, ownerId)).filter((score) => score.trashedAt !== null);
    });
  }

  collectionsOfScore(score: Score): Outcome<M, string[]> {
    return this.db.run(function* () {
      if (score.trashedAt !== null) return [specialCollectionId(score.ownerId, 'trash')];
      const root = specialCollectionId(score.ownerId, 'root');
      const homes = yield* rows(Q.homesOf, score.id);
      const regular = homes.filter((home) => home.owner_id === score.ownerId && home.trashed_at === null).map((home) => home.collection_id);
      return homes.some((home) => home.collection_id === root) || regular.length === 0 ? [root, ...regular] : regular;
    });
  }
}

export class SqliteCollectionStore extends SqlCollectionStore<'sync'> {}
export class PgCollectionStore extends SqlCollectionStore<'async'> {}
