import { tokenState, type TokenInfo } from '../accounts/personal-token.js';

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

/** A token as the admin routes describe it: never its secret. Dates are RFC 3339; null expirationDate: it never expires. */
export function tokenJson(token: TokenInfo, now: number): Record<string, unknown> {
  return {
    id: token.id,
    user: { id: token.userId, username: token.username },
    scopes: token.scopes,
    state: tokenState(token, now),
    creationDate: iso(token.creationDate),
    expirationDate: iso(token.expirationDate),
    revocationDate: iso(token.revocationDate),
  };
}
