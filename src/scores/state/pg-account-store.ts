import type pg from 'pg';
import type { AccountStore } from '../accounts/account-store.js';
import type { TokenInfo } from '../accounts/personal-token.js';
import type { Scope } from '../accounts/scopes.js';
import { newId, newToken, tokenHash, tokenIdOfHash } from '../accounts/tokens.js';
import type { PictureKind, TokenGrant, User } from '../accounts/user.js';
import { GRANT_SELECT, TOKEN_SELECT, tokenGrantOf, tokenInfoOf, userOf, type GrantRow, type TokenRow, type UserRow } from './rows.js';

const PICTURE_COLUMNS: Record<PictureKind, string> = { picture: 'picture_file', coverPicture: 'cover_picture_file' };

/** Accounts and token hashes on PostgreSQL, for several instances. */
export class PgAccountStore implements AccountStore {
  constructor(private readonly pool: pg.Pool) {}

  async ensureUser(username: string, now: number): Promise<User> {
    // ON CONFLICT DO NOTHING then SELECT: instances creating the same name end with one user.
    await this.pool.query('INSERT INTO users (id, username, registration_date) VALUES ($1, $2, $3) ON CONFLICT (username) DO NOTHING', [newId(), username, now]);
    return (await this.userByName(username)) as User;
  }

  async createUser(username: string, now: number): Promise<User | undefined> {
    const { rows } = await this.pool.query<UserRow>('INSERT INTO users (id, username, registration_date) VALUES ($1, $2, $3) ON CONFLICT (username) DO NOTHING RETURNING *', [newId(), username, now]);
    return rows[0] === undefined ? undefined : userOf(rows[0]);
  }

  async userById(id: string): Promise<User | undefined> {
    const { rows } = await this.pool.query<UserRow>('SELECT * FROM users WHERE id = $1', [id]);
    return rows[0] === undefined ? undefined : userOf(rows[0]);
  }

  async userByName(username: string): Promise<User | undefined> {
    const { rows } = await this.pool.query<UserRow>('SELECT * FROM users WHERE username = $1', [username]);
    return rows[0] === undefined ? undefined : userOf(rows[0]);
  }

  async createToken(userId: string, scopes: readonly Scope[], now: number, expirationDate: number): Promise<string> {
    const token = newToken();
    const hash = tokenHash(token);
    await this.pool.query('INSERT INTO tokens (hash, id, user_id, scopes, created, expires) VALUES ($1, $2, $3, $4, $5, $6)', [hash, tokenIdOfHash(hash), userId, scopes.join(' '), now, expirationDate]);
    return token;
  }

  async grantOf(token: string): Promise<TokenGrant | undefined> {
    const { rows } = await this.pool.query<GrantRow>(`${GRANT_SELECT} WHERE tokens.hash = $1`, [tokenHash(token)]);
    return rows[0] === undefined ? undefined : tokenGrantOf(rows[0]);
  }

  async listTokens(userId: string): Promise<TokenInfo[]> {
    const { rows } = await this.pool.query<TokenRow>(`${TOKEN_SELECT} WHERE tokens.user_id = $1 ORDER BY tokens.created, tokens.id`, [userId]);
    return rows.map(tokenInfoOf);
  }

  async revokeToken(id: string, now: number): Promise<TokenInfo | undefined> {
    await this.pool.query('UPDATE tokens SET revoked = $1 WHERE id = $2 AND revoked IS NULL', [now, id]);
    const { rows } = await this.pool.query<TokenRow>(`${TOKEN_SELECT} WHERE tokens.id = $1`, [id]);
    return rows[0] === undefined ? undefined : tokenInfoOf(rows[0]);
  }

  async setPicture(userId: string, kind: PictureKind, fileId: string): Promise<User> {
    const { rows } = await this.pool.query<UserRow>(`UPDATE users SET ${PICTURE_COLUMNS[kind]} = $1 WHERE id = $2 RETURNING *`, [fileId, userId]);
    return userOf(rows[0] as UserRow);
  }

  close(): Promise<void> {
    return this.pool.end();
  }
}
