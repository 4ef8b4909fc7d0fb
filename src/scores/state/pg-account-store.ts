import type pg from 'pg';
import type { AccountStore } from '../accounts/account-store.js';
import type { Scope } from '../accounts/scopes.js';
import { newId, newToken, tokenHash } from '../accounts/tokens.js';
import type { Grant, PictureKind, User } from '../accounts/user.js';
import { userOf, type UserRow } from './rows.js';

const PICTURE_COLUMNS: Record<PictureKind, string> = { picture: 'picture_file', coverPicture: 'cover_picture_file' };

/** Accounts and token hashes on PostgreSQL, for several instances. */
export class PgAccountStore implements AccountStore {
  constructor(private readonly pool: pg.Pool) {}

  async ensureUser(username: string, now: number): Promise<User> {
    // ON CONFLICT DO NOTHING then SELECT: instances creating the same name end with one user.
    await this.pool.query('INSERT INTO users (id, username, registration_date) VALUES ($1, $2, $3) ON CONFLICT (username) DO NOTHING', [newId(), username, now]);
    const { rows } = await this.pool.query<UserRow>('SELECT * FROM users WHERE username = $1', [username]);
    return userOf(rows[0] as UserRow);
  }

  async createUser(username: string, now: number): Promise<User | undefined> {
    const { rows } = await this.pool.query<UserRow>('INSERT INTO users (id, username, registration_date) VALUES ($1, $2, $3) ON CONFLICT (username) DO NOTHING RETURNING *', [newId(), username, now]);
    return rows[0] === undefined ? undefined : userOf(rows[0]);
  }

  async userById(id: string): Promise<User | undefined> {
    const { rows } = await this.pool.query<UserRow>('SELECT * FROM users WHERE id = $1', [id]);
    return rows[0] === undefined ? undefined : userOf(rows[0]);
  }

  async createToken(userId: string, scopes: readonly Scope[], now: number): Promise<string> {
    const token = newToken();
    await this.pool.query('INSERT INTO tokens (hash, user_id, scopes, created) VALUES ($1, $2, $3, $4)', [tokenHash(token), userId, scopes.join(' '), now]);
    return token;
  }

  async grantOf(token: string): Promise<Grant | undefined> {
    const { rows } = await this.pool.query<UserRow & { scopes: string }>('SELECT users.*, tokens.scopes FROM tokens JOIN users ON users.id = tokens.user_id WHERE tokens.hash = $1', [tokenHash(token)]);
    const row = rows[0];
    if (row === undefined) return undefined;
    return { user: userOf(row), scopes: row.scopes === '' ? [] : row.scopes.split(' ') };
  }

  async setPicture(userId: string, kind: PictureKind, fileId: string): Promise<User> {
    const { rows } = await this.pool.query<UserRow>(`UPDATE users SET ${PICTURE_COLUMNS[kind]} = $1 WHERE id = $2 RETURNING *`, [fileId, userId]);
    return userOf(rows[0] as UserRow);
  }

  close(): Promise<void> {
    return this.pool.end();
  }
}
