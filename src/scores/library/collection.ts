import { createHash } from 'node:crypto';

/** A user's own folder of scores (CollectionType `regular`). Times are epoch milliseconds. */
export interface Collection {
  /** 24 lower-case hex digits. */
  id: string;
  ownerId: string;
  title: string;
  /** 128 hex digits, shown to the owner (CollectionPrivacy has `private` only in 2.13.0). */
  sharingKey: string;
  creationDate: number;
  /** When it went to the trash (DELETE); null while it is not there. */
  trashedAt: number | null;
}

/**
 * The collections every account has without creating them: `root` holds the scores filed in no
 * other collection (and those added to it), `trash` the deleted scores and collections,
 * `sharedWithMe` what others shared individually.
 */
export const SPECIAL_COLLECTIONS = ['root', 'trash', 'sharedWithMe'] as const;
export type SpecialCollection = (typeof SPECIAL_COLLECTIONS)[number];
export type CollectionType = SpecialCollection | 'regular';

/**
 * The id of one of a user's special collections: derived from the user's id, so it is stable,
 * needs no row, and looks like every other id. The aliases (`root`, `trash`, `sharedWithMe`)
 * name the same collections.
 */
export function specialCollectionId(userId: string, type: SpecialCollection): string {
  return createHash('sha256').update(`${userId}/${type}`).digest('hex').slice(0, 24);
}

/** The special collection of `userId` that `idOrAlias` names, if it names one. */
export function specialCollectionNamed(userId: string, idOrAlias: string): SpecialCollection | undefined {
  return SPECIAL_COLLECTIONS.find((type) => idOrAlias === type || idOrAlias === specialCollectionId(userId, type));
}
