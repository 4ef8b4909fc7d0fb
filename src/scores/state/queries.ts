import type { Usage } from '../accounts/quota.js';
import type { Assignment, Submission } from '../education/assignment.js';
import type { ClassRole, Classroom } from '../education/classroom.js';
import type { EducationProfile } from '../education/education-profile.js';
import type { Collaborator } from '../library/collaborator.js';
import type { ScoreComment } from '../library/comment.js';
import type { Invitation, LtiCredentials } from '../education/organization.js';
import type { SubmissionChange, SubmissionComment } from '../education/submission-feedback.js';
import type { Score } from '../library/score.js';
import type { Track } from '../library/track.js';
import { query as q, type DocRow } from './plan.js';
import { GRANT_SELECT, REVISION_COLUMNS, TOKEN_SELECT, type CollectionRow, type GrantRow, type RevisionRow, type TokenRow, type UploadRow, type UserRow } from './rows.js';

/**
 * Every statement of the score API's stores, written once for SQLite and PostgreSQL: `?` is a
 * placeholder, `d` the dialect's pieces where the two write a thing differently (dialect.ts).
 * Grouped by the store that runs them.
 */

/**
 * An account's usage (accounts/quota.ts): the sizes of its scores' revisions and of its uploads,
 * read from indexes that hold the sizes (`revisions_sizes`, `uploads_by_owner`), so no MusicXML
 * is read to sum them. Binds the account's id three times.
 */
export const ACCOUNT_USAGE = q<[string, string, string], Usage>(`SELECT
  CAST((SELECT COALESCE(SUM(revisions.size), 0) FROM scores JOIN revisions ON revisions.score_id = scores.id WHERE scores.owner_id = ?)
    + (SELECT COALESCE(SUM(size), 0) FROM uploads WHERE owner_id = ?) AS BIGINT) AS bytes,
  (SELECT COUNT(*) FROM uploads WHERE owner_id = ?) AS uploads`);

export const ACCOUNT_QUERIES = {
  // ON CONFLICT DO NOTHING: processes creating the same name end with one user.
  insertUser: q<[string, string, number], UserRow>('INSERT INTO users (id, username, registration_date) VALUES (?, ?, ?) ON CONFLICT (username) DO NOTHING RETURNING *'),
  userById: q<[string], UserRow>('SELECT * FROM users WHERE id = ?'),
  userByName: q<[string], UserRow>('SELECT * FROM users WHERE username = ?'),
  rename: q<[string, string], UserRow>('UPDATE users SET username = ? WHERE id = ? RETURNING *'),
  setPicture: q<[string, string], UserRow>('UPDATE users SET picture_file = ? WHERE id = ? RETURNING *'),
  setCoverPicture: q<[string, string], UserRow>('UPDATE users SET cover_picture_file = ? WHERE id = ? RETURNING *'),
  insertToken: q<[string, string, string, string, number, number]>('INSERT INTO tokens (hash, id, user_id, scopes, created, expires) VALUES (?, ?, ?, ?, ?, ?)'),
  grantByHash: q<[string], GrantRow>(`${GRANT_SELECT} WHERE tokens.hash = ?`),
  tokensOfUser: q<[string], TokenRow>(`${TOKEN_SELECT} WHERE tokens.user_id = ? ORDER BY tokens.created, tokens.id`),
  tokenById: q<[string], TokenRow>(`${TOKEN_SELECT} WHERE tokens.id = ?`),
  revokeToken: q<[number, string]>('UPDATE tokens SET revoked = ? WHERE id = ? AND revoked IS NULL'),
};

