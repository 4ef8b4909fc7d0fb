import type { TokenInfo } from './personal-token.js';
import type { Scope } from './scopes.js';
import type { PictureKind, TokenGrant, User } from './user.js';

/**
 * Accounts and their personal access tokens. The embedded implementation is SQLite; a
 * PostgreSQL one serves several instances, hence the possibly asynchronous results.
 */
export interface AccountStore {
  /** The user of that name, created (registered now) when there is none. */
  ensureUser(username: string, now: number): User | Promise<User>;
  /** A new user of that name (registered now), or undefined when the name is taken. */
  createUser(username: string, now: number): User | undefined | Promise<User | undefined>;
  /**
   * Stores a new token for the user with these scopes, valid until `expirationDate` (epoch ms);
   * returns the token, shown this once (its id is tokenId(token)).
   */
  createToken(userId: string, scopes: readonly Scope[], now: number, expirationDate: number): string | Promise<string>;
  userById(id: string): User | undefined | Promise<User | undefined>;
  userByName(username: string): User | undefined | Promise<User | undefined>;
  /** Gives the user a new name; undefined when another user has it. */
  renameUser(id: string, username: string): User | undefined | Promise<User | undefined>;
  /** What a presented token grants and until when, or undefined for a token that was never issued. */
  grantOf(token: string): TokenGrant | undefined | Promise<TokenGrant | undefined>;
  /** The user's tokens, oldest first, without their secrets. */
  listTokens(userId: string): TokenInfo[] | Promise<TokenInfo[]>;
  /** Revokes the token with this id (a second revocation keeps the first date); undefined when there is none. */
  revokeToken(id: string, now: number): TokenInfo | undefined | Promise<TokenInfo | undefined>;
  /** Points the user's profile or cover picture at an uploaded file; the user as it is now. */
  setPicture(userId: string, kind: PictureKind, fileId: string): User | Promise<User>;
  close(): void | Promise<void>;
}
