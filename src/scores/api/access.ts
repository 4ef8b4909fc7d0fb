import { ServiceError } from '../../errors/index.js';
import type { ApiOutcome, ApiRequest } from '../../transports/http/handoff/index.js';
import type { AccountStore } from '../accounts/account-store.js';
import type { Scope } from '../accounts/scopes.js';
import type { Grant } from '../accounts/user.js';
import type { Revision, Score } from '../library/score.js';
import type { ScoreStore } from '../library/score-store.js';
import { authorize } from './authorization.js';

/** Scopes of reading and of writing scores (the operations' OAuth2 alternatives). */
export const READ: readonly Scope[] = ['scores', 'scores.readonly'];
export const WRITE: readonly Scope[] = ['scores'];

/** A handler that runs only for a token holding one of `scopes`; others get the 401 or 403. */
export function withGrant(accounts: AccountStore, scopes: readonly Scope[], handle: (request: ApiRequest, grant: Grant) => Promise<ApiOutcome>) {
  return async (request: ApiRequest): Promise<ApiOutcome> => {
    const grant = await authorize(request, accounts, scopes);
    return grant instanceof ServiceError ? grant : handle(request, grant);
  };
}

export function scoreNotFound(id: string | undefined): ServiceError {
  return new ServiceError('SC_SCORE_NOT_FOUND', `no score ${JSON.stringify(id ?? '')}`, { param: 'score' });
}

/** Who may read: the owner; anyone for public scores; holders of the sharing key for privateLink ones. */
function canRead(score: Score, grant: Grant, request: ApiRequest): boolean {
  if (score.ownerId === grant.user.id) return true;
  if (score.privacy === 'public' || score.privacy === 'organizationPublic') return true;
  return score.privacy === 'privateLink' && request.query.get('sharingKey') === score.sharingKey;
}

/** The score an authorised request names, readable (and writable when `write`), else its 403/404. */
export async function scoreFor(scores: ScoreStore, request: ApiRequest, grant: Grant, write: boolean): Promise<Score | ServiceError> {
  const score = await scores.getScore(request.params['score'] ?? '');
  // A trashed score is not accessible until its owner untrashes it.
  if (score === undefined || score.trashedAt !== null) return scoreNotFound(request.params['score']);
  if (!canRead(score, grant, request)) return new ServiceError('SC_FORBIDDEN', 'Not granted to read this score');
  if (write && score.ownerId !== grant.user.id) return new ServiceError('SC_FORBIDDEN', 'Not granted to modify this score');
  return score;
}

/** The revision a request names (an id or `last`) of a score it may read. */
export async function revisionFor(scores: ScoreStore, score: Score, request: ApiRequest): Promise<Revision | ServiceError> {
  const revision = await scores.getRevision(score.id, request.params['revision'] ?? '');
  return revision ?? new ServiceError('SC_REVISION_NOT_FOUND', `score ${score.id} has no revision ${JSON.stringify(request.params['revision'])}`, { param: 'revision' });
}
