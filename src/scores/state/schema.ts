import type { Dialect } from './dialect.js';

/**
 * The score API's tables as this release creates them when missing, rendered for one database.
 * A database made before (the same tables and columns) is left as it is: every statement is
 * `IF NOT EXISTS`, and what came later is added in place (added-columns.ts).
 */
export function schemaOf(d: Dialect): string {
  return `
CREATE TABLE IF NOT EXISTS users (
  id TEXT PRIMARY KEY,
  username TEXT NOT NULL UNIQUE,
  registration_date ${d.bigint} NOT NULL,
  picture_file TEXT,
  cover_picture_file TEXT
);
CREATE TABLE IF NOT EXISTS scores (
  id TEXT PRIMARY KEY,
  owner_id TEXT NOT NULL REFERENCES users(id),
  doc ${d.doc} NOT NULL
);
CREATE INDEX IF NOT EXISTS scores_by_owner ON scores (owner_id);
CREATE TABLE IF NOT EXISTS revisions (
  seq ${d.seq},
  id TEXT NOT NULL UNIQUE,
  score_id TEXT NOT NULL REFERENCES scores(id),
  user_id TEXT NOT NULL,
  creation_date ${d.bigint} NOT NULL,
  description TEXT NOT NULL,
  autosave ${d.flag} NOT NULL,
  musicxml TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS revisions_by_score ON revisions (score_id, seq);
CREATE TABLE IF NOT EXISTS tracks (
  seq ${d.seq},
  id TEXT NOT NULL UNIQUE,
  score_id TEXT NOT NULL,
  doc ${d.doc} NOT NULL
);
CREATE INDEX IF NOT EXISTS tracks_by_score ON tracks (score_id, seq);
CREATE TABLE IF NOT EXISTS score_collaborators (
  seq ${d.seq},
  id TEXT NOT NULL UNIQUE,
  score_id TEXT NOT NULL REFERENCES scores(id),
  grantee_kind TEXT NOT NULL,
  grantee_id TEXT NOT NULL,
  doc ${d.doc} NOT NULL,
  UNIQUE (score_id, grantee_kind, grantee_id)
);
CREATE INDEX IF NOT EXISTS score_collaborators_by_grantee ON score_collaborators (grantee_id);
CREATE TABLE IF NOT EXISTS score_comments (
  seq ${d.seq},
  id TEXT NOT NULL UNIQUE,
  score_id TEXT NOT NULL REFERENCES scores(id),
  reply_to TEXT,
  doc ${d.doc} NOT NULL
);
CREATE INDEX IF NOT EXISTS score_comments_by_score ON score_comments (score_id, seq);
CREATE TABLE IF NOT EXISTS uploads (
  id TEXT PRIMARY KEY,
  owner_id TEXT NOT NULL,
  purpose TEXT NOT NULL,
  content_type TEXT NOT NULL,
  size ${d.bigint} NOT NULL,
  creation_date ${d.bigint} NOT NULL
);
CREATE TABLE IF NOT EXISTS education_profiles (
  user_id TEXT PRIMARY KEY REFERENCES users(id),
  email TEXT UNIQUE,
  doc ${d.doc} NOT NULL
);
CREATE TABLE IF NOT EXISTS classes (
  seq ${d.seq},
  id TEXT NOT NULL UNIQUE,
  enrollment_code TEXT NOT NULL UNIQUE,
  doc ${d.doc} NOT NULL
);
CREATE INDEX IF NOT EXISTS classes_by_teachers_group ON classes (${d.field('doc', 'teachersGroupId')});
CREATE INDEX IF NOT EXISTS classes_by_students_group ON classes (${d.field('doc', 'studentsGroupId')});
CREATE TABLE IF NOT EXISTS class_members (
  seq ${d.seq},
  class_id TEXT NOT NULL REFERENCES classes(id),
  user_id TEXT NOT NULL REFERENCES users(id),
  role TEXT NOT NULL,
  UNIQUE (class_id, user_id)
);
CREATE INDEX IF NOT EXISTS class_members_by_user ON class_members (user_id, seq);
CREATE TABLE IF NOT EXISTS assignments (
  seq ${d.seq},
  id TEXT NOT NULL UNIQUE,
  class_id TEXT NOT NULL REFERENCES classes(id),
  doc ${d.doc} NOT NULL
);
CREATE INDEX IF NOT EXISTS assignments_by_class ON assignments (class_id, seq);
${d.attachmentsIndex}
CREATE TABLE IF NOT EXISTS submissions (
  seq ${d.seq},
  id TEXT NOT NULL UNIQUE,
  class_id TEXT NOT NULL,
  assignment_id TEXT NOT NULL REFERENCES assignments(id),
  creator_id TEXT NOT NULL,
  doc ${d.doc} NOT NULL,
  UNIQUE (assignment_id, creator_id)
);
CREATE INDEX IF NOT EXISTS submissions_by_student ON submissions (class_id, creator_id, seq);
CREATE TABLE IF NOT EXISTS tokens (
  hash TEXT PRIMARY KEY,
  user_id TEXT NOT NULL REFERENCES users(id),
  scopes TEXT NOT NULL,
  created ${d.bigint} NOT NULL
);
CREATE TABLE IF NOT EXISTS collections (
  seq ${d.seq},
  id TEXT NOT NULL UNIQUE,
  owner_id TEXT NOT NULL REFERENCES users(id),
  title TEXT NOT NULL,
  sharing_key TEXT NOT NULL,
  creation_date ${d.bigint} NOT NULL,
  trashed_at ${d.bigint}
);
CREATE INDEX IF NOT EXISTS collections_by_owner ON collections (owner_id, seq);
CREATE TABLE IF NOT EXISTS collection_scores (
  seq ${d.seq},
  collection_id TEXT NOT NULL,
  score_id TEXT NOT NULL,
  UNIQUE (collection_id, score_id)
);
CREATE INDEX IF NOT EXISTS collection_scores_by_score ON collection_scores (score_id);
CREATE INDEX IF NOT EXISTS education_profiles_by_organization ON education_profiles (${d.field('doc', 'organization')});
CREATE TABLE IF NOT EXISTS organization_invitations (
  seq ${d.seq},
  id TEXT NOT NULL UNIQUE,
  organization TEXT NOT NULL,
  doc ${d.doc} NOT NULL
);
CREATE INDEX IF NOT EXISTS organization_invitations_by_organization ON organization_invitations (organization, seq);
CREATE TABLE IF NOT EXISTS lti_credentials (
  seq ${d.seq},
  id TEXT NOT NULL UNIQUE,
  organization TEXT NOT NULL,
  consumer_key TEXT NOT NULL UNIQUE,
  secret_hash TEXT NOT NULL,
  doc ${d.doc} NOT NULL
);
CREATE INDEX IF NOT EXISTS lti_credentials_by_organization ON lti_credentials (organization, seq);
CREATE TABLE IF NOT EXISTS submission_comments (
  seq ${d.seq},
  id TEXT NOT NULL UNIQUE,
  submission_id TEXT NOT NULL,
  doc ${d.doc} NOT NULL
);
CREATE INDEX IF NOT EXISTS submission_comments_by_submission ON submission_comments (submission_id, seq);
CREATE TABLE IF NOT EXISTS submission_history (
  seq ${d.seq},
  submission_id TEXT NOT NULL,
  doc ${d.doc} NOT NULL
);
CREATE INDEX IF NOT EXISTS submission_history_by_submission ON submission_history (submission_id, seq);
`;
}
