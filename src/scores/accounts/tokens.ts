import { createHash, randomBytes } from 'node:crypto';

/**
 * Personal access tokens: 32 random bytes, base64url, behind a recognisable prefix. Only their
 * SHA-256 is stored, so a copy of the database grants nothing; a slow password hash is not
 * needed because the token itself carries 256 bits of entropy.
 */
const PREFIX = 'flatpat_';

export function newToken(): string {
  return PREFIX + randomBytes(32).toString('base64url');
}

export function tokenHash(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** Whether the text has the shape of a token (rather than of a token's id). */
export function looksLikeToken(text: string): boolean {
  return text.startsWith(PREFIX);
}

export const TOKEN_ID_LENGTH = 24;

/**
 * A token's public id: the first 24 hex digits of its hash. Derived rather than drawn, so tokens
 * stored before ids existed have one, and whoever holds a token can name it to revoke it.
 */
export function tokenIdOfHash(hash: string): string {
  return hash.slice(0, TOKEN_ID_LENGTH);
}

/** The id of a token from the token itself. */
export function tokenId(token: string): string {
  return tokenIdOfHash(tokenHash(token));
}

/** A new object id: 24 hex digits (12 random bytes), the shape of the ids the API returns. */
export function newId(): string {
  return randomBytes(12).toString('hex');
}

/** A score's sharing key: 128 hex digits (64 random bytes), the pattern the API defines. */
export function newSharingKey(): string {
  return randomBytes(64).toString('hex');
}
