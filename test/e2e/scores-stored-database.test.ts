/**
 * A score database as this release writes it (SQLite, or PostgreSQL in the test run's second
 * pass), filled outside the service, opens unchanged and every store reads and writes it: the
 * schema a new database gets is the same table by table, column by column and index by index,
 * and opening one changes nothing in it.
 */
import Database from 'better-sqlite3';
import { createHash } from 'node:crypto';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import pg from 'pg';
import t from 'tap';
import type { Assignment, Submission } from '../../src/scores/education/assignment.js';
import type { Classroom } from '../../src/scores/education/classroom.js';
import type { EducationProfile } from '../../src/scores/education/education-profile.js';
import { EmailTaken, SubmissionExists, type EducationStore } from '../../src/scores/education/education-store.js';
import type { Revision, Score } from '../../src/scores/library/score.js';
import type { ScoreStore } from '../../src/scores/library/score-store.js';
import type { Track } from '../../src/scores/library/track.js';
import type { TrackStore } from '../../src/scores/library/track-store.js';
import type { UploadIndex } from '../../src/scores/state/disk-upload-store.js';
import {
  openScoresDatabase,
  openScoresPostgres,
  PgAccountStore,
  PgEducationStore,
  PgScoreStore,
  PgTrackStore,
  PgUploadIndex,
  SqliteAccountStore,
  SqliteEducationStore,
  SqliteScoreStore,
  SqliteTrackStore,
  SqliteUploadIndex,
  tokenId,
  type AccountStore,
} from '../../src/scores/index.js';
import { scoreServiceEnv } from '../support/score-api-client.js';
import type { Teardown } from '../support/teardown.js';
import { tempDir } from '../support/temp-dir.js';

const T0 = Date.parse('2026-09-01T08:00:00.000Z');
const OLGA = 'a1'.repeat(12);
const IVAN = 'a2'.repeat(12);
const SCORE = 'b1'.repeat(12);
const CLASS = 'c1'.repeat(12);
const ASSIGNMENT = 'd1'.repeat(12);
const SUBMISSION = 'e1'.repeat(12);
const TOKEN = `flatpat_${'s'.repeat(43)}`;
const XML = '<score-partwise version="4.0"><part-list/></score-partwise>';
const UPLOAD_BYTES = 1000;

