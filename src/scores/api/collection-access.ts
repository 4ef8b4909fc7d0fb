import { ServiceError } from '../../errors/index.js';
import type { Scope } from '../accounts/scopes.js';
import type { Grant } from '../accounts/user.js';
import { specialCollectionId, specialCollectionNamed, type Collection, type SpecialCollection } from '../library/collection.js';
import type { CollectionStore } from '../library/collection-store.js';

/** The OAuth2 alternatives of the collection operations, as release 2.13.0 lists them. */
export const COLLECTIONS_READ: readonly Scope[] = ['collections', 'collections.readonly'];
export const COLLECTIONS_WRITE: readonly Scope[] = ['collections'];
export const COLLECTIONS_ADD: readonly Scope[] = ['collections', 'collections.add_scores'];

/** A collection a request names: one of the caller's special ones, or a regular one of theirs. */
export type NamedCollection = { kind: 'special'; id: string; type: SpecialCollection } | { kind: 'regular'; id: string; collection: Collection };

/** Collection.capabilities: what its owner may do with it. */
export interface Capabilities {
  canEdit: boolean;
  canShare: boolean;
  canDelete: boolean;
  canAddScores: boolean;
  canDeleteScores: boolean;
}

const NONE: Capabilities = { canEdit: false, canShare: false, canDelete: false, canAddScores: false, canDeleteScores: false };

/**
 * Root takes and gives up scores but is never renamed or deleted; the trash and `sharedWithMe`
 * fill themselves; a regular collection is the owner's to change until it goes to the trash.
 * Collections are not shared (CollectionPrivacy is `private` alone).
 */
export function capabilitiesOf(named: NamedCollection): Capabilities {
  if (named.kind === 'special') return named.type === 'root' ? { ...NONE, canAddScores: true, canDeleteScores: true } : NONE;
  if (named.collection.trashedAt !== null) return NONE;
  return { canEdit: true, canShare: false, canDelete: true, canAddScores: true, canDeleteScores: true };
}

export function collectionNotFound(id: string, param: string): ServiceError {
  return new ServiceError('SC_COLLECTION_NOT_FOUND', `no collection ${JSON.stringify(id)}`, { param });
}

/** The collection `idOrAlias` names for the caller: 404 when there is none, 403 for another account's. */
export async function collectionFor(store: CollectionStore, idOrAlias: string, grant: Grant, param: string): Promise<NamedCollection | ServiceError> {
  const special = specialCollectionNamed(grant.user.id, idOrAlias);
  if (special !== undefined) return { kind: 'special', id: specialCollectionId(grant.user.id, special), type: special };
  const collection = await store.getCollection(idOrAlias);
  if (collection === undefined) return collectionNotFound(idOrAlias, param);
  if (collection.ownerId !== grant.user.id) return new ServiceError('SC_FORBIDDEN', 'Not granted to access to this collection');
  return { kind: 'regular', id: collection.id, collection };
}

/** As collectionFor, for a collection the caller may add scores to (else 403). */
export async function collectionToFill(store: CollectionStore, idOrAlias: string, grant: Grant, param: string): Promise<NamedCollection | ServiceError> {
  const named = await collectionFor(store, idOrAlias, grant, param);
  if (named instanceof ServiceError || capabilitiesOf(named).canAddScores) return named;
  return new ServiceError('SC_FORBIDDEN', `scores cannot be added to the collection ${JSON.stringify(idOrAlias)}`, { param });
}

/** Where a new score of the caller is filed: nowhere for root (where scores filed nowhere else are), else the collection. */
export function fileIn(named: NamedCollection): string | undefined {
  return named.kind === 'special' ? undefined : named.id;
}
