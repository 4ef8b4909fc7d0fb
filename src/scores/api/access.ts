import { ServiceError, unwrap } from '../../errors/index.js';
import { apiHandler, type ApiHandler, type ApiOutcome, type ApiRequest, type ApiRoute } from '../../transports/http/handoff/index.js';
import type { AccountStore } from '../accounts/account-store.js';
import type { Scope } from '../accounts/scopes.js';
import type { Grant } from '../accounts/user.js';
import type { ClassShares } from '../education/score-sharing.js';
import { impliedRights, NO_RIGHTS, OWNER_RIGHTS, unitedRights, type ScoreRights } from '../library/collaborator.js';
import type { Revision, Score } from '../library/score.js';
import type { ScoreStore } from '../library/score-store.js';
import { authorize } from './authorization.js';

/** Scopes of reading and of writing scores (the operations' OAuth2 alternatives). */
export const READ: readonly Scope[] = ['scores', 'scores.readonly'];
export const WRITE: readonly Scope[] = ['scores'];
/** Scopes of commenting (the comment operations' alternatives), and of reading comments. */
export const SOCIAL: readonly Scope[] = ['scores.social', 'scores'];
export const READ_SOCIAL: readonly Scope[] = ['scores.readonly', 'scores.social', 'scores'];

/** What checking a request's token needs. */
export type GrantParts = { accounts: AccountStore; now(): number };

/**
 * One operation of the API, named after its Flat operation id, for a request whose token holds
 * the operation's scopes. Its steps may stop with `unwrap` (src/errors/steps.ts).
 */
export type Operation<Parts> = (parts: Parts, request: ApiRequest, grant: Grant) => Promise<ApiOutcome>;

/** A handler that runs `operation` only for a live token holding one of `scopes`; others get the 401 or 403. */
function withGrant<Parts extends GrantParts>(parts: Parts, scopes: readonly Scope[], operation: Operation<Parts>): ApiHandler {
  return apiHandler(async (request) => operation(parts, request, unwrap(await authorize(request, parts.accounts, scopes, parts.now()))));
}

/** Routes to operations sharing `parts`, one line each: `route('GET', '/v2/classes/:class', CLASSES_READ, getClass)`. */
export function grantedRoutes<Parts extends GrantParts>(parts: Parts): (method: ApiRoute['method'], path: string, scopes: readonly Scope[], operation: Operation<Parts>) => ApiRoute {
  return (method, path, scopes, operation) => ({ method, path, handle: withGrant(parts, scopes, operation) });
}

export function scoreNotFound(id: string | undefined): ServiceError {
  return new ServiceError('SC_SCORE_NOT_FOUND', `no score ${JSON.stringify(id ?? '')}`, { param: 'score' });
}

/** Who may read a score without its sharing key: the owner, and anyone for public scores. */
export function canReadWithoutKey(score: Score, userId: string): boolean {
  return score.ownerId === userId || score.privacy === 'public' || score.privacy === 'organizationPublic';
}

/** Who may read: as canReadWithoutKey, and holders of the sharing key for privateLink scores. */
function canRead(score: Score, grant: Grant, request: ApiRequest): boolean {
  if (canReadWithoutKey(score, grant.user.id)) return true;
  return score.privacy === 'privateLink' && request.query.get('sharingKey') === score.sharingKey;
}

/**
 * What a request needs of a score: to read it (its owner, its collaborators, anyone when public,
 * the sharing key's holders, the classes it is attached to); to write it (its owner, its
 * collaborators with `aclWrite`); to administer it (share it, moderate its comments: its owner,
 * its collaborators with `aclAdmin`); to own it (delete it: its owner alone); or to record it
 * (add a track: its writers, and students of a performance assignment attaching it).
 */
export type ScoreNeed = 'read' | 'write' | 'admin' | 'own' | 'record';

/** What a user holds on a score through its collaborators: those naming the user, and those naming a group the user is in. */
async function collaboratorRights(parts: { scores: ScoreStore; classShares: ClassShares }, score: Score, userId: string): Promise<ScoreRights> {
  let rights = NO_RIGHTS;
  for (const collaborator of await parts.scores.listCollaborators(score.id)) {
    const { grantee } = collaborator;
    const applies = grantee.kind === 'user' ? grantee.id === userId : await parts.classShares.inGroup(grantee.id, userId);
    if (applies) rights = unitedRights(rights, { ...impliedRights(collaborator), isCollaborator: true });
  }
  return rights;
}

/** The caller's rights on a score (ResourceRights). Class shares are asked only when nothing else lets the caller read. */
export async function rightsOn(parts: { scores: ScoreStore; classShares: ClassShares }, score: Score, grant: Grant, request: ApiRequest): Promise<ScoreRights> {
  if (score.ownerId === grant.user.id) return OWNER_RIGHTS;
  const granted = await collaboratorRights(parts, score, grant.user.id);
  const aclRead = granted.aclRead || canRead(score, grant, request) || (await parts.classShares.sharesScore(score.id, grant.user.id, false));
  return { ...granted, aclRead };
}

const REFUSALS: Record<Exclude<ScoreNeed, 'read'>, string> = {
  write: 'Not granted to modify this score',
  admin: 'Not granted to manage this score',
  own: 'Only the owner of this score may do this',
  record: 'Not granted to add a track to this score',
};

async function allows(parts: { classShares: ClassShares }, score: Score, userId: string, rights: ScoreRights, need: ScoreNeed): Promise<boolean> {
  switch (need) {
    case 'read':
      return rights.aclRead;
    case 'write':
      return rights.aclWrite;
    case 'admin':
      return rights.aclAdmin;
    case 'own':
      return score.ownerId === userId;
    case 'record':
      return rights.aclWrite || (await parts.classShares.sharesScore(score.id, userId, true));
  }
}

/** The score an authorised request names with the caller's rights on it, if they allow what `need` says, else its 403/404. */
export async function scoreAccess(
  parts: { scores: ScoreStore; classShares: ClassShares },
  request: ApiRequest,
  grant: Grant,
  need: ScoreNeed,
): Promise<{ score: Score; rights: ScoreRights } | ServiceError> {
  const score = await parts.scores.getScore(request.params['score'] ?? '');
  // A trashed score is not accessible until its owner untrashes it.
  if (score === undefined || score.trashedAt !== null) return scoreNotFound(request.params['score']);
  const rights = await rightsOn(parts, score, grant, request);
  if (await allows(parts, score, grant.user.id, rights, need)) return { score, rights };
  // One who may not read the score is not told what else they may not do with it.
  return new ServiceError('SC_FORBIDDEN', need === 'read' || (!rights.aclRead && need !== 'record') ? 'Not granted to read this score' : REFUSALS[need]);
}

/** The score an authorised request names, if the caller may do what `need` says with it, else its 403/404. */
export async function scoreFor(parts: { scores: ScoreStore; classShares: ClassShares }, request: ApiRequest, grant: Grant, need: ScoreNeed): Promise<Score | ServiceError> {
  const access = await scoreAccess(parts, request, grant, need);
  return access instanceof ServiceError ? access : access.score;
}

/** The revision a request names (an id or `last`) of a score it may read. */
export async function revisionFor(scores: ScoreStore, score: Score, request: ApiRequest): Promise<Revision | ServiceError> {
  const revision = await scores.getRevision(score.id, request.params['revision'] ?? '');
  return revision ?? new ServiceError('SC_REVISION_NOT_FOUND', `score ${score.id} has no revision ${JSON.stringify(request.params['revision'])}`, { param: 'revision' });
}
