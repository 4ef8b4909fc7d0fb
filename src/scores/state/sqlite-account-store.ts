import type Database from 'better-sqlite3';
import type { AccountStore } from '../accounts/account-store.js';
import type { Scope } from '../accounts/scopes.js';
import { newId, newToken, tokenHash } from '../accounts/tokens.js';
import type { Grant, PictureKind, User } from '../accounts/user.js';
import { userOf, type UserRow } from './rows.js';

/** Accounts and token hashes in the score API's SQLite database. */
export class SqliteAccountStore implements AccountStore {
  private readonly userByName: Database.Statement<[string], UserRow>;
  private readonly userWithId: Database.Statement<[string], UserRow>;
  private readonly insertUser: Database.Statement<[string, string, number]>;
  private readonly insertToken: Database.Statement<[string, string, string, number]>;
  private readonly grantByHash: Database.Statement<[string], UserRow & { scopes: string }>;
  private readonly pictureUpdates: Record<PictureKind, Database.Statement<[string, string]>>;

  constructor(private readonly db: Database.Database) {
    this.userByName = db.prepare('SELECT * FROM users WHERE username = ?');
    this.userWithId = db.prepare('SELECT * FROM users WHERE id = ?');
    this.insertUser = db.prepare('INSERT OR IGNORE INTO users (id, username, registration_date) VALUES (?, ?, ?)');
    this.insertToken = db.prepare('INSERT INTO tokens (hash, user_id, scopes, created) VALUES (?, ?, ?, ?)');
    this.grantByHash = db.prepare('SELECT users.*, tokens.scopes FROM tokens JOIN users ON users.id = tokens.user_id WHERE tokens.hash = ?');
    this.pictureUpdates = {
      picture: db.prepare('UPDATE users SET picture_file = ? WHERE id = ?'),
      coverPicture: db.prepare('UPDATE users SET cover_picture_file = ? WHERE id = ?'),
    };
  }

  ensureUser(username: string, now: number): User {
    // INSERT OR IGNORE then SELECT: two processes creating the same name end with one user.
    this.insertUser.run(newId(), username, now);
    return userOf(this.userByName.get(username) as UserRow);
  }

  createUser(username: string, now: number): User | undefined {
    const id = newId();
    return this.insertUser.run(id, username, now).changes === 0 ? undefined : this.userById(id);
  }

  userById(id: string): User | undefined {
    const row = this.userWithId.get(id);
    return row === undefined ? undefined : userOf(row);
  }

  createToken(userId: string, scopes: readonly Scope[], now: number): string {
    const token = newToken();
    this.insertToken.run(tokenHash(token), userId, scopes.join(' '), now);
    return token;
  }

  grantOf(token: string): Grant | undefined {
    const row = this.grantByHash.get(tokenHash(token));
    if (row === undefined) return undefined;
    return { user: userOf(row), scopes: row.scopes === '' ? [] : row.scopes.split(' ') };
  }

  setPicture(userId: string, kind: PictureKind, fileId: string): User {
    this.pictureUpdates[kind].run(fileId, userId);
    return userOf(this.userWithId.get(userId) as UserRow);
  }

  close(): void {
    this.db.close();
  }
}
