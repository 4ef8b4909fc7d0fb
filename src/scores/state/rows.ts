import type { User } from '../accounts/user.js';
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
