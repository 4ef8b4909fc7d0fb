import { createHash, timingSafeEqual } from 'node:crypto';
import { attempt, ServiceError, unwrap } from '../../errors/index.js';
import { operationRoutes, type ApiOperation, type ApiOutcome, type ApiRequest, type ApiRoute } from '../../transports/http/handoff/index.js';
import { parseScopes, SCOPES } from '../accounts/scopes.js';
import type { TokenInfo } from '../accounts/personal-token.js';
import { tokenId } from '../accounts/tokens.js';
import { isValidUsername, USERNAME_RULE } from '../accounts/user.js';
import { emptyProfile, isEmailAddress, ORGANIZATION_ROLES, type EducationProfile } from '../education/education-profile.js';
import { EmailTaken } from '../education/education-store.js';
import type { ScoreApiParts } from './api-parts.js';
import { bad, jsonObjectBody, oneOf, optionalBoolean, optionalDate, optionalString } from './body-fields.js';
import { jsonResponse } from './responses.js';
import { tokenJson } from './token-views.js';

export interface AdminRoutesParts extends Pick<ScoreApiParts, 'accounts' | 'education' | 'now' | 'tokenTtlMs'> {
  /** The administrator's bearer token; the routes exist only when it is set. */
  adminToken: string;
}

const digest = (text: string) => createHash('sha256').update(text).digest();

function isAdmin(request: ApiRequest, adminDigest: Buffer): boolean {
  const presented = /^Bearer\s+(\S+)\s*$/i.exec(request.headers.get('authorization') ?? '')?.[1];
  // Compared as digests, in constant time: the token's length and content stay unobservable.
  return presented !== undefined && timingSafeEqual(digest(presented), adminDigest);
}

/**
 * For the holder of SCORES_ADMIN_TOKEN (without that setting these routes do not exist):
 * - `POST /v2/admin/tokens` `{username, scopes, expirationDate?}`: what `npm run scores:token`
 *   does, over HTTP (the token lives SCORES_TOKEN_TTL unless the body gives its expiration date);
 * - `GET /v2/admin/tokens?username=`: that user's tokens, without their secrets;
 * - `DELETE /v2/admin/tokens/{id}`: revokes a token;
 * - `PUT /v2/admin/users/{username}` `{email, organization, organizationRole, personalSubscription}`:
 *   creates the account if needed and sets what the education API knows of it.
 */
export function adminRoutes(parts: AdminRoutesParts): ApiRoute[] {
  if (parts.adminToken === '') return [];
  const adminDigest = digest(parts.adminToken);
  /** The operation for the administrator alone; any other bearer gets 401. */
  const adminOnly =
    (operation: ApiOperation<AdminRoutesParts>): ApiOperation<AdminRoutesParts> =>
    (parts, request) =>
      isAdmin(request, adminDigest) ? operation(parts, request) : new ServiceError('SC_UNAUTHORIZED', 'this route needs the administrator token (SCORES_ADMIN_TOKEN) as Bearer');
  const route = operationRoutes(parts);
  return [
    route('POST', '/v2/admin/tokens', adminOnly(createToken)),
    route('GET', '/v2/admin/tokens', adminOnly(listTokens)),
    route('DELETE', '/v2/admin/tokens/:id', adminOnly(revokeToken)),
    route('PUT', '/v2/admin/users/:username', adminOnly(setUser)),
  ];
}

