import type { TokenInfo } from '../accounts/personal-token.js';
import type { TokenGrant, User } from '../accounts/user.js';
import type { Upload, UploadPurpose } from '../files/uploads.js';
import type { Collection } from '../library/collection.js';
import type { Revision } from '../library/score.js';

/** A `users` row, as SQLite and PostgreSQL both return it. */
export interface UserRow {
  id: string;
  username: string;
  registration_date: number;
  picture_file: string | null;
  cover_picture_file: string | null;
}

export function userOf(row: UserRow): User {
  return { id: row.id, username: row.username, registrationDate: row.registration_date, pictureFile: row.picture_file, coverPictureFile: row.cover_picture_file };
}

/** A `revisions` row without its MusicXML; `autosave` is 0/1 in SQLite, a boolean in PostgreSQL. */
export interface RevisionRow {
  id: string;
  score_id: string;
  user_id: string;
  creation_date: number;
  description: string;
  autosave: number | boolean;
}

export const REVISION_COLUMNS = 'id, score_id, user_id, creation_date, description, autosave';

export function revisionOf(row: RevisionRow): Revision {
  return { id: row.id, scoreId: row.score_id, userId: row.user_id, creationDate: row.creation_date, description: row.description, autosave: row.autosave === true || row.autosave === 1 };
}

/** A `tokens` row with its user's name, as both stores select it (never the hash). */
export interface TokenRow {
  id: string;
  user_id: string;
  username: string;
  scopes: string;
  created: number;
  expires: number | null;
  revoked: number | null;
}

export const TOKEN_SELECT = 'SELECT tokens.id, tokens.user_id, users.username, tokens.scopes, tokens.created, tokens.expires, tokens.revoked FROM tokens JOIN users ON users.id = tokens.user_id';

const scopesOf = (text: string) => (text === '' ? [] : text.split(' '));

export function tokenInfoOf(row: TokenRow): TokenInfo {
  return { id: row.id, userId: row.user_id, username: row.username, scopes: scopesOf(row.scopes), creationDate: row.created, expirationDate: row.expires, revocationDate: row.revoked };
}

/** A token's user row with the token's own columns, as grantOf selects it. */
export type GrantRow = UserRow & { scopes: string; expires: number | null; revoked: number | null };

export const GRANT_SELECT = 'SELECT users.*, tokens.scopes, tokens.expires, tokens.revoked FROM tokens JOIN users ON users.id = tokens.user_id';

export function tokenGrantOf(row: GrantRow): TokenGrant {
  return { user: userOf(row), scopes: scopesOf(row.scopes), expirationDate: row.expires, revocationDate: row.revoked };
}

export interface UploadRow {
  id: string;
  owner_id: string;
  purpose: string;
  content_type: string;
  size: number;
  creation_date: number;
}

export function uploadOf(row: UploadRow): Upload {
  return { id: row.id, ownerId: row.owner_id, purpose: row.purpose as UploadPurpose, contentType: row.content_type, size: row.size, creationDate: row.creation_date };
}

export interface CollectionRow {
  id: string;
  owner_id: string;
  title: string;
  sharing_key: string;
  creation_date: number;
  trashed_at: number | null;
}

export function collectionOf(row: CollectionRow): Collection {
  return { id: row.id, ownerId: row.owner_id, title: row.title, sharingKey: row.sharing_key, creationDate: row.creation_date, trashedAt: row.trashed_at };
}
