import type Database from 'better-sqlite3';
import type { AccountStore } from '../accounts/account-store.js';
import type { TokenInfo } from '../accounts/personal-token.js';
import type { Scope } from '../accounts/scopes.js';
import { newId, newToken, tokenHash, tokenIdOfHash } from '../accounts/tokens.js';
import type { PictureKind, TokenGrant, User } from '../accounts/user.js';
import { GRANT_SELECT, TOKEN_SELECT, tokenGrantOf, tokenInfoOf, userOf, type GrantRow, type TokenRow, type UserRow } from './rows.js';

/** Accounts and token hashes in the score API's SQLite database. */
export class SqliteAccountStore implements AccountStore {
  private readonly userWithName: Database.Statement<[string], UserRow>;
  private readonly userWithId: Database.Statement<[string], UserRow>;
  private readonly insertUser: Database.Statement<[string, string, number]>;
  private readonly insertToken: Database.Statement<[string, string, string, string, number, number]>;
  private readonly grantByHash: Database.Statement<[string], GrantRow>;
  private readonly tokensOfUser: Database.Statement<[string], TokenRow>;
  private readonly tokenById: Database.Statement<[string], TokenRow>;
  private readonly markRevoked: Database.Statement<[number, string]>;
  private readonly pictureUpdates: Record<PictureKind, Database.Statement<[string, string]>>;

  constructor(private readonly db: Database.Database) {
    this.userWithName = db.prepare('SELECT * FROM users WHERE username = ?');
    this.userWithId = db.prepare('SELECT * FROM users WHERE id = ?');
    this.insertUser = db.prepare('INSERT OR IGNORE INTO users (id, username, registration_date) VALUES (?, ?, ?)');
    this.insertToken = db.prepare('INSERT INTO tokens (hash, id, user_id, scopes, created, expires) VALUES (?, ?, ?, ?, ?, ?)');
    this.grantByHash = db.prepare(`${GRANT_SELECT} WHERE tokens.hash = ?`);
    this.tokensOfUser = db.prepare(`${TOKEN_SELECT} WHERE tokens.user_id = ? ORDER BY tokens.created, tokens.id`);
    this.tokenById = db.prepare(`${TOKEN_SELECT} WHERE tokens.id = ?`);
    this.markRevoked = db.prepare('UPDATE tokens SET revoked = ? WHERE id = ? AND revoked IS NULL');
    this.pictureUpdates = {
      picture: db.prepare('UPDATE users SET picture_file = ? WHERE id = ?'),
      coverPicture: db.prepare('UPDATE users SET cover_picture_file = ? WHERE id = ?'),
    };
  }

  ensureUser(username: string, now: number): User {
    // INSERT OR IGNORE then SELECT: two processes creating the same name end with one user.
    this.insertUser.run(newId(), username, now);
    return userOf(this.userWithName.get(username) as UserRow);
  }

  createUser(username: string, now: number): User | undefined {
    const id = newId();
    return this.insertUser.run(id, username, now).changes === 0 ? undefined : this.userById(id);
  }

  userById(id: string): User | undefined {
    const row = this.userWithId.get(id);
    return row === undefined ? undefined : userOf(row);
  }

  userByName(username: string): User | undefined {
    const row = this.userWithName.get(username);
    return row === undefined ? undefined : userOf(row);
  }

  createToken(userId: string, scopes: readonly Scope[], now: number, expirationDate: number): string {
    const token = newToken();
    const hash = tokenHash(token);
    this.insertToken.run(hash, tokenIdOfHash(hash), userId, scopes.join(' '), now, expirationDate);
    return token;
  }

  grantOf(token: string): TokenGrant | undefined {
    const row = this.grantByHash.get(tokenHash(token));
    return row === undefined ? undefined : tokenGrantOf(row);
  }

  listTokens(userId: string): TokenInfo[] {
    return this.tokensOfUser.all(userId).map(tokenInfoOf);
  }

  revokeToken(id: string, now: number): TokenInfo | undefined {
    this.markRevoked.run(now, id);
    const row = this.tokenById.get(id);
    return row === undefined ? undefined : tokenInfoOf(row);
  }

  setPicture(userId: string, kind: PictureKind, fileId: string): User {
    this.pictureUpdates[kind].run(fileId, userId);
    return userOf(this.userWithId.get(userId) as UserRow);
  }

  close(): void {
    this.db.close();
  }
}