export const SCORE_QUERIES = {
  usage: ACCOUNT_USAGE,
  insertScore: q<[string, string, string]>('INSERT INTO scores (id, owner_id, doc) VALUES (?, ?, ?)'),
  score: q<[string], DocRow<Score>>('SELECT doc FROM scores WHERE id = ?'),
  updateScore: q<[string, string]>('UPDATE scores SET doc = ? WHERE id = ?'),
  deleteScore: q<[string]>('DELETE FROM scores WHERE id = ?'),
  insertRevision: q<[string, string, string, number, string, boolean, string, number]>(`INSERT INTO revisions (${REVISION_COLUMNS}, musicxml, size) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`),
  revisions: q<[string], RevisionRow>(`SELECT ${REVISION_COLUMNS} FROM revisions WHERE score_id = ? ORDER BY seq`),
  revision: q<[string, string], RevisionRow>(`SELECT ${REVISION_COLUMNS} FROM revisions WHERE score_id = ? AND id = ?`),
  lastRevision: q<[string], RevisionRow>(`SELECT ${REVISION_COLUMNS} FROM revisions WHERE score_id = ? ORDER BY seq DESC LIMIT 1`),
  // Counted on its index.
  revisionCount: q<[string], { count: number }>('SELECT COUNT(*) AS count FROM revisions WHERE score_id = ?'),
  musicXml: q<[string], { musicxml: string }>('SELECT musicxml FROM revisions WHERE id = ?'),
  deleteRevisions: q<[string]>('DELETE FROM revisions WHERE score_id = ?'),
  collaborators: q<[string], DocRow<Collaborator>>('SELECT doc FROM score_collaborators WHERE score_id = ? ORDER BY seq'),
  collaboratorFor: q<[string, string, string], DocRow<Collaborator>>('SELECT doc FROM score_collaborators WHERE score_id = ? AND grantee_kind = ? AND grantee_id = ?'),
  collaboratorCount: q<[string], { count: number }>('SELECT COUNT(*) AS count FROM score_collaborators WHERE score_id = ?'),
  upsertCollaborator: q<[string, string, string, string, string]>(
    'INSERT INTO score_collaborators (id, score_id, grantee_kind, grantee_id, doc) VALUES (?, ?, ?, ?, ?) ON CONFLICT (score_id, grantee_kind, grantee_id) DO UPDATE SET doc = excluded.doc',
  ),
  deleteCollaborator: q<[string, string]>('DELETE FROM score_collaborators WHERE score_id = ? AND id = ?'),
  deleteCollaborators: q<[string]>('DELETE FROM score_collaborators WHERE score_id = ?'),
  deleteComments: q<[string]>('DELETE FROM score_comments WHERE score_id = ?'),
  fileScore: q<[string, string]>('INSERT INTO collection_scores (collection_id, score_id) VALUES (?, ?) ON CONFLICT (collection_id, score_id) DO NOTHING'),
  unfileScore: q<[string]>('DELETE FROM collection_scores WHERE score_id = ?'),
  // On scores_by_owner, the most recently modified first; bound by the caller.
  ownedScores: q<[string], DocRow<Score>>('SELECT doc FROM scores WHERE owner_id = ?'),
  // On score_collaborators_by_grantee; bound by the caller.
  scoresSharedWith: q<[string, number], DocRow<Score>>(
    (d) =>
      `SELECT scores.doc FROM score_collaborators JOIN scores ON scores.id = score_collaborators.score_id WHERE score_collaborators.grantee_id = ? AND score_collaborators.grantee_kind = 'user' AND ${d.field('scores.doc', 'trashedAt')} IS NULL ORDER BY score_collaborators.seq LIMIT ?`,
  ),
  publicScoresOf: q<[string, number], DocRow<Score>>(
    (d) => `SELECT doc FROM scores WHERE owner_id = ? AND ${d.field('doc', 'privacy')} = 'public' AND ${d.field('doc', 'trashedAt')} IS NULL ORDER BY CAST(${d.field('doc', 'modificationDate')} AS BIGINT) DESC LIMIT ?`,
  ),
};

export const TRACK_QUERIES = {
  upsert: q<[string, string, string]>('INSERT INTO tracks (id, score_id, doc) VALUES (?, ?, ?) ON CONFLICT (id) DO UPDATE SET doc = excluded.doc'),
  clearOtherDefaults: q<[string, string]>((d) => `UPDATE tracks SET doc = ${d.withFalse('doc', 'isDefault')} WHERE score_id = ? AND id != ? AND ${d.isTrue('doc', 'isDefault')}`),
  track: q<[string, string], DocRow<Track>>('SELECT doc FROM tracks WHERE score_id = ? AND id = ?'),
  tracks: q<[string], DocRow<Track>>('SELECT doc FROM tracks WHERE score_id = ? ORDER BY seq'),
  deleteTrack: q<[string, string]>('DELETE FROM tracks WHERE score_id = ? AND id = ?'),
  deleteTracks: q<[string]>('DELETE FROM tracks WHERE score_id = ?'),
};

