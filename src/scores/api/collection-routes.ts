import { attempt, ServiceError, unwrap } from '../../errors/index.js';
import type { ApiOutcome, ApiRequest, ApiRoute } from '../../transports/http/handoff/index.js';
import { newId } from '../accounts/tokens.js';
import type { Grant } from '../accounts/user.js';
import type { Collection } from '../library/collection.js';
import type { Score } from '../library/score.js';
import type { ScoreApiParts } from './api-parts.js';
import { pictureUrls } from './account-routes.js';
import { grantedRoutes, scoreFor } from './access.js';
import { bad, jsonObjectBody, oneOf, optionalJsonObjectBody, optionalString } from './body-fields.js';
import { capabilitiesOf, COLLECTIONS_ADD, COLLECTIONS_READ, COLLECTIONS_WRITE, collectionFor, type NamedCollection } from './collection-access.js';
import { collectionJson } from './collection-views.js';
import { COLLECTION_PAGES, pagedResponse, pageOf, sortedBy } from './pagination.js';
import { jsonResponse } from './responses.js';
import { scoreDetailsOf } from './score-details.js';

export type CollectionRoutesParts = Pick<ScoreApiParts, 'accounts' | 'scores' | 'collections' | 'classShares' | 'absoluteUrl' | 'now' | 'newSharingKey' | 'maxCollections'>;

const TITLE_MAX = 300;
const PRIVACIES = ['private'] as const;

/**
 * Collections (`/v2/collections`): the caller's regular ones, and the special `root`, `trash` and
 * `sharedWithMe` every account has (see CollectionStore for where a score is). Collections are
 * private: another account's answers 403.
 */
export function collectionRoutes(parts: CollectionRoutesParts): ApiRoute[] {
  const route = grantedRoutes(parts);
  return [
    route('GET', '/v2/collections', COLLECTIONS_READ, listCollections),
    route('POST', '/v2/collections', COLLECTIONS_WRITE, createCollection),
    route('GET', '/v2/collections/:collection', COLLECTIONS_READ, getCollection),
    route('PUT', '/v2/collections/:collection', COLLECTIONS_WRITE, editCollection),
    route('DELETE', '/v2/collections/:collection', COLLECTIONS_WRITE, deleteCollection),
    route('POST', '/v2/collections/:collection/untrash', COLLECTIONS_WRITE, untrashCollection),
    route('GET', '/v2/collections/:collection/scores', COLLECTIONS_WRITE, listCollectionScores),
    route('PUT', '/v2/collections/:collection/scores/:score', COLLECTIONS_ADD, addScoreToCollection),
    route('DELETE', '/v2/collections/:collection/scores/:score', COLLECTIONS_WRITE, deleteScoreFromCollection),
  ];
}

function named(parts: CollectionRoutesParts, request: ApiRequest, grant: Grant): Promise<NamedCollection | ServiceError> {
  return collectionFor(parts.collections, request.params['collection'] ?? '', grant, 'collection');
}

function rendered(parts: CollectionRoutesParts, request: ApiRequest, grant: Grant): (collection: NamedCollection) => Record<string, unknown> {
  const picture = pictureUrls(parts, request, grant.user).picture;
  return (collection) => collectionJson(collection, grant.user, picture, parts.absoluteUrl(request, `/v2/collections/${collection.id}`));
}

const regular = (collection: Collection): NamedCollection => ({ kind: 'regular', id: collection.id, collection });

/** The collections in `parent` (root by default): regular ones in root, trashed ones in the trash; collections do not nest. */
async function listCollections(parts: CollectionRoutesParts, request: ApiRequest, grant: Grant): Promise<ApiOutcome> {
  const parent = unwrap(await collectionFor(parts.collections, request.query.get('parent') || 'root', grant, 'parent'));
  const page = unwrap(pageOf(request.query, COLLECTION_PAGES));
  const all = parent.kind === 'special' && parent.type !== 'sharedWithMe' ? await parts.collections.listCollections(grant.user.id) : [];
  const inParent = all.filter((collection) => (parent.kind === 'special' && parent.type === 'trash') === (collection.trashedAt !== null));
  const sorted = unwrap(
    sortedBy(request.query, inParent, {
      fields: { creationDate: { key: (c) => c.creationDate, direction: 'desc' }, title: { key: (c) => c.title, direction: 'asc' } },
      fallback: 'creationDate',
    }),
  );
  const render = rendered(parts, request, grant);
  return pagedResponse((path) => parts.absoluteUrl(request, path), request, sorted, page, (collection) => render(regular(collection)));
}

/** CollectionCreation: `title` (1-300 characters) and `privacy` (`private`) are required. */
function collectionCreation(body: Record<string, unknown>): { title: string } | ServiceError {
  return attempt(() => {
    const title = unwrap(optionalString(body, 'title', TITLE_MAX));
    if (title === undefined || title === '') return bad('title', `title is required: 1 to ${TITLE_MAX} characters`);
    if (unwrap(oneOf(body, 'privacy', PRIVACIES)) === undefined) return bad('privacy', 'privacy is required: private');
    return { title };
  });
}

async function createCollection(parts: CollectionRoutesParts, request: ApiRequest, grant: Grant): Promise<ApiOutcome> {
  const { title } = unwrap(collectionCreation(unwrap(jsonObjectBody(request))));
  const collection: Collection = { id: newId(), ownerId: grant.user.id, title, sharingKey: parts.newSharingKey(), creationDate: parts.now(), trashedAt: null };
  if (!(await parts.collections.createCollection(collection, parts.maxCollections))) {
    return new ServiceError('SC_TOO_MANY_COLLECTIONS', `Account overquota: it has its ${parts.maxCollections} collections; delete one (from the trash too) first`, { param: 'title' });
  }
  return jsonResponse(200, rendered(parts, request, grant)(regular(collection)));
}

