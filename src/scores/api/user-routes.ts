import { ServiceError, unwrap } from '../../errors/index.js';
import type { ApiOutcome, ApiRequest, ApiRoute } from '../../transports/http/handoff/index.js';
import type { Scope } from '../accounts/scopes.js';
import type { Grant, User } from '../accounts/user.js';
import type { ScoreApiParts } from './api-parts.js';
import { pictureUrls } from './account-routes.js';
import { grantedRoutes, READ } from './access.js';
import { booleanParam } from './query-params.js';
import { jsonResponse } from './responses.js';
import { scoreDetailsOf } from './score-details.js';
import { userPublicJson } from './user-views.js';

export type UserRoutesParts = Pick<ScoreApiParts, 'accounts' | 'scores' | 'education' | 'collections' | 'absoluteUrl' | 'now'>;

/** Public scores `GET /v2/users/{user}/scores` lists (and `ownedPublicScoresCount` counts): the most recently modified. */
export const MAX_USER_SCORES = 1000;

const PROFILE: readonly Scope[] = ['account.public_profile', 'account.education_profile'];
const PUBLIC_PROFILE: readonly Scope[] = ['account.public_profile'];

/** Users' public pages: the profile, the scores they liked, their public scores. */
export function userRoutes(parts: UserRoutesParts): ApiRoute[] {
  const route = grantedRoutes(parts);
  return [
    route('GET', '/v2/users/:user', PROFILE, getUser),
    route('GET', '/v2/users/:user/likes', PUBLIC_PROFILE, gerUserLikes),
    route('GET', '/v2/users/:user/scores', READ, getUserScores),
  ];
}

/** The user a request names: `me`, an id, or the e-mail of an education profile; else 404. */
async function userFor(parts: UserRoutesParts, request: ApiRequest, grant: Grant): Promise<User | ServiceError> {
  const named = request.params['user'] ?? '';
  if (named === 'me' || named === grant.user.id) return grant.user;
  let user = await parts.accounts.userById(named);
  if (user === undefined && named.includes('@')) {
    const profile = await parts.education.profileByEmail(named.toLowerCase());
    if (profile !== undefined) user = await parts.accounts.userById(profile.userId);
  }
  return user ?? new ServiceError('SC_USER_NOT_FOUND', `no user ${JSON.stringify(named)}`, { param: 'user' });
}

async function getUser(parts: UserRoutesParts, request: ApiRequest, grant: Grant): Promise<ApiOutcome> {
  const user = unwrap(await userFor(parts, request, grant));
  const owned = await parts.scores.publicScoresOf(user.id, MAX_USER_SCORES);
  return jsonResponse(200, { ...userPublicJson(user, pictureUrls(parts, request, user)), ownedPublicScoresCount: owned.length });
}

/** Release 2.13.0 has no operation that likes a score, so nobody has liked one: an empty list (of ids with `ids=true`). */
async function gerUserLikes(parts: UserRoutesParts, request: ApiRequest, grant: Grant): Promise<ApiOutcome> {
  unwrap(booleanParam(request.query, 'ids', false));
  unwrap(await userFor(parts, request, grant));
  return jsonResponse(200, []);
}

/** The user's public scores (also for `me`: private ones are listed through collections); `parent` keeps the forks of that score. */
async function getUserScores(parts: UserRoutesParts, request: ApiRequest, grant: Grant): Promise<ApiOutcome> {
  const user = unwrap(await userFor(parts, request, grant));
  const parent = request.query.get('parent');
  const scores = (await parts.scores.publicScoresOf(user.id, MAX_USER_SCORES)).filter((score) => parent === null || parent === '' || score.parentScore === parent);
  const details = scoreDetailsOf(parts, request, grant.user);
  const bodies: Array<Record<string, unknown>> = [];
  for (const score of scores) bodies.push(await details(score));
  return jsonResponse(200, bodies);
}
