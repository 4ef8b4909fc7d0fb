import { createHash, timingSafeEqual } from 'node:crypto';
import { ServiceError } from '../../errors/index.js';
import type { ApiRequest, ApiRoute } from '../../transports/http/handoff/index.js';
import { parseScopes, SCOPES } from '../accounts/scopes.js';
import { isValidUsername, USERNAME_RULE } from '../accounts/user.js';
import type { ScoreApiParts } from './api-parts.js';
import { jsonResponse } from './responses.js';
import { jsonObjectBody } from './score-bodies.js';

export interface AdminRoutesParts extends Pick<ScoreApiParts, 'accounts' | 'now'> {
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
 * `POST /v2/admin/tokens` `{username, scopes}`: what `npm run scores:token` does, over HTTP, for
 * the holder of SCORES_ADMIN_TOKEN. Without that setting the route does not exist.
 */
export function adminRoutes(parts: AdminRoutesParts): ApiRoute[] {
  if (parts.adminToken === '') return [];
  const adminDigest = digest(parts.adminToken);
  return [
    {
      method: 'POST',
      path: '/v2/admin/tokens',
      handle: async (request) => {
        if (!isAdmin(request, adminDigest)) return new ServiceError('SC_UNAUTHORIZED', 'this route needs the administrator token (SCORES_ADMIN_TOKEN) as Bearer');
        const body = jsonObjectBody(request);
        if (body instanceof ServiceError) return body;
        const { username, scopes } = body;
        if (typeof username !== 'string' || !isValidUsername(username)) return new ServiceError('SC_BAD_REQUEST', `username must be ${USERNAME_RULE}`, { param: 'username' });
        const list = Array.isArray(scopes) && scopes.every((s) => typeof s === 'string') ? scopes.join(',') : typeof scopes === 'string' ? scopes : undefined;
        const parsed = list === undefined ? undefined : parseScopes(list);
        if (parsed === undefined || !parsed.ok) return new ServiceError('SC_BAD_REQUEST', `scopes must be a list of: ${SCOPES.join(', ')}`, { param: 'scopes' });
        const user = await parts.accounts.ensureUser(username, parts.now());
        const token = await parts.accounts.createToken(user.id, parsed.scopes, parts.now());
        return jsonResponse(200, { token, user: { id: user.id, username: user.username }, scopes: parsed.scopes });
      },
    },
  ];
}