export const COMMENT_QUERIES = {
  // Counted on score_comments_by_score.
  count: q<[string], { count: number }>('SELECT COUNT(*) AS count FROM score_comments WHERE score_id = ?'),
  insert: q<[string, string, string | null, string]>('INSERT INTO score_comments (id, score_id, reply_to, doc) VALUES (?, ?, ?, ?)'),
  comment: q<[string, string], DocRow<ScoreComment>>('SELECT doc FROM score_comments WHERE score_id = ? AND id = ?'),
  comments: q<[string], DocRow<ScoreComment>>('SELECT doc FROM score_comments WHERE score_id = ? ORDER BY seq'),
  update: q<[string, string, string]>('UPDATE score_comments SET doc = ? WHERE score_id = ? AND id = ?'),
  replyLinks: q<[string], { id: string; reply_to: string | null }>('SELECT id, reply_to FROM score_comments WHERE score_id = ?'),
  delete: q<[string, string]>('DELETE FROM score_comments WHERE score_id = ? AND id = ?'),
};

export const UPLOAD_QUERIES = {
  usage: ACCOUNT_USAGE,
  insert: q<[string, string, string, string, number, number]>('INSERT INTO uploads (id, owner_id, purpose, content_type, size, creation_date) VALUES (?, ?, ?, ?, ?, ?)'),
  upload: q<[string], UploadRow>('SELECT * FROM uploads WHERE id = ?'),
  delete: q<[string]>('DELETE FROM uploads WHERE id = ?'),
};

export const EDUCATION_QUERIES = {
  profile: q<[string], DocRow<EducationProfile>>('SELECT doc FROM education_profiles WHERE user_id = ?'),
  profileByEmail: q<[string], DocRow<EducationProfile>>('SELECT doc FROM education_profiles WHERE email = ?'),
  upsertProfile: q<[string, string | null, string]>('INSERT INTO education_profiles (user_id, email, doc) VALUES (?, ?, ?) ON CONFLICT (user_id) DO UPDATE SET email = excluded.email, doc = excluded.doc'),
  insertClass: q<[string, string, string]>('INSERT INTO classes (id, enrollment_code, doc) VALUES (?, ?, ?)'),
  updateClass: q<[string, string]>('UPDATE classes SET doc = ? WHERE id = ?'),
  classById: q<[string], DocRow<Classroom>>('SELECT doc FROM classes WHERE id = ?'),
  classByCode: q<[string], DocRow<Classroom>>('SELECT doc FROM classes WHERE enrollment_code = ?'),
  // On the classes_by_*_group indexes, which are written with the same expressions.
  classByGroup: q<[string, string], DocRow<Classroom>>((d) => `SELECT doc FROM classes WHERE ${d.field('doc', 'teachersGroupId')} = ? OR ${d.field('doc', 'studentsGroupId')} = ?`),
  classesOf: q<[string], DocRow<Classroom> & { role: ClassRole }>('SELECT classes.doc, class_members.role FROM class_members JOIN classes ON classes.id = class_members.class_id WHERE class_members.user_id = ? ORDER BY classes.seq'),
  role: q<[string, string], { role: ClassRole }>('SELECT role FROM class_members WHERE class_id = ? AND user_id = ?'),
  members: q<[string], { user_id: string; role: ClassRole }>('SELECT user_id, role FROM class_members WHERE class_id = ? ORDER BY seq'),
  addMember: q<[string, string, string]>('INSERT INTO class_members (class_id, user_id, role) VALUES (?, ?, ?) ON CONFLICT (class_id, user_id) DO NOTHING'),
  removeMember: q<[string, string]>('DELETE FROM class_members WHERE class_id = ? AND user_id = ?'),
  removeStudentWork: q<[string, string]>('DELETE FROM submissions WHERE class_id = ? AND creator_id = ?'),
  upsertAssignment: q<[string, string, string]>('INSERT INTO assignments (id, class_id, doc) VALUES (?, ?, ?) ON CONFLICT (id) DO UPDATE SET doc = excluded.doc'),
  assignment: q<[string, string], DocRow<Assignment>>('SELECT doc FROM assignments WHERE class_id = ? AND id = ?'),
  assignments: q<[string], DocRow<Assignment>>('SELECT doc FROM assignments WHERE class_id = ? ORDER BY seq'),
  assignmentsAttaching: q<[string], DocRow<Assignment>>((d) => `SELECT doc FROM assignments WHERE ${d.attachesScore('doc')} ORDER BY seq`),
  upsertSubmission: q<[string, string, string, string, string]>('INSERT INTO submissions (id, class_id, assignment_id, creator_id, doc) VALUES (?, ?, ?, ?, ?) ON CONFLICT (id) DO UPDATE SET doc = excluded.doc'),
  submission: q<[string, string], DocRow<Submission>>('SELECT doc FROM submissions WHERE assignment_id = ? AND id = ?'),
  submissionBy: q<[string, string], DocRow<Submission>>('SELECT doc FROM submissions WHERE assignment_id = ? AND creator_id = ?'),
  submissions: q<[string], DocRow<Submission>>('SELECT doc FROM submissions WHERE assignment_id = ? ORDER BY seq'),
  studentSubmissions: q<[string, string], DocRow<Submission>>('SELECT doc FROM submissions WHERE class_id = ? AND creator_id = ? ORDER BY seq'),
  deleteSubmission: q<[string]>('DELETE FROM submissions WHERE id = ?'),
  // The submissions attaching a score that a user may see: their own, and those in classes they teach.
  submissionsAttaching: q<[string, string, string, number], DocRow<Submission>>(
    (d) =>
      `SELECT doc FROM submissions WHERE ${d.attachesScore('doc')} AND (creator_id = ? OR class_id IN (SELECT class_id FROM class_members WHERE user_id = ? AND role = 'teacher')) ORDER BY seq LIMIT ?`,
  ),
  // A submission's comments and history go with it (deleteSubmission, removeStudentWork).
  deleteSubmissionComments: q<[string]>('DELETE FROM submission_comments WHERE submission_id = ?'),
  deleteSubmissionHistory: q<[string]>('DELETE FROM submission_history WHERE submission_id = ?'),
  removeStudentComments: q<[string, string]>('DELETE FROM submission_comments WHERE submission_id IN (SELECT id FROM submissions WHERE class_id = ? AND creator_id = ?)'),
  removeStudentHistory: q<[string, string]>('DELETE FROM submission_history WHERE submission_id IN (SELECT id FROM submissions WHERE class_id = ? AND creator_id = ?)'),
  // From the teacher's classes (class_members_by_user) to their submissions (submissions_by_student).
  taughtSubmissionAttaching: q<[string, string], { found: number }>(
    (d) =>
      `SELECT 1 AS found FROM class_members JOIN submissions ON submissions.class_id = class_members.class_id WHERE class_members.user_id = ? AND class_members.role = 'teacher' AND ${d.attachesScore('submissions.doc')} LIMIT 1`,
  ),
};