async function createToken(parts: AdminRoutesParts, request: ApiRequest): Promise<ApiOutcome> {
  const body = unwrap(jsonObjectBody(request));
  const { username, scopes } = body;
  if (typeof username !== 'string' || !isValidUsername(username)) return new ServiceError('SC_BAD_REQUEST', `username must be ${USERNAME_RULE}`, { param: 'username' });
  const list = Array.isArray(scopes) && scopes.every((s) => typeof s === 'string') ? scopes.join(',') : typeof scopes === 'string' ? scopes : undefined;
  const parsed = list === undefined ? undefined : parseScopes(list);
  if (parsed === undefined || !parsed.ok) return new ServiceError('SC_BAD_REQUEST', `scopes must be a list of: ${SCOPES.join(', ')}`, { param: 'scopes' });
  const now = parts.now();
  const expiration = unwrap(optionalDate(body, 'expirationDate'));
  if (expiration !== undefined && expiration <= now) return bad('expirationDate', 'expirationDate must be in the future');
  const user = await parts.accounts.ensureUser(username, now);
  const expirationDate = expiration ?? now + parts.tokenTtlMs;
  const token = await parts.accounts.createToken(user.id, parsed.scopes, now, expirationDate);
  const info: TokenInfo = { id: tokenId(token), userId: user.id, username: user.username, scopes: parsed.scopes, creationDate: now, expirationDate, revocationDate: null };
  return jsonResponse(200, { token, ...tokenJson(info, now) });
}

async function listTokens(parts: AdminRoutesParts, request: ApiRequest): Promise<ApiOutcome> {
  const username = request.query.get('username') ?? '';
  if (!isValidUsername(username)) return new ServiceError('SC_BAD_REQUEST', `username must be ${USERNAME_RULE}`, { param: 'username' });
  const user = await parts.accounts.userByName(username);
  if (user === undefined) return new ServiceError('SC_USER_NOT_FOUND', `no user ${JSON.stringify(username)}`, { param: 'username' });
  const now = parts.now();
  return jsonResponse(200, (await parts.accounts.listTokens(user.id)).map((token) => tokenJson(token, now)));
}

async function revokeToken(parts: AdminRoutesParts, request: ApiRequest): Promise<ApiOutcome> {
  const id = request.params['id'] ?? '';
  const revoked = await parts.accounts.revokeToken(id, parts.now());
  if (revoked === undefined) return new ServiceError('SC_TOKEN_NOT_FOUND', `no token ${JSON.stringify(id)}`, { param: 'id' });
  return { status: 204 };
}

/** Creates the account if needed and sets what the education API knows of it. */
async function setUser(parts: AdminRoutesParts, request: ApiRequest): Promise<ApiOutcome> {
  const username = request.params['username'] ?? '';
  if (!isValidUsername(username)) return new ServiceError('SC_BAD_REQUEST', `username must be ${USERNAME_RULE}`, { param: 'username' });
  const fields = unwrap(profileFields(unwrap(jsonObjectBody(request))));
  const user = await parts.accounts.ensureUser(username, parts.now());
  const profile = { ...((await parts.education.profileOf(user.id)) ?? emptyProfile(user.id)), ...fields };
  try {
    await parts.education.saveProfile(profile);
  } catch (error) {
    if (error instanceof EmailTaken) return new ServiceError('SC_CONFLICT', error.message, { param: 'email' });
    throw error;
  }
  return jsonResponse(200, { id: user.id, username: user.username, email: profile.email, organization: profile.organization, organizationRole: profile.organizationRole, personalSubscription: profile.personalSubscription });
}

/** The profile fields an administrator sets; absent ones keep their value, null clears email and organization. */
function profileFields(body: Record<string, unknown>): Partial<Omit<EducationProfile, 'userId'>> | ServiceError {
  return attempt(() => {
    const fields: Partial<Omit<EducationProfile, 'userId'>> = {};
    if ('email' in body) {
      const email = unwrap(optionalString(body, 'email', 254));
      if (email !== undefined && !isEmailAddress(email)) return bad('email', 'email must be an e-mail address');
      fields.email = email?.toLowerCase() ?? null;
    }
    if ('organization' in body) fields.organization = unwrap(optionalString(body, 'organization', 64)) ?? null;
    const role = unwrap(oneOf(body, 'organizationRole', ORGANIZATION_ROLES));
    if (role !== undefined) fields.organizationRole = role;
    const subscription = unwrap(optionalBoolean(body, 'personalSubscription'));
    if (subscription !== undefined) fields.personalSubscription = subscription;
    return fields;
  });
}
