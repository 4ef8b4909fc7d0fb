import type { Scope } from './scopes.js';
import type { Grant, PictureKind, User } from './user.js';

/**
 * Accounts and their personal access tokens. The embedded implementation is SQLite; a
 * PostgreSQL one serves several instances, hence the possibly asynchronous results.
 */
export interface AccountStore {
  /** The user of that name, created (registered now) when there is none. */
  ensureUser(username: string, now: number): User | Promise<User>;
  /** A new user of that name (registered now), or undefined when the name is taken. */
  createUser(username: string, now: number): User | undefined | Promise<User | undefined>;
  /** Stores a new token for the user with these scopes; returns the token, shown this once. */
  createToken(userId: string, scopes: readonly Scope[], now: number): string | Promise<string>;
  userById(id: string): User | undefined | Promise<User | undefined>;
  /** What a presented token grants, or undefined for a token that was never issued. */
  grantOf(token: string): Grant | undefined | Promise<Grant | undefined>;
  /** Points the user's profile or cover picture at an uploaded file; the user as it is now. */
  setPicture(userId: string, kind: PictureKind, fileId: string): User | Promise<User>;
  close(): void | Promise<void>;
}