export const COLLECTION_QUERIES = {
  insert: q<[string, string, string, string, number]>('INSERT INTO collections (id, owner_id, title, sharing_key, creation_date, trashed_at) VALUES (?, ?, ?, ?, ?, NULL)'),
  count: q<[string], { count: number }>('SELECT COUNT(*) AS count FROM collections WHERE owner_id = ?'),
  collection: q<[string], CollectionRow>('SELECT * FROM collections WHERE id = ?'),
  collectionsOf: q<[string], CollectionRow>('SELECT * FROM collections WHERE owner_id = ? ORDER BY seq'),
  update: q<[string, number | null, string]>('UPDATE collections SET title = ?, trashed_at = ? WHERE id = ?'),
  file: SCORE_QUERIES.fileScore,
  unfile: q<[string, string]>('DELETE FROM collection_scores WHERE collection_id = ? AND score_id = ?'),
  scoresIn: q<[string], DocRow<Score>>('SELECT scores.doc FROM collection_scores JOIN scores ON scores.id = collection_scores.score_id WHERE collection_scores.collection_id = ? ORDER BY collection_scores.seq'),
  ownedScores: SCORE_QUERIES.ownedScores,
  // The owner's scores that a regular collection of theirs, not in the trash, holds.
  filedScores: q<[string], { score_id: string }>(
    'SELECT DISTINCT collection_scores.score_id FROM collection_scores JOIN collections ON collections.id = collection_scores.collection_id JOIN scores ON scores.id = collection_scores.score_id WHERE collections.owner_id = ? AND collections.trashed_at IS NULL AND scores.owner_id = collections.owner_id',
  ),
  filedIn: q<[string], { score_id: string }>('SELECT score_id FROM collection_scores WHERE collection_id = ?'),
  // Where a score is filed: its collections (with whether they are in the trash and whose they are), or root by its id (no collections row).
  homesOf: q<[string], { collection_id: string; owner_id: string | null; trashed_at: number | null }>(
    'SELECT collection_scores.collection_id, collections.owner_id, collections.trashed_at FROM collection_scores LEFT JOIN collections ON collections.id = collection_scores.collection_id WHERE collection_scores.score_id = ? ORDER BY collection_scores.seq',
  ),
  updateScore: SCORE_QUERIES.updateScore,
  unfileAllOf: q<[string]>('DELETE FROM collection_scores WHERE collection_id IN (SELECT id FROM collections WHERE owner_id = ?)'),
  deleteAllOf: q<[string]>('DELETE FROM collections WHERE owner_id = ?'),
};