/** This release's tables written out by hand, one line each, the columns added in place last (as ALTER TABLE leaves them). */
function releasedSchema(postgres: boolean): string {
  const [int, doc, flag, seq] = postgres ? ['BIGINT', 'JSONB', 'BOOLEAN', 'BIGSERIAL PRIMARY KEY'] : ['INTEGER', 'TEXT', 'INTEGER', 'INTEGER PRIMARY KEY'];
  const field = (name: string) => (postgres ? `(doc->>'${name}')` : `json_extract(doc, '$.${name}')`);
  return `
CREATE TABLE users (id TEXT PRIMARY KEY, username TEXT NOT NULL UNIQUE, registration_date ${int} NOT NULL, picture_file TEXT, cover_picture_file TEXT);
CREATE TABLE scores (id TEXT PRIMARY KEY, owner_id TEXT NOT NULL REFERENCES users(id), doc ${doc} NOT NULL);
CREATE INDEX scores_by_owner ON scores (owner_id);
CREATE TABLE revisions (seq ${seq}, id TEXT NOT NULL UNIQUE, score_id TEXT NOT NULL REFERENCES scores(id), user_id TEXT NOT NULL, creation_date ${int} NOT NULL, description TEXT NOT NULL, autosave ${flag} NOT NULL, musicxml TEXT NOT NULL, size ${int});
CREATE INDEX revisions_by_score ON revisions (score_id, seq);
CREATE TABLE tracks (seq ${seq}, id TEXT NOT NULL UNIQUE, score_id TEXT NOT NULL, doc ${doc} NOT NULL);
CREATE INDEX tracks_by_score ON tracks (score_id, seq);
CREATE TABLE uploads (id TEXT PRIMARY KEY, owner_id TEXT NOT NULL, purpose TEXT NOT NULL, content_type TEXT NOT NULL, size ${int} NOT NULL, creation_date ${int} NOT NULL);
CREATE TABLE education_profiles (user_id TEXT PRIMARY KEY REFERENCES users(id), email TEXT UNIQUE, doc ${doc} NOT NULL);
CREATE TABLE classes (seq ${seq}, id TEXT NOT NULL UNIQUE, enrollment_code TEXT NOT NULL UNIQUE, doc ${doc} NOT NULL);
CREATE INDEX classes_by_teachers_group ON classes (${field('teachersGroupId')});
CREATE INDEX classes_by_students_group ON classes (${field('studentsGroupId')});
CREATE TABLE class_members (seq ${seq}, class_id TEXT NOT NULL REFERENCES classes(id), user_id TEXT NOT NULL REFERENCES users(id), role TEXT NOT NULL, UNIQUE (class_id, user_id));
CREATE INDEX class_members_by_user ON class_members (user_id, seq);
CREATE TABLE assignments (seq ${seq}, id TEXT NOT NULL UNIQUE, class_id TEXT NOT NULL REFERENCES classes(id), doc ${doc} NOT NULL);
CREATE INDEX assignments_by_class ON assignments (class_id, seq);
${postgres ? "CREATE INDEX assignments_by_attachment ON assignments USING GIN ((doc->'attachments') jsonb_path_ops);" : ''}
CREATE TABLE submissions (seq ${seq}, id TEXT NOT NULL UNIQUE, class_id TEXT NOT NULL, assignment_id TEXT NOT NULL REFERENCES assignments(id), creator_id TEXT NOT NULL, doc ${doc} NOT NULL, UNIQUE (assignment_id, creator_id));
CREATE INDEX submissions_by_student ON submissions (class_id, creator_id, seq);
CREATE TABLE tokens (hash TEXT PRIMARY KEY, user_id TEXT NOT NULL REFERENCES users(id), scopes TEXT NOT NULL, created ${int} NOT NULL, id TEXT, expires ${int}, revoked ${int});
CREATE UNIQUE INDEX tokens_by_id ON tokens (id);
CREATE INDEX tokens_by_user ON tokens (user_id, created);
CREATE TABLE collections (seq ${seq}, id TEXT NOT NULL UNIQUE, owner_id TEXT NOT NULL REFERENCES users(id), title TEXT NOT NULL, sharing_key TEXT NOT NULL, creation_date ${int} NOT NULL, trashed_at ${int});
CREATE INDEX collections_by_owner ON collections (owner_id, seq);
CREATE TABLE collection_scores (seq ${seq}, collection_id TEXT NOT NULL, score_id TEXT NOT NULL, UNIQUE (collection_id, score_id));
CREATE INDEX collection_scores_by_score ON collection_scores (score_id);
CREATE INDEX revisions_sizes ON revisions (score_id, size);
CREATE INDEX uploads_by_owner ON uploads (owner_id, size);
CREATE INDEX education_profiles_by_organization ON education_profiles (${field('organization')});
CREATE TABLE organization_invitations (seq ${seq}, id TEXT NOT NULL UNIQUE, organization TEXT NOT NULL, doc ${doc} NOT NULL);
CREATE INDEX organization_invitations_by_organization ON organization_invitations (organization, seq);
CREATE TABLE lti_credentials (seq ${seq}, id TEXT NOT NULL UNIQUE, organization TEXT NOT NULL, consumer_key TEXT NOT NULL UNIQUE, secret_hash TEXT NOT NULL, doc ${doc} NOT NULL);
CREATE INDEX lti_credentials_by_organization ON lti_credentials (organization, seq);
CREATE TABLE submission_comments (seq ${seq}, id TEXT NOT NULL UNIQUE, submission_id TEXT NOT NULL, doc ${doc} NOT NULL);
CREATE INDEX submission_comments_by_submission ON submission_comments (submission_id, seq);
CREATE TABLE submission_history (seq ${seq}, submission_id TEXT NOT NULL, doc ${doc} NOT NULL);
CREATE INDEX submission_history_by_submission ON submission_history (submission_id, seq);
CREATE TABLE score_collaborators (seq ${seq}, id TEXT NOT NULL UNIQUE, score_id TEXT NOT NULL REFERENCES scores(id), grantee_kind TEXT NOT NULL, grantee_id TEXT NOT NULL, doc ${doc} NOT NULL, UNIQUE (score_id, grantee_kind, grantee_id));
CREATE INDEX score_collaborators_by_grantee ON score_collaborators (grantee_id);
CREATE TABLE score_comments (seq ${seq}, id TEXT NOT NULL UNIQUE, score_id TEXT NOT NULL REFERENCES scores(id), reply_to TEXT, doc ${doc} NOT NULL);
CREATE INDEX score_comments_by_score ON score_comments (score_id, seq);
`;
}

