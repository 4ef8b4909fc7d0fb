import type { Collection } from './collection.js';
import type { Score } from './score.js';

type Maybe<T> = T | Promise<T>;

/**
 * Users' collections and which scores each holds. Like the other stores, possibly asynchronous
 * (PostgreSQL) and durable when a write returns; each method is one transaction.
 *
 * Where a score of its owner is: in the regular collections that hold it and are not in the
 * trash; in `root` when it was added there, or when no such collection holds it (so a score is
 * never filed nowhere); in `trash` alone while it is trashed, keeping its collections for when it
 * comes back.
 */
export interface CollectionStore {
  /** Stores the new collection unless its owner already has `max` (trashed ones count); whether it did. */
  createCollection(collection: Collection, max: number): Maybe<boolean>;
  getCollection(id: string): Maybe<Collection | undefined>;
  /** The owner's regular collections, in the trash or not, oldest first. */
  listCollections(ownerId: string): Maybe<Collection[]>;
  /** Its title. */
  updateCollection(collection: Collection): Maybe<void>;
  /**
   * The collection to the trash, and with it the owner's scores it alone holds (in no other
   * collection of theirs that is not in the trash, not added to root): they come back with it.
   */
  trashCollection(collection: Collection, now: number): Maybe<void>;
  /** Out of the trash, with the scores that went there with it and are still there. */
  untrashCollection(collection: Collection): Maybe<void>;
  /** Removes every collection of the owner, with what they held (a closed account's). */
  deleteCollectionsOf(ownerId: string): Maybe<void>;
  /** Files the score in the collection (a regular one, or root by its id); once only. */
  addScore(collectionId: string, scoreId: string): Maybe<void>;
  removeScore(collectionId: string, scoreId: string): Maybe<void>;
  /** The scores a regular collection holds, trashed ones included (the caller chooses). */
  scoresIn(collectionId: string): Maybe<Score[]>;
  /** The owner's scores in root, trashed ones left out. */
  rootScores(ownerId: string): Maybe<Score[]>;
  /** The owner's scores in the trash. */
  trashedScores(ownerId: string): Maybe<Score[]>;
  /** The ids of the collections the score is in for its owner (ScoreDetails.collections), root and trash by their ids. */
  collectionsOfScore(score: Score): Maybe<string[]>;
}