/** An organization's members, invitations and LTI credentials (run by the education store). */
export const ORGANIZATION_QUERIES = {
  // On education_profiles_by_organization, written with the same expression.
  organizationProfiles: q<[string], DocRow<EducationProfile>>(
    (d) => `SELECT education_profiles.doc FROM education_profiles JOIN users ON users.id = education_profiles.user_id WHERE ${d.field('education_profiles.doc', 'organization')} = ? ORDER BY users.registration_date, users.id`,
  ),
  invitations: q<[string], DocRow<Invitation>>('SELECT doc FROM organization_invitations WHERE organization = ? ORDER BY seq'),
  invitation: q<[string, string], DocRow<Invitation>>('SELECT doc FROM organization_invitations WHERE organization = ? AND id = ?'),
  upsertInvitation: q<[string, string, string]>('INSERT INTO organization_invitations (id, organization, doc) VALUES (?, ?, ?) ON CONFLICT (id) DO UPDATE SET doc = excluded.doc'),
  deleteInvitation: q<[string]>('DELETE FROM organization_invitations WHERE id = ?'),
  ltiCredentials: q<[string], DocRow<LtiCredentials>>('SELECT doc FROM lti_credentials WHERE organization = ? ORDER BY seq'),
  // One statement: the count and the insertion cannot be told apart by a concurrent one.
  addLtiCredentials: q<[string, string, string, string, string, string, number], { id: string }>(
    (d) =>
      `INSERT INTO lti_credentials (id, organization, consumer_key, secret_hash, doc) SELECT ?, ?, ?, ?, CAST(? AS ${d.doc}) WHERE (SELECT COUNT(*) FROM lti_credentials WHERE organization = ?) < ? RETURNING id`,
  ),
  deleteLtiCredentials: q<[string, string], { id: string }>('DELETE FROM lti_credentials WHERE organization = ? AND id = ? RETURNING id'),
};

/** A submission's comments and history (run by the education store). */
export const SUBMISSION_FEEDBACK_QUERIES = {
  comments: q<[string], DocRow<SubmissionComment>>('SELECT doc FROM submission_comments WHERE submission_id = ? ORDER BY seq'),
  comment: q<[string, string], DocRow<SubmissionComment>>('SELECT doc FROM submission_comments WHERE submission_id = ? AND id = ?'),
  addComment: q<[string, string, string, string, number], { id: string }>(
    (d) => `INSERT INTO submission_comments (id, submission_id, doc) SELECT ?, ?, CAST(? AS ${d.doc}) WHERE (SELECT COUNT(*) FROM submission_comments WHERE submission_id = ?) < ? RETURNING id`,
  ),
  updateComment: q<[string, string]>('UPDATE submission_comments SET doc = ? WHERE id = ?'),
  deleteComment: q<[string]>('DELETE FROM submission_comments WHERE id = ?'),
  history: q<[string], DocRow<SubmissionChange>>('SELECT doc FROM submission_history WHERE submission_id = ? ORDER BY seq'),
  addChange: q<[string, string]>('INSERT INTO submission_history (submission_id, doc) VALUES (?, ?)'),
  // Keeps the newest changes: those past the bound go as the next one is added.
  trimHistory: q<[string, string, number]>('DELETE FROM submission_history WHERE submission_id = ? AND seq NOT IN (SELECT seq FROM submission_history WHERE submission_id = ? ORDER BY seq DESC LIMIT ?)'),
};