const score = { id: SCORE, ownerId: OLGA, title: 'Stored', privacy: 'private', creationDate: T0, modificationDate: T0, trashedAt: null } as Score;
const track = (id: string, isDefault: boolean) => ({ id, scoreId: SCORE, creatorId: OLGA, title: id, isDefault, state: 'completed', type: 'audio' }) as Track;
const classroom = { id: CLASS, name: 'Choir', ownerId: OLGA, enrollmentCode: 'ENROL1', teachersGroupId: 'group-t', studentsGroupId: 'group-s' } as Classroom;
const attachments = [{ type: 'flat', score: SCORE }];
const assignment = { id: ASSIGNMENT, classId: CLASS, creatorId: OLGA, title: 'Sing it', attachments } as Assignment;
const submission = { id: SUBMISSION, classId: CLASS, assignmentId: ASSIGNMENT, creatorId: IVAN, state: 'turnedIn', attachments } as Submission;
const profile = (userId: string, email: string) => ({ userId, email, organization: null, organizationRole: 'teacher', personalSubscription: false }) as EducationProfile;

/** One of everything, written with plain SQL as this release's stores write it. */
const STORED_ROWS: Array<[string, unknown[]]> = [
  ['INSERT INTO users (id, username, registration_date) VALUES (?, ?, ?)', [OLGA, 'olga', T0]],
  ['INSERT INTO users (id, username, registration_date, picture_file) VALUES (?, ?, ?, ?)', [IVAN, 'ivan', T0, 'f1']],
  ['INSERT INTO tokens (hash, id, user_id, scopes, created, expires) VALUES (?, ?, ?, ?, ?, ?)', [createHash('sha256').update(TOKEN).digest('hex'), tokenId(TOKEN), OLGA, 'scores edu.classes', T0, T0 + 60_000]],
  ['INSERT INTO scores (id, owner_id, doc) VALUES (?, ?, ?)', [SCORE, OLGA, JSON.stringify(score)]],
  ['INSERT INTO revisions (id, score_id, user_id, creation_date, description, autosave, musicxml, size) VALUES (?, ?, ?, ?, ?, ?, ?, ?)', ['r1', SCORE, OLGA, T0, 'first', 0, XML, Buffer.byteLength(XML)]],
  ['INSERT INTO tracks (id, score_id, doc) VALUES (?, ?, ?)', ['k1', SCORE, JSON.stringify(track('k1', true))]],
  ['INSERT INTO uploads (id, owner_id, purpose, content_type, size, creation_date) VALUES (?, ?, ?, ?, ?, ?)', ['u1', OLGA, 'trackAudio', 'audio/mpeg', UPLOAD_BYTES, T0]],
  ['INSERT INTO education_profiles (user_id, email, doc) VALUES (?, ?, ?)', [OLGA, 'olga@example.org', JSON.stringify(profile(OLGA, 'olga@example.org'))]],
  ['INSERT INTO classes (id, enrollment_code, doc) VALUES (?, ?, ?)', [CLASS, 'ENROL1', JSON.stringify(classroom)]],
  ['INSERT INTO class_members (class_id, user_id, role) VALUES (?, ?, ?)', [CLASS, OLGA, 'teacher']],
  ['INSERT INTO class_members (class_id, user_id, role) VALUES (?, ?, ?)', [CLASS, IVAN, 'student']],
  ['INSERT INTO assignments (id, class_id, doc) VALUES (?, ?, ?)', [ASSIGNMENT, CLASS, JSON.stringify(assignment)]],
  ['INSERT INTO submissions (id, class_id, assignment_id, creator_id, doc) VALUES (?, ?, ?, ?, ?)', [SUBMISSION, CLASS, ASSIGNMENT, IVAN, JSON.stringify(submission)]],
];

/** A score database of the test's store, reached without the service's code. */
interface Place {
  postgres: boolean;
  /** Runs statements with `?` placeholders, in order. */
  write(statements: Array<[string, unknown[]]>): Promise<void>;
  /** Its tables, columns, indexes and constraints, as the database describes them. */
  catalogue(): Promise<unknown>;
  stores(): Promise<Stores>;
}

interface Stores {
  accounts: AccountStore;
  scores: ScoreStore;
  tracks: TrackStore;
  uploads: UploadIndex;
  education: EducationStore;
  close(): Promise<void>;
}

