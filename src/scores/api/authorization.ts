import { ServiceError } from '../../errors/index.js';
import type { ApiRequest } from '../../transports/http/handoff/index.js';
import type { AccountStore } from '../accounts/account-store.js';
import { tokenState } from '../accounts/personal-token.js';
import type { Scope } from '../accounts/scopes.js';
import type { Grant } from '../accounts/user.js';

const BEARER = /^Bearer\s+(\S+)\s*$/i;

/**
 * The grant behind the request's `Authorization: Bearer` token, when it holds one of `anyOf`:
 * 401 without a token, with one never issued, expired (at `now`) or revoked, 403 without any of
 * the scopes (the operation's alternatives, of which one suffices).
 */
export async function authorize(request: ApiRequest, accounts: AccountStore, anyOf: readonly Scope[], now: number): Promise<Grant | ServiceError> {
  const header = request.headers.get('authorization');
  if (header === undefined) return new ServiceError('SC_UNAUTHORIZED', 'Authentication required: send Authorization: Bearer <token>');
  const token = BEARER.exec(header)?.[1];
  if (token === undefined) return new ServiceError('SC_UNAUTHORIZED', 'The Authorization header is not of the form Bearer <token>');
  const grant = await accounts.grantOf(token);
  if (grant === undefined) return new ServiceError('SC_UNAUTHORIZED', 'Invalid access token');
  const state = tokenState(grant, now);
  if (state === 'revoked') return new ServiceError('SC_TOKEN_REVOKED', 'This access token was revoked');
  if (state === 'expired') return new ServiceError('SC_TOKEN_EXPIRED', `This access token expired at ${new Date(grant.expirationDate ?? 0).toISOString()}`);
  if (!anyOf.some((scope) => grant.scopes.includes(scope))) {
    return new ServiceError('SC_FORBIDDEN', `This operation needs one of the scopes ${anyOf.join(', ')}; the token has ${grant.scopes.length === 0 ? 'none' : grant.scopes.join(', ')}`);
  }
  return { user: grant.user, scopes: grant.scopes };
}
