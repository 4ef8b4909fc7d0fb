/**
 * A personal access token as the service describes it: never its secret, only its id, whose it
 * is, what it grants and how long. Times are epoch milliseconds.
 */
export interface TokenInfo {
  id: string;
  userId: string;
  username: string;
  scopes: readonly string[];
  creationDate: number;
  /** null: it never expires (tokens issued before tokens had a lifetime). */
  expirationDate: number | null;
  /** null while it was not revoked. */
  revocationDate: number | null;
}

export type TokenState = 'active' | 'expired' | 'revoked';

/** Revocation wins over expiry: a revoked token says so whatever its date. */
export function tokenState(token: Pick<TokenInfo, 'expirationDate' | 'revocationDate'>, now: number): TokenState {
  if (token.revocationDate !== null) return 'revoked';
  return token.expirationDate !== null && now >= token.expirationDate ? 'expired' : 'active';
}