function sqlitePlace(t: Teardown, dir: string): Place {
  const file = join(dir, 'scores.sqlite');
  const withDb = <T>(use: (db: Database.Database) => T): T => {
    const db = new Database(file);
    try {
      return use(db);
    } finally {
      db.close();
    }
  };
  return {
    postgres: false,
    write: async (statements) => {
      await mkdir(dir, { recursive: true });
      withDb((db) => statements.forEach(([sql, values]) => (values.length === 0 ? db.exec(sql) : db.prepare(sql).run(...values))));
    },
    catalogue: async () =>
      withDb((db) => {
        const objects = db.prepare<[], { type: string; name: string }>("SELECT type, name, tbl_name, CASE type WHEN 'index' THEN sql END AS sql FROM sqlite_master ORDER BY name").all();
        const describe = (pragma: string, table: string) => db.prepare(`SELECT * FROM ${pragma}(?)`).all(table);
        const tables = objects.filter((o) => o.type === 'table').map(({ name }) => ({ name, columns: describe('pragma_table_info', name), keys: describe('pragma_foreign_key_list', name), indexes: describe('pragma_index_list', name) }));
        return { objects, tables };
      }),
    stores: async () => {
      const db = openScoresDatabase(dir, 'normal');
      t.teardown(() => db.open && db.close());
      const stores = { accounts: new SqliteAccountStore(db), scores: new SqliteScoreStore(db), tracks: new SqliteTrackStore(db), uploads: new SqliteUploadIndex(db), education: new SqliteEducationStore(db) };
      return { ...stores, close: async () => void db.close() };
    },
  };
}

function postgresPlace(t: Teardown, url: string): Place {
  const withClient = async <T>(use: (client: pg.Client) => Promise<T>): Promise<T> => {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      return await use(client);
    } finally {
      await client.end();
    }
  };
  const rowsOf = async (client: pg.Client, sql: string) => (await client.query(sql)).rows;
  return {
    postgres: true,
    write: (statements) =>
      withClient(async (client) => {
        for (const [sql, values] of statements) {
          let n = 0;
          await client.query(sql.replace(/\?/g, () => `$${++n}`), values);
        }
      }),
    catalogue: () =>
      withClient(async (client) => ({
        columns: await rowsOf(client, 'SELECT table_name, column_name, ordinal_position, data_type, is_nullable, column_default FROM information_schema.columns WHERE table_schema = current_schema() ORDER BY table_name, ordinal_position'),
        indexes: await rowsOf(client, 'SELECT tablename, indexname, indexdef FROM pg_indexes WHERE schemaname = current_schema() ORDER BY indexname'),
        constraints: await rowsOf(client, 'SELECT conrelid::regclass::text AS table_name, conname, pg_get_constraintdef(oid) AS definition FROM pg_constraint WHERE connamespace = current_schema()::regnamespace ORDER BY conname'),
      })),
    stores: async () => {
      const pool = await openScoresPostgres(url);
      t.teardown(() => (pool.ended ? undefined : pool.end()));
      const stores = { accounts: new PgAccountStore(pool), scores: new PgScoreStore(pool), tracks: new PgTrackStore(pool), uploads: new PgUploadIndex(pool), education: new PgEducationStore(pool) };
      return { ...stores, close: () => pool.end() };
    },
  };
}

/** The database the test's store uses (`name` tells two apart), empty. */
async function place(t: Teardown, env: Record<string, string>, name: string): Promise<Place> {
  const url = env['SCORES_DATABASE_URL'];
  if (url === undefined) return sqlitePlace(t, join(env['DATA_DIR'] as string, name));
  // Beside the test's own database on the file's server: named after it, so no other test has it.
  const named = new URL(url);
  const database = `${named.pathname.slice(1)}_${name}`;
  named.pathname = `/${database}`;
  await postgresPlace(t, url).write([[`CREATE DATABASE ${database}`, []]]);
  return postgresPlace(t, named.href);
}

/** What a store call threw, or the promise it returned rejected with; undefined when it succeeded. */
const thrownBy = (call: () => unknown): Promise<unknown> =>
  Promise.resolve()
    .then(call)
    .then(
      () => undefined,
      (error: unknown) => error,
    );

t.test("a database with this release's schema opens unchanged, and a new one gets the same schema", async (t) => {
  const env = await scoreServiceEnv(await tempDir(t, 'scores-stored-'));
  const stored = await place(t, env, 'stored');
  await stored.write([[releasedSchema(stored.postgres), []], ...STORED_ROWS]);
  const before = await stored.catalogue();
  await (await stored.stores()).close();
  t.same(await stored.catalogue(), before, 'opening the stored database changed nothing in its schema');

  const fresh = await place(t, env, 'fresh');
  await (await fresh.stores()).close();
  t.same(await fresh.catalogue(), before, 'a new database has the same tables, columns, types, indexes and constraints');
});

