import type { AccountStore } from '../accounts/account-store.js';
import type { TokenInfo } from '../accounts/personal-token.js';
import type { Scope } from '../accounts/scopes.js';
import { newId, newToken, tokenHash, tokenIdOfHash } from '../accounts/tokens.js';
import type { PictureKind, TokenGrant, User } from '../accounts/user.js';
import { executorOn, type Connection } from './connection.js';
import { row, rowAs, rowsAs, write, type Executor, type Mode, type Outcome } from './plan.js';
import { ACCOUNT_QUERIES as Q } from './queries.js';
import { tokenGrantOf, tokenInfoOf, userOf, type UserRow } from './rows.js';

const PICTURE_UPDATES = { picture: Q.setPicture, coverPicture: Q.setCoverPicture } as const;

/** Accounts and token hashes in the score database; closing the store closes its connection. */
class SqlAccountStore<M extends Mode> implements AccountStore {
  private readonly db: Executor<M>;

  constructor(connection: Connection<M>) {
    this.db = executorOn(connection, Q);
  }

  ensureUser(username: string, now: number): Outcome<M, User> {
    return this.db.run(function* () {
      // A name already taken inserts nothing (ON CONFLICT DO NOTHING): that user is the one.
      const created = yield* row(Q.insertUser, newId(), username, now);
      return userOf(created ?? ((yield* row(Q.userByName, username)) as UserRow));
    });
  }

  createUser(username: string, now: number): Outcome<M, User | undefined> {
    return this.db.run(() => rowAs(userOf, Q.insertUser, newId(), username, now));
  }

  userById(id: string): Outcome<M, User | undefined> {
    return this.db.run(() => rowAs(userOf, Q.userById, id));
  }

  userByName(username: string): Outcome<M, User | undefined> {
    return this.db.run(() => rowAs(userOf, Q.userByName, username));
  }

  renameUser(id: string, username: string): Outcome<M, User | undefined> {
    return this.db.run(function* () {
      try {
        return yield* rowAs(userOf, Q.rename, username, id);
      } catch (error) {
        // The name is another user's (better-sqlite3 and pg both report the unique constraint).
        if (error instanceof Error && 'code' in error && (error.code === 'SQLITE_CONSTRAINT_UNIQUE' || error.code === '23505')) return undefined;
        throw error;
      }
    });
  }

  createToken(userId: string, scopes: readonly Scope[], now: number, expirationDate: number): Outcome<M, string> {
    return this.db.run(function* () {
      const token = newToken();
      const hash = tokenHash(token);
      yield* write(Q.insertToken, hash, tokenIdOfHash(hash), userId, scopes.join(' '), now, expirationDate);
      return token;
    });
  }

  grantOf(token: string): Outcome<M, TokenGrant | undefined> {
    return this.db.run(() => rowAs(tokenGrantOf, Q.grantByHash, tokenHash(token)));
  }

  listTokens(userId: string): Outcome<M, TokenInfo[]> {
    return this.db.run(() => rowsAs(tokenInfoOf, Q.tokensOfUser, userId));
  }

  revokeToken(id: string, now: number): Outcome<M, TokenInfo | undefined> {
    return this.db.run(function* () {
      yield* write(Q.revokeToken, now, id);
      return yield* rowAs(tokenInfoOf, Q.tokenById, id);
    });
  }

  setPicture(userId: string, kind: PictureKind, fileId: string): Outcome<M, User> {
    return this.db.run(function* () {
      return userOf((yield* row(PICTURE_UPDATES[kind], fileId, userId)) as UserRow);
    });
  }

  close(): Outcome<M, void> {
    return this.db.close();
  }
}

export class SqliteAccountStore extends SqlAccountStore<'sync'> {}
export class PgAccountStore extends SqlAccountStore<'async'> {}