async function getCollection(parts: CollectionRoutesParts, request: ApiRequest, grant: Grant): Promise<ApiOutcome> {
  return jsonResponse(200, rendered(parts, request, grant)(unwrap(await named(parts, request, grant))));
}

/** CollectionModification: `title` and `privacy`, both optional. */
async function editCollection(parts: CollectionRoutesParts, request: ApiRequest, grant: Grant): Promise<ApiOutcome> {
  const found = unwrap(await named(parts, request, grant));
  const body = unwrap(optionalJsonObjectBody(request));
  const title = unwrap(optionalString(body, 'title', TITLE_MAX));
  if (title === '') return bad('title', `title must be 1 to ${TITLE_MAX} characters`);
  unwrap(oneOf(body, 'privacy', PRIVACIES));
  if (found.kind === 'special' || !capabilitiesOf(found).canEdit) return new ServiceError('SC_FORBIDDEN', 'this collection cannot be edited');
  const collection = { ...found.collection, title: title ?? found.collection.title };
  await parts.collections.updateCollection(collection);
  return jsonResponse(200, rendered(parts, request, grant)(regular(collection)));
}

/** To the trash, with the scores it alone holds; a second delete changes nothing. */
async function deleteCollection(parts: CollectionRoutesParts, request: ApiRequest, grant: Grant): Promise<ApiOutcome> {
  const found = unwrap(await named(parts, request, grant));
  if (found.kind === 'special') return new ServiceError('SC_FORBIDDEN', `the ${found.type} collection cannot be deleted`);
  if (found.collection.trashedAt === null) await parts.collections.trashCollection(found.collection, parts.now());
  return { status: 204 };
}

/** Back to root, with the scores that went to the trash with it. */
async function untrashCollection(parts: CollectionRoutesParts, request: ApiRequest, grant: Grant): Promise<ApiOutcome> {
  const found = unwrap(await named(parts, request, grant));
  if (found.kind === 'special') return new ServiceError('SC_FORBIDDEN', `the ${found.type} collection is never in the trash`);
  if (found.collection.trashedAt !== null) await parts.collections.untrashCollection(found.collection);
  return { status: 204 };
}

/** The scores of a collection as its owner sees them in it. */
/** Scores `sharedWithMe` holds at most: those shared first. */
export const MAX_SHARED_WITH_ME = 1000;

async function scoresOf(parts: CollectionRoutesParts, found: NamedCollection, ownerId: string): Promise<Score[]> {
  if (found.kind === 'regular') {
    // A trashed score shows in the trash, unless it went there with this collection.
    return (await parts.collections.scoresIn(found.id)).filter((score) => score.trashedAt === null || score.trashedWith === found.id);
  }
  if (found.type === 'root') return parts.collections.rootScores(ownerId);
  if (found.type === 'trash') return parts.collections.trashedScores(ownerId);
  return parts.scores.scoresSharedWith(ownerId, MAX_SHARED_WITH_ME);
}

async function listCollectionScores(parts: CollectionRoutesParts, request: ApiRequest, grant: Grant): Promise<ApiOutcome> {
  const found = unwrap(await named(parts, request, grant));
  const page = unwrap(pageOf(request.query, COLLECTION_PAGES));
  const sorted = unwrap(
    sortedBy(request.query, await scoresOf(parts, found, grant.user.id), {
      fields: {
        creationDate: { key: (s) => s.creationDate, direction: 'desc' },
        modificationDate: { key: (s) => s.modificationDate, direction: 'desc' },
        title: { key: (s) => s.title, direction: 'asc' },
      },
      fallback: 'modificationDate',
    }),
  );
  const onPage = sorted.slice(page.offset, page.offset + page.limit);
  const details = scoreDetailsOf(parts, request, grant.user);
  const bodies = new Map<string, Record<string, unknown>>();
  for (const score of onPage) bodies.set(score.id, await details(score));
  return pagedResponse((path) => parts.absoluteUrl(request, path), request, sorted, page, (score) => bodies.get(score.id));
}

/** The caller's own score a request names (404 when gone or trashed, 403 for one of another account). */
async function ownScore(parts: CollectionRoutesParts, request: ApiRequest, grant: Grant): Promise<Score | ServiceError> {
  const score = await scoreFor(parts, request, grant, 'write');
  if (score instanceof ServiceError || score.ownerId === grant.user.id) return score;
  return new ServiceError('SC_FORBIDDEN', "only a score's owner files it in collections");
}

async function addScoreToCollection(parts: CollectionRoutesParts, request: ApiRequest, grant: Grant): Promise<ApiOutcome> {
  const found = unwrap(await named(parts, request, grant));
  if (!capabilitiesOf(found).canAddScores) return new ServiceError('SC_FORBIDDEN', 'scores cannot be added to this collection');
  const score = unwrap(await ownScore(parts, request, grant));
  await parts.collections.addScore(found.id, score.id);
  return jsonResponse(200, await scoreDetailsOf(parts, request, grant.user)(score));
}

/** Out of the collection, not out of the account: a score filed nowhere else is in root. */
async function deleteScoreFromCollection(parts: CollectionRoutesParts, request: ApiRequest, grant: Grant): Promise<ApiOutcome> {
  const found = unwrap(await named(parts, request, grant));
  if (!capabilitiesOf(found).canDeleteScores) return new ServiceError('SC_FORBIDDEN', 'scores cannot be removed from this collection');
  const score = unwrap(await ownScore(parts, request, grant));
  await parts.collections.removeScore(found.id, score.id);
  return { status: 204 };
}