t.test("every store reads and writes a database written with this release's schema", async (t) => {
  const env = await scoreServiceEnv(await tempDir(t, 'scores-stored-'));
  const stored = await place(t, env, 'stored');
  await stored.write([[releasedSchema(stored.postgres), []], ...STORED_ROWS]);
  const { accounts, scores, tracks, uploads, education } = await stored.stores();

  const olga = { id: OLGA, username: 'olga', registrationDate: T0, pictureFile: null, coverPictureFile: null };
  t.same(await accounts.grantOf(TOKEN), { user: olga, scopes: ['scores', 'edu.classes'], expirationDate: T0 + 60_000, revocationDate: null });
  t.same(await accounts.ensureUser('olga', T0 + 1), olga, 'a stored name is the stored user');
  t.equal(await accounts.createUser('ivan', T0), undefined, 'a stored name is taken');
  t.match(await accounts.userById(IVAN), { username: 'ivan', pictureFile: 'f1' });
  t.match(await accounts.setPicture(OLGA, 'coverPicture', 'f2'), { ...olga, coverPictureFile: 'f2' });
  t.match(await accounts.revokeToken(tokenId(TOKEN), T0 + 1), { id: tokenId(TOKEN), username: 'olga', revocationDate: T0 + 1 });
  t.match(await accounts.listTokens(OLGA), [{ id: tokenId(TOKEN), revocationDate: T0 + 1 }]);

  t.same(await scores.getScore(SCORE), score);
  const first: Revision = { id: 'r1', scoreId: SCORE, userId: OLGA, creationDate: T0, description: 'first', autosave: false };
  t.same(await scores.listRevisions(SCORE), [first]);
  t.equal(await scores.revisionMusicXml('r1'), XML);
  const second: Revision = { ...first, id: 'r2', creationDate: T0 + 1, autosave: true };
  const used = Buffer.byteLength(XML) + UPLOAD_BYTES;
  const quota = (maxBytes: number) => ({ maxBytes, maxUploads: 5, maxRevisionsPerScore: 5 });
  t.same(await scores.addRevision(second, XML, score, quota(used + Buffer.byteLength(XML) - 1)), { kind: 'bytes', limit: used + Buffer.byteLength(XML) - 1, used, adding: Buffer.byteLength(XML) }, "the stored revision's and upload's sizes count");
  t.equal(await scores.addRevision(second, XML, score, quota(used + Buffer.byteLength(XML))), undefined);
  t.same(await scores.getRevision(SCORE, 'last'), second);

  t.same(await uploads.find('u1'), { id: 'u1', ownerId: OLGA, purpose: 'trackAudio', contentType: 'audio/mpeg', size: UPLOAD_BYTES, creationDate: T0 });
  const oneUpload = { maxBytes: Number.MAX_SAFE_INTEGER, maxUploads: 1, maxRevisionsPerScore: 5 };
  t.same(await uploads.add({ id: 'u2', ownerId: OLGA, purpose: 'trackAudio', contentType: 'audio/mpeg', size: 1, creationDate: T0 }, oneUpload), { kind: 'uploads', limit: 1 }, 'the stored upload counts');

  t.same(await tracks.listTracks(SCORE), [track('k1', true)]);
  await tracks.saveTrack(track('k2', true));
  t.same(await tracks.listTracks(SCORE), [track('k1', false), track('k2', true)], 'the stored default stops being one');

  t.same(await education.profileByEmail('olga@example.org'), profile(OLGA, 'olga@example.org'));
  t.type(await thrownBy(() => education.saveProfile(profile(IVAN, 'olga@example.org'))), EmailTaken, "another account's e-mail is refused");
  t.same(await education.classByGroup('group-s'), classroom);
  t.same(await education.classByEnrollmentCode('ENROL1'), classroom);
  t.same(await education.classesOf(IVAN), [{ classroom, role: 'student' }]);
  t.same(await education.members(CLASS), [
    { userId: OLGA, role: 'teacher' },
    { userId: IVAN, role: 'student' },
  ]);
  t.same(await education.assignmentsAttaching(SCORE), [assignment]);
  t.equal(await education.teachesSubmissionAttaching(SCORE, OLGA), true);
  t.equal(await education.teachesSubmissionAttaching(SCORE, IVAN), false);
  t.type(await thrownBy(() => education.saveSubmission({ ...submission, id: 'e2'.repeat(12) })), SubmissionExists, 'one submission per student and assignment');
  t.same(await education.studentSubmissions(CLASS, IVAN), [submission]);
  await education.removeMember(CLASS, IVAN);
  t.same(await education.listSubmissions(ASSIGNMENT), [], "a removed student's stored work goes with them");
});
