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

/** A new object id: 24 hex digits (12 random bytes), the shape of the ids the API returns. */
export function newId(): string {
  return randomBytes(12).toString('hex');
}

/** A score's sharing key: 128 hex digits (64 random bytes), the pattern the API defines. */
export function newSharingKey(): string {
  return randomBytes(64).toString('hex');
}
