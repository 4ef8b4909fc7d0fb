/**
 * The education API (release 2.13.0 surface) through the running service: classes and their
 * states, members, enrollment codes and groups; roster synchronization and `issues.sync`;
 * assignments with attachments, `partnerGraph` (the spec's `microsoftGraph`), drafts, schedules,
 * copies and archiving; students' submissions, grading, return and reset; and a student's
 * recorded performance on the teacher's score. Accounts, organizations and e-mails come from the
 * admin routes (SCORES_ADMIN_TOKEN). Every 200 body of the education routes is checked against
 * the Flat API 2.13.0 schemas, `partnerGraph` objects against the MicrosoftGraph* ones.
 */
import t from 'tap';
import { flatSchemaErrors } from '../support/flat-schema.js';
import { generatedScore } from '../support/generated-score.js';
import { issueToken, scoreApiClient, scoreServiceEnv, type Fetched, type ScoreApiClient } from '../support/score-api-client.js';
import { startService } from '../support/service-harness.js';
import { tempDir } from '../support/temp-dir.js';

/** A tap subtest, as `t.test` hands it to its callback. */
type Tap = Parameters<Parameters<typeof t.test>[0]>[0];

const ADMIN = 'admin-secret-of-at-least-32-characters';
const EDU_SCOPES = 'edu.classes,edu.assignments,scores';
const NO_SUCH_ID = '000000000000000000000000';
const ENROLLMENT_CODE = /^[ABCDEFGHJKMNPQRSTUVWXYZ2-9]{8}$/;
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const FAR_FUTURE = '2099-01-01T00:00:00Z';

type SchemaName = 'ClassDetails' | 'GroupDetails' | 'UserPublic' | 'Assignment' | 'AssignmentSubmission' | 'ScoreTrack';

interface GroupJson {
  id: string;
  usersCount: number;
}
interface ClassJson {
  id: string;
  state: string;
  name: string;
  section: string;
  enrollmentCode?: string;
  assignmentsCount: number;
  studentsGroup: GroupJson;
  teachersGroup: GroupJson;
  issues: { sync: Array<{ id: string; email: string; reason: string }> };
}
interface PartnerJson {
  id: string;
  state: string;
  alternateLink: string;
  categories?: string[];
}
interface AttachmentJson {
  type: string;
  score?: string;
  revision?: string;
  track?: string;
  title?: string;
}
interface SubmissionJson {
  id: string;
  state: string;
  attachments: AttachmentJson[];
  grade: number | null;
  draftGrade: number | null;
  submissionDate?: string;
  returnDate?: string;
  track?: string;
  partnerGraph?: PartnerJson;
}
interface AssignmentJson {
  id: string;
  state: string;
  title: string;
  classroom: string;
  attachments: AttachmentJson[];
  submissions: SubmissionJson[];
  dueDate?: string;
  scheduledDate?: string;
  partnerGraph?: PartnerJson;
}
interface UserJson {
  id: string;
  username: string;
  classRole?: string;
  organization?: string;
  organizationRole?: string;
}
interface TrackJson {
  id: string;
  creator: string;
}

/** The problems of a body against a schema, and of the `partnerGraph` objects in it against MicrosoftGraph*. */
function schemaProblems(schema: SchemaName, body: unknown): string[] {
  const problems = flatSchemaErrors(schema, body).map((problem) => `${schema}: ${problem}`);
  const record = (body ?? {}) as { partnerGraph?: unknown; submissions?: unknown };
  if (schema === 'Assignment' || schema === 'AssignmentSubmission') {
    const partner = schema === 'Assignment' ? 'MicrosoftGraphAssignment' : 'MicrosoftGraphSubmission';
    if (record.partnerGraph !== undefined) problems.push(...flatSchemaErrors(partner, record.partnerGraph).map((p) => `partnerGraph ${partner}: ${p}`));
  }
  if (schema === 'Assignment' && Array.isArray(record.submissions)) {
    for (const submission of record.submissions) problems.push(...schemaProblems('AssignmentSubmission', submission));
  }
  return problems;
}

function parsed(response: Fetched): unknown {
  try {
    return response.json();
  } catch {
    return response.text;
  }
}

/** A 200 whose body (each item of an array body) is a valid `schema`; the body, typed as the caller says. */
function valid<T>(t: Tap, response: Fetched, schema: SchemaName, what: string): T {
  t.equal(response.status, 200, what, { body: response.text });
  if (response.status !== 200) throw new Error(`${what}: ${response.status} ${response.text}`);
  const body = response.json();
  const items: unknown[] = Array.isArray(body) ? body : [body];
  t.same(
    items.flatMap((item, i) => schemaProblems(schema, item).map((problem) => `[${i}] ${problem}`)),
    [],
    `${what}: ${Array.isArray(body) ? `each a ${schema}` : `a ${schema}`}`,
  );
  return body as T;
}

/** An error answer: its status, and the API's `{code, message, param}` naming `param` when given. */
function refused(t: Tap, response: Fetched, status: number, code: string, param: string | undefined, what: string): void {
  t.equal(response.status, status, what, { body: response.text });
  t.match(parsed(response), param === undefined ? { code, message: String } : { code, message: String, param }, `${what}: ${code}${param === undefined ? '' : ` naming ${param}`}`);
}

interface Account {
  id: string;
  username: string;
  api: ScoreApiClient;
}

interface Profile {
  email?: string;
  organization?: string | null;
  organizationRole?: 'admin' | 'billing' | 'teacher' | 'user';
  personalSubscription?: boolean;
}

/** A service of its own (on SQLite, or on a PostgreSQL of its own in the PostgreSQL pass) with the admin routes. */
async function educationService(t: Tap, prefix: string) {
  const dataDir = await tempDir(t, prefix);
  const env = await scoreServiceEnv(dataDir);
  const service = await startService(t, { env: { ...env, SCORES_ADMIN_TOKEN: ADMIN } });
  const admin = scoreApiClient(service.baseUrl, ADMIN);
  const client = (token: string) => scoreApiClient(service.baseUrl, token);
  /** A token (and so the account) for `username`, after the administrator set its profile. */
  const account = async (username: string, profile?: Profile): Promise<Account> => {
    if (profile !== undefined) {
      const set = await admin.call('PUT', `/v2/admin/users/${username}`, profile);
      if (set.status !== 200) throw new Error(`PUT /v2/admin/users/${username}: ${set.status} ${set.text}`);
    }
    const issued = await admin.call('POST', '/v2/admin/tokens', { username, scopes: EDU_SCOPES.split(',') });
    if (issued.status !== 200) throw new Error(`POST /v2/admin/tokens for ${username}: ${issued.status} ${issued.text}`);
    const { token, user } = issued.json() as { token: string; user: { id: string } };
    return { id: user.id, username, api: client(token) };
  };
  /** A score of `owner`; its id and title. */
  const score = async (owner: Account, title: string, privacy: 'private' | 'public'): Promise<{ id: string; title: string }> => {
    const created = await owner.api.call('POST', '/v2/scores', { privacy, data: generatedScore({ title, measures: 2, parts: 1 }) });
    if (created.status !== 200) throw new Error(`POST /v2/scores: ${created.status} ${created.text}`);
    return created.json() as { id: string; title: string };
  };
  return { service, env, admin, client, account, score };
}

const text = (body: string) => new TextEncoder().encode(body);
const JSON_TYPE = { 'content-type': 'application/json' };

const ids = (items: ReadonlyArray<{ id: string }>) => items.map((item) => item.id);

t.test('classes: created, read, updated, listed by state; members, enrollment codes and groups', async (t) => {
  const { service, env, admin, client, account } = await educationService(t, 'scores-education-classes-');
  const tina = await account('tina', { organization: 'school-a', organizationRole: 'teacher', email: 'tina@school-a.example' });
  const ada = await account('ada', { organization: 'school-a', organizationRole: 'admin' });
  const sam = await account('sam', { organization: 'school-a', organizationRole: 'user' });
  const sue = await account('sue', { organization: 'school-a', organizationRole: 'user' });
  const olga = await account('olga', { organization: 'school-b', organizationRole: 'user' });
  const paul = await account('paul', { personalSubscription: true });
  // An account the administrator never gave a profile, its token issued as `npm run scores:token` does.
  const nora = client(await issueToken(env, 'nora', EDU_SCOPES));

  refused(t, await scoreApiClient(service.baseUrl, undefined).call('GET', '/v2/classes'), 401, 'UNAUTHORIZED', undefined, 'no token');
  const tokenWith = async (scopes: string[]) => client(((await admin.call('POST', '/v2/admin/tokens', { username: 'tina', scopes })).json() as { token: string }).token);
  refused(t, await (await tokenWith(['scores'])).call('GET', '/v2/classes'), 403, 'FORBIDDEN', undefined, 'a token without an edu scope');
  const readOnly = await tokenWith(['edu.classes.readonly']);
  t.same(valid(t, await readOnly.call('GET', '/v2/classes'), 'ClassDetails', 'edu.classes.readonly lists classes'), []);
  refused(t, await readOnly.call('POST', '/v2/classes', { name: 'Nope' }), 403, 'FORBIDDEN', undefined, 'but does not create one');

  const created = valid<ClassJson>(t, await tina.api.call('POST', '/v2/classes', { name: 'Music 101', section: 'Morning' }), 'ClassDetails', 'a class is created');
  t.match(created, {
    id: /^[0-9a-f]{24}$/,
    state: 'active',
    name: 'Music 101',
    section: 'Morning',
    organization: 'school-a',
    owner: tina.id,
    creationDate: ISO,
    enrollmentCode: ENROLLMENT_CODE,
    theme: String,
    assignmentsCount: 0,
    studentsGroup: { id: String, type: 'classStudents', usersCount: 0, readOnly: true, organization: 'school-a', creationDate: ISO },
    teachersGroup: { id: String, type: 'classTeachers', usersCount: 1, readOnly: true, organization: 'school-a' },
    issues: { sync: [] },
  });
  t.not(created.studentsGroup.id, created.teachersGroup.id, 'a group for the students, another for the teachers');
  const code = created.enrollmentCode ?? '';
  const classPath = `/v2/classes/${created.id}`;
  t.same(valid(t, await tina.api.call('GET', classPath), 'ClassDetails', 'GET the class'), created, 'read back as created');

  for (const [what, body, param] of [
    ['no name', { section: 'A' }, 'name'],
    ['a blank name', { name: '   ' }, 'name'],
    ['a name of 256 characters', { name: 'n'.repeat(256) }, 'name'],
    ['a name that is no string', { name: 101 }, 'name'],
    ['a section of 256 characters', { name: 'Fine', section: 's'.repeat(256) }, 'section'],
    ['a JSON array', [{ name: 'Fine' }], 'body'],
  ] as const) {
    refused(t, await tina.api.call('POST', '/v2/classes', body), 400, 'BAD_REQUEST', param, `creation with ${what}`);
  }
  refused(t, await tina.api.call('POST', '/v2/classes', text('{"name": "Music'), JSON_TYPE), 400, 'BAD_REQUEST', 'body', 'creation with a body that is not JSON');
  const long = valid<ClassJson>(t, await tina.api.call('POST', '/v2/classes', { name: 'n'.repeat(255) }), 'ClassDetails', 'a name of 255 characters');
  t.equal(long.section, '', 'no section: empty');
  t.not(long.enrollmentCode, code, 'each class has its own enrollment code');

  const renamed = valid<ClassJson>(t, await tina.api.call('PUT', classPath, { name: 'Music 102' }), 'ClassDetails', 'renamed');
  t.match(renamed, { id: created.id, name: 'Music 102', section: 'Morning', enrollmentCode: code });
  t.match(valid(t, await tina.api.call('PUT', classPath, { section: 'Evening' }), 'ClassDetails', 'a new section'), { name: 'Music 102', section: 'Evening' }, 'the section alone changes');
  t.match(valid(t, await tina.api.call('GET', classPath), 'ClassDetails', 'GET after the updates'), { name: 'Music 102', section: 'Evening' }, 'the updates are stored');
  refused(t, await tina.api.call('PUT', classPath, { name: '' }), 400, 'BAD_REQUEST', 'name', 'an update to an empty name');
  refused(t, await tina.api.call('PUT', classPath, { name: 'n'.repeat(256) }), 400, 'BAD_REQUEST', 'name', 'an update to a name of 256 characters');
  refused(t, await tina.api.call('PUT', classPath, text('name=x'), JSON_TYPE), 400, 'BAD_REQUEST', 'body', 'an update that is not JSON');
  refused(t, await tina.api.call('PUT', `/v2/classes/${NO_SUCH_ID}`, { name: 'x' }), 404, 'NOT_FOUND', 'class', 'updating an unknown class');
  refused(t, await tina.api.call('GET', `/v2/classes/${NO_SUCH_ID}`), 404, 'NOT_FOUND', 'class', 'an unknown class');
  refused(t, await sam.api.call('GET', classPath), 403, 'FORBIDDEN', undefined, 'someone not in the class');

  const users = (id: string) => `${classPath}/users/${id}`;
  t.equal((await tina.api.call('PUT', users(sam.id))).status, 204, 'a teacher adds a user of the organization');
  t.equal((await tina.api.call('PUT', users(sam.id))).status, 204, 'adding them again changes nothing');
  refused(t, await tina.api.call('PUT', users(NO_SUCH_ID)), 404, 'NOT_FOUND', 'user', 'adding an unknown user');
  refused(t, await tina.api.call('PUT', users(olga.id)), 403, 'FORBIDDEN', undefined, 'adding a user of another organization');
  refused(t, await tina.api.call('PUT', users(paul.id)), 403, 'FORBIDDEN', undefined, 'adding a user with a personal subscription');
  refused(t, await sam.api.call('PUT', users(sue.id)), 403, 'FORBIDDEN', undefined, 'a student adds no one');
  refused(t, await tina.api.call('PUT', `/v2/classes/${NO_SUCH_ID}/users/${sue.id}`), 404, 'NOT_FOUND', 'class', 'adding to an unknown class');
  const seenBySam = valid<ClassJson>(t, await sam.api.call('GET', classPath), 'ClassDetails', 'a student reads the class');
  t.notOk('enrollmentCode' in seenBySam, 'a student does not see the enrollment code');
  t.same(seenBySam.issues, { sync: [] }, 'nor any issue');
  t.match(seenBySam, { studentsGroup: { usersCount: 1 }, teachersGroup: { usersCount: 1 } }, 'one student, one teacher');

  const joined = valid<ClassJson>(t, await sue.api.call('POST', `/v2/classes/enroll/${code.toLowerCase()}`), 'ClassDetails', 'a student enrolls with the code in lower case');
  t.match(joined, { id: created.id, studentsGroup: { usersCount: 2 }, teachersGroup: { usersCount: 1 } }, 'as a student');
  t.notOk('enrollmentCode' in joined, "and sees the class as a student does");
  const joinedAsTeacher = valid<ClassJson>(t, await ada.api.call('POST', `/v2/classes/enroll/${code}`), 'ClassDetails', 'an organization admin enrolls');
  t.match(joinedAsTeacher, { id: created.id, enrollmentCode: code, studentsGroup: { usersCount: 2 }, teachersGroup: { usersCount: 2 } }, 'as a teacher');
  t.match(valid(t, await sue.api.call('POST', `/v2/classes/enroll/${code}`), 'ClassDetails', 'enrolling again'), { studentsGroup: { usersCount: 2 } }, 'still two students');
  refused(t, await sue.api.call('POST', '/v2/classes/enroll/ZZZZZZZZ'), 404, 'NOT_FOUND', 'enrollmentCode', 'an unknown enrollment code');
  refused(t, await olga.api.call('POST', `/v2/classes/enroll/${code}`), 403, 'FORBIDDEN', undefined, 'a user of another organization cannot enroll');
  refused(t, await paul.api.call('POST', `/v2/classes/enroll/${code}`), 403, 'FORBIDDEN', undefined, 'nor one with a personal subscription');
  refused(t, await nora.call('POST', `/v2/classes/enroll/${code}`), 403, 'FORBIDDEN', undefined, 'nor one of no organization');

  const studentsGroup = `/v2/groups/${created.studentsGroup.id}`;
  const teachersGroup = `/v2/groups/${created.teachersGroup.id}`;
  t.match(valid(t, await tina.api.call('GET', studentsGroup), 'GroupDetails', "the students' group"), {
    id: created.studentsGroup.id,
    type: 'classStudents',
    usersCount: 2,
    readOnly: true,
    organization: 'school-a',
  });
  t.match(valid(t, await sam.api.call('GET', teachersGroup), 'GroupDetails', "a student reads the teachers' group"), { id: created.teachersGroup.id, type: 'classTeachers', usersCount: 2 });
  const members = async (path: string, what: string) =>
    valid<UserJson[]>(t, await tina.api.call('GET', `${path}/users`), 'UserPublic', what).map((u) => [u.id, u.username, u.classRole, u.organization, u.organizationRole]);
  t.same(await members(studentsGroup, "the students' group's users"), [[sam.id, 'sam', 'student', 'school-a', 'user'], [sue.id, 'sue', 'student', 'school-a', 'user']], 'the students, oldest first');
  t.same(await members(teachersGroup, "the teachers' group's users"), [[tina.id, 'tina', 'teacher', 'school-a', 'teacher'], [ada.id, 'ada', 'teacher', 'school-a', 'admin']], 'the teachers, owner first');
  refused(t, await tina.api.call('GET', `/v2/groups/${NO_SUCH_ID}`), 404, 'NOT_FOUND', 'group', 'an unknown group');
  refused(t, await tina.api.call('GET', `/v2/groups/${NO_SUCH_ID}/users`), 404, 'NOT_FOUND', 'group', "an unknown group's users");
  refused(t, await olga.api.call('GET', studentsGroup), 403, 'FORBIDDEN', undefined, "the group of a class one is not in");
  refused(t, await olga.api.call('GET', `${teachersGroup}/users`), 403, 'FORBIDDEN', undefined, "the users of a class one is not in");

  refused(t, await sam.api.call('DELETE', users(sue.id)), 403, 'FORBIDDEN', undefined, 'a student removes no one else');
  refused(t, await tina.api.call('DELETE', users(tina.id)), 400, 'BAD_REQUEST', 'user', 'the owner cannot leave');
  refused(t, await ada.api.call('DELETE', users(tina.id)), 400, 'BAD_REQUEST', 'user', 'nor be removed by another teacher');
  refused(t, await tina.api.call('DELETE', users(olga.id)), 404, 'NOT_FOUND', 'user', 'removing someone not in the class');
  refused(t, await olga.api.call('DELETE', users(olga.id)), 403, 'FORBIDDEN', undefined, 'leaving a class one is not in');
  t.equal((await sue.api.call('DELETE', users(sue.id))).status, 204, 'a student leaves');
  refused(t, await sue.api.call('GET', classPath), 403, 'FORBIDDEN', undefined, 'and is out of the class');
  t.equal((await tina.api.call('DELETE', users(ada.id))).status, 204, 'a teacher removes another teacher');
  t.match(valid(t, await tina.api.call('GET', classPath), 'ClassDetails', 'the class after the removals'), { studentsGroup: { usersCount: 1 }, teachersGroup: { usersCount: 1 } }, 'the counts follow');

  const listed = async (who: ScoreApiClient, query: string, what: string) => ids(valid<ClassJson[]>(t, await who.call('GET', `/v2/classes${query}`), 'ClassDetails', what));
  const longPath = `/v2/classes/${long.id}`;
  t.same(await listed(tina.api, '', 'the active classes'), [created.id, long.id], 'active classes, oldest first');
  t.match(valid(t, await tina.api.call('POST', `${longPath}/archive`), 'ClassDetails', 'archived'), { id: long.id, state: 'archived' });
  t.same(await listed(tina.api, '', 'the active classes'), [created.id], 'an archived class is not active');
  t.same(await listed(tina.api, '?state=active', 'state=active'), [created.id]);
  t.same(await listed(tina.api, '?state=archived', 'state=archived'), [long.id], 'it is listed as archived');
  t.same(await listed(tina.api, '?state=inactive', 'state=inactive'), []);
  refused(t, await tina.api.call('GET', '/v2/classes?state=deleted'), 400, 'BAD_REQUEST', 'state', 'an unknown state');
  refused(t, await sue.api.call('POST', `/v2/classes/enroll/${long.enrollmentCode ?? ''}`), 403, 'FORBIDDEN', undefined, 'an archived class cannot be joined');
  refused(t, await sam.api.call('POST', `${classPath}/archive`), 403, 'FORBIDDEN', undefined, 'a student does not archive');
  refused(t, await sam.api.call('POST', `${classPath}/activate`), 403, 'FORBIDDEN', undefined, 'nor activate');
  refused(t, await tina.api.call('POST', `/v2/classes/${NO_SUCH_ID}/archive`), 404, 'NOT_FOUND', 'class', 'archiving an unknown class');
  t.match(valid(t, await tina.api.call('DELETE', `${longPath}/archive`), 'ClassDetails', 'unarchived'), { state: 'active' });
  t.same(await listed(tina.api, '', 'the active classes'), [created.id, long.id], 'active again');
  t.match(valid(t, await tina.api.call('POST', `${longPath}/archive`), 'ClassDetails', 'archived again'), { state: 'archived' });
  t.match(valid(t, await tina.api.call('POST', `${longPath}/activate`), 'ClassDetails', 'activated'), { state: 'active' });
  t.same(await listed(tina.api, '?state=archived', 'state=archived'), [], 'no archived class left');
  t.match(valid(t, await sue.api.call('POST', `/v2/classes/enroll/${long.enrollmentCode ?? ''}`), 'ClassDetails', 'enrolling in the active class'), { id: long.id });
  t.same(await listed(sam.api, '', "sam's classes"), [created.id], 'a student lists the classes they are in');
  t.same(await listed(sue.api, '', "sue's classes"), [long.id]);
});

t.test('roster synchronization: accounts created and added by e-mail, issues.sync for the others', async (t) => {
  const { admin, account } = await educationService(t, 'scores-education-roster-');
  const tina = await account('tina', { organization: 'school-a', organizationRole: 'teacher', email: 'tina@school-a.example' });
  const sam = await account('sam', { organization: 'school-a', organizationRole: 'user', email: 'sam@school-a.example' });
  const olga = await account('olga', { organization: 'school-b', organizationRole: 'teacher', email: 'olga@school-b.example' });
  const paul = await account('paul', { personalSubscription: true, email: 'paul@home.example' });
  await account('fred', { email: 'fred@home.example' });

  const classroom = valid<ClassJson>(t, await tina.api.call('POST', '/v2/classes', { name: 'Choir' }), 'ClassDetails', 'a class');
  const classPath = `/v2/classes/${classroom.id}`;
  const roster = `${classPath}/roster`;
  const synced = valid<ClassJson>(
    t,
    await tina.api.call('POST', roster, {
      users: [
        { email: 'sam@school-a.example', role: 'student' },
        { email: 'OLGA@school-b.example' },
        { email: 'New.Kid@School-A.example' },
        { email: 'paul@home.example', role: 'student' },
        { email: 'tom@school-a.example', role: 'teacher' },
        { email: 'fred@home.example' },
        { email: 'sam@elsewhere.example' },
      ],
    }),
    'ClassDetails',
    'a roster synchronization',
  );
  t.same(
    synced.issues.sync,
    [
      { id: olga.id, email: 'olga@school-b.example', reason: 'otherOrgnanization' },
      { id: paul.id, email: 'paul@home.example', reason: 'personalSubscription' },
    ],
    'issues.sync: the accounts it could not add, with id, e-mail and reason',
  );
  t.match(synced, { id: classroom.id, enrollmentCode: classroom.enrollmentCode, studentsGroup: { usersCount: 4 }, teachersGroup: { usersCount: 2 } }, 'four students and a teacher added');
  const members = async (group: GroupJson, what: string) =>
    valid<UserJson[]>(t, await tina.api.call('GET', `/v2/groups/${group.id}/users`), 'UserPublic', what).map((u) => [u.username, u.organization, u.organizationRole]);
  t.same(
    await members(synced.studentsGroup, 'the students'),
    [['sam', 'school-a', 'user'], ['new.kid', 'school-a', 'user'], ['fred', 'school-a', 'user'], ['sam-2', 'school-a', 'user']],
    "existing accounts, new ones named after their e-mail (a taken name gets a number), an account of no organization brought into the class's",
  );
  t.same(await members(synced.teachersGroup, 'the teachers'), [['tina', 'school-a', 'teacher'], ['tom', 'school-a', 'teacher']], 'a new teacher account');

  const kid = await account('new.kid');
  const seenByKid = valid<ClassJson>(t, await kid.api.call('GET', classPath), 'ClassDetails', 'a created account reads its class');
  t.notOk('enrollmentCode' in seenByKid, 'a student sees no enrollment code');
  t.same(seenByKid.issues, { sync: [] }, 'nor the synchronization issues');
  t.same(valid<ClassJson>(t, await sam.api.call('GET', classPath), 'ClassDetails', 'a student reads the class').issues.sync, [], 'no student sees them');
  refused(t, await sam.api.call('POST', roster, { users: [] }), 403, 'FORBIDDEN', undefined, 'a student does not synchronize');
  refused(t, await olga.api.call('GET', classPath), 403, 'FORBIDDEN', undefined, 'an account listed in the issues is not in the class');

  const second = valid<ClassJson>(t, await tina.api.call('POST', roster, { users: [{ email: 'olga@school-b.example', role: 'teacher' }] }), 'ClassDetails', 'a second synchronization');
  t.same(second.issues.sync, [{ id: olga.id, email: 'olga@school-b.example', reason: 'otherOrgnanization' }], 'replaces the issues');
  t.match(second, { studentsGroup: { usersCount: 4 }, teachersGroup: { usersCount: 2 } }, 'and removes no one');

  for (const [what, body] of [
    ['no users', {}],
    ['users that are no list', { users: 'sam@school-a.example' }],
    ['an e-mail without a domain', { users: [{ email: 'not-an-email' }] }],
    ['an e-mail with a space', { users: [{ email: 'a b@school-a.example' }] }],
    ['an entry without e-mail', { users: [{ role: 'student' }] }],
    ['an unknown role', { users: [{ email: 'x@school-a.example', role: 'admin' }] }],
    ['an entry that is no object', { users: ['x@school-a.example'] }],
  ] as const) {
    refused(t, await tina.api.call('POST', roster, body), 400, 'BAD_REQUEST', 'users', `a roster with ${what}`);
  }
  refused(t, await tina.api.call('POST', roster, text('users'), JSON_TYPE), 400, 'BAD_REQUEST', 'body', 'a roster that is not JSON');
  refused(t, await tina.api.call('POST', `/v2/classes/${NO_SUCH_ID}/roster`, { users: [] }), 404, 'NOT_FOUND', 'class', 'the roster of an unknown class');
  t.match(
    valid(t, await tina.api.call('GET', classPath), 'ClassDetails', 'the class after refused rosters'),
    { issues: { sync: [{ id: olga.id }] }, studentsGroup: { usersCount: 4 } },
    'a refused roster changes nothing',
  );
  const emptied = valid<ClassJson>(t, await tina.api.call('POST', roster, { users: [] }), 'ClassDetails', 'an empty roster');
  t.same(emptied.issues.sync, [], 'clears the issues');
  t.same(valid<ClassJson>(t, await tina.api.call('GET', classPath), 'ClassDetails', 'the class read back').issues.sync, [], 'for good');

  refused(t, await admin.call('PUT', '/v2/admin/users/fred', { email: 'sam@school-a.example' }), 409, 'CONFLICT', 'email', 'an e-mail another account has');
  refused(t, await admin.call('PUT', '/v2/admin/users/fred', { email: 'fred-at-home' }), 400, 'BAD_REQUEST', 'email', 'an e-mail address that is none');
  refused(t, await admin.call('PUT', '/v2/admin/users/fred', { organizationRole: 'principal' }), 400, 'BAD_REQUEST', 'organizationRole', 'an unknown organization role');
  refused(t, await tina.api.call('PUT', '/v2/admin/users/fred', { organization: 'school-a' }), 401, 'UNAUTHORIZED', undefined, "a user's token is not the administrator's");

  // A teacher of no organization: a class of personal accounts.
  const pat = await account('pat', { email: 'pat@home.example' });
  const personal = valid<ClassJson>(t, await pat.api.call('POST', '/v2/classes', { name: 'Private lessons' }), 'ClassDetails', 'a class of a teacher without organization');
  t.notOk('organization' in personal, 'has no organization');
  t.match(valid(t, await paul.api.call('POST', `/v2/classes/enroll/${personal.enrollmentCode ?? ''}`), 'ClassDetails', 'a personal subscriber enrolls'), { id: personal.id, studentsGroup: { usersCount: 1 } });
  refused(t, await sam.api.call('POST', `/v2/classes/enroll/${personal.enrollmentCode ?? ''}`), 403, 'FORBIDDEN', undefined, 'an account of an organization does not join it');
  const personalSync = valid<ClassJson>(
    t,
    await pat.api.call('POST', `/v2/classes/${personal.id}/roster`, { users: [{ email: 'sam@school-a.example' }, { email: 'newbie@home.example' }] }),
    'ClassDetails',
    'the roster of a class of personal accounts',
  );
  t.same(personalSync.issues.sync, [{ id: sam.id, email: 'sam@school-a.example', reason: 'otherOrgnanization' }], 'an organization account is an issue there');
  t.match(personalSync, { studentsGroup: { usersCount: 2 } }, 'a new personal account joins');
});

t.test('assignments: attachments, partnerGraph, drafts and schedules, updates, archiving and copies', async (t) => {
  const { service, account, score } = await educationService(t, 'scores-education-assignments-');
  const tina = await account('tina', { organization: 'school-a', organizationRole: 'teacher' });
  const theo = await account('theo', { organization: 'school-a', organizationRole: 'teacher' });
  const sam = await account('sam', { organization: 'school-a', organizationRole: 'user' });
  const sue = await account('sue', { organization: 'school-a', organizationRole: 'user' });
  const olga = await account('olga', { organization: 'school-b', organizationRole: 'teacher' });
  const newClass = async (teacher: Account, name: string) => valid<ClassJson>(t, await teacher.api.call('POST', '/v2/classes', { name }), 'ClassDetails', `class ${name}`);
  const classA = await newClass(tina, 'Piano');
  const classB = await newClass(tina, 'Piano, next year');
  const classC = await newClass(theo, 'Organ');
  for (const member of [sam, sue, theo]) t.equal((await tina.api.call('PUT', `/v2/classes/${classA.id}/users/${member.id}`)).status, 204, `${member.username} is in the class`);
  const etude = await score(tina, 'Etude', 'private');
  const other = await score(tina, 'Other', 'private');
  const secret = await score(olga, 'Secret', 'private');
  const open = await score(olga, 'Open', 'public');
  const otherTrack = (await tina.api.call('POST', `/v2/scores/${other.id}/tracks`, { url: 'https://youtu.be/other' })).json() as TrackJson;
  const etudeRevision = ((await tina.api.call('GET', `/v2/scores/${etude.id}/revisions/last`)).json() as { id: string }).id;

  const assignments = `/v2/classes/${classA.id}/assignments`;
  const create = async (body: unknown, what: string) => valid<AssignmentJson>(t, await tina.api.call('POST', assignments, body), 'Assignment', what);
  const main = await create(
    {
      type: 'scoreTemplate',
      title: 'Play the etude',
      description: 'Slowly first',
      maxPoints: 20,
      dueDate: FAR_FUTURE,
      nbPlaybackAuthorized: 3,
      toolset: 'basic',
      attachments: [
        { type: 'flat', score: etude.id, sharingMode: 'copy', lockScoreTemplate: true },
        { type: 'link', url: 'https://example.com/fingering' },
      ],
      partnerGraph: { categories: ['Homework', 'Piano'] },
    },
    'an assignment with a score and a link',
  );
  const mainPath = `${assignments}/${main.id}`;
  t.match(main, {
    id: /^[0-9a-f]{24}$/,
    state: 'active',
    type: 'scoreTemplate',
    title: 'Play the etude',
    description: 'Slowly first',
    classroom: classA.id,
    creator: tina.id,
    creationDate: ISO,
    dueDate: '2099-01-01T00:00:00.000Z',
    maxPoints: 20,
    nbPlaybackAuthorized: 3,
    toolset: 'basic',
    assigneeMode: 'everyone',
    submissions: [],
  });
  t.notOk('scheduledDate' in main, 'not scheduled');
  t.same(
    main.attachments,
    [
      { type: 'flat', score: etude.id, revision: etudeRevision, title: etude.title, sharingMode: 'copy', lockScoreTemplate: true },
      { type: 'link', url: 'https://example.com/fingering', title: 'https://example.com/fingering' },
    ],
    'the score pinned to its newest revision, with its title; the link as sent',
  );
  t.match(main.partnerGraph, { id: UUID, state: 'assigned', alternateLink: `${service.baseUrl}${mainPath}`, categories: ['Homework', 'Piano'] }, 'partnerGraph: assigned, linking to the assignment');
  const revised = await tina.api.call('POST', `/v2/scores/${etude.id}/revisions`, { data: generatedScore({ title: 'Etude', measures: 3, parts: 1 }) });
  t.equal(revised.status, 200, 'a new revision of the score');
  t.not((revised.json() as { id: string }).id, etudeRevision);
  t.equal(valid<AssignmentJson>(t, await tina.api.call('GET', mainPath), 'Assignment', 'the assignment read back').attachments[0]?.revision, etudeRevision, 'the attachment stays on the revision it had');

  const draft = await create({ title: 'Next week', state: 'draft', attachments: [{ type: 'flat', score: open.id }], partnerGraph: {} }, 'a draft');
  t.match(draft, { state: 'draft', type: 'none', description: '', partnerGraph: { id: UUID, state: 'draft', categories: [] } });
  t.same(draft.attachments, [{ type: 'flat', score: open.id, revision: String(draft.attachments[0]?.revision), title: open.title, sharingMode: 'read' }], "someone else's public score, shared to read by default");
  const scheduled = await create({ title: 'Later', scheduledDate: '2099-06-01T08:00:00Z', partnerGraph: { categories: ['Exam'] } }, 'a scheduled assignment');
  t.match(scheduled, { state: 'active', scheduledDate: '2099-06-01T08:00:00.000Z', partnerGraph: { state: 'scheduled', categories: ['Exam'] } });
  const solo = await create({ title: 'Solo', assigneeMode: 'selected', assignedStudents: [sam.id] }, 'an assignment for one student');
  t.match(solo, { assigneeMode: 'selected', assignedStudents: [sam.id] });
  t.notOk('partnerGraph' in solo, 'no partnerGraph unless asked for');

  for (const [what, body, param] of [
    ['a link without url', { attachments: [{ type: 'link' }] }, 'attachments'],
    ['a link that is not http(s)', { attachments: [{ type: 'link', url: 'ftp://example.com/a.pdf' }] }, 'attachments'],
    ['a flat attachment without score', { attachments: [{ type: 'flat' }] }, 'attachments'],
    ['an attachment of an unknown type', { attachments: [{ type: 'video', url: 'https://example.com/v' }] }, 'attachments'],
    ['an unknown score', { attachments: [{ type: 'flat', score: NO_SUCH_ID }] }, 'attachments'],
    ["someone else's private score", { attachments: [{ type: 'flat', score: secret.id }] }, 'attachments'],
    ['a track that is not on that score', { attachments: [{ type: 'flat', score: etude.id, track: otherTrack.id }] }, 'attachments'],
    ['a track without a score', { attachments: [{ type: 'link', url: 'https://example.com/l', track: otherTrack.id }] }, 'attachments'],
    ['an unknown sharing mode', { attachments: [{ type: 'flat', score: etude.id, sharingMode: 'edit' }] }, 'attachments'],
    ['attachments that are no list', { attachments: { type: 'link', url: 'https://example.com' } }, 'attachments'],
    ['an unknown type', { type: 'essay' }, 'type'],
    ['the state archived', { state: 'archived' }, 'state'],
    ['maxPoints over 100', { maxPoints: 101 }, 'maxPoints'],
    ['negative maxPoints', { maxPoints: -1 }, 'maxPoints'],
    ['a dueDate that is no date-time', { dueDate: 'tomorrow' }, 'dueDate'],
    ['a scheduledDate without offset', { scheduledDate: '2099-01-01T00:00:00' }, 'scheduledDate'],
    ['partnerGraph as a string', { partnerGraph: 'teams' }, 'partnerGraph'],
    ['partnerGraph categories that are no strings', { partnerGraph: { categories: [1] } }, 'partnerGraph'],
    ['a title of 256 characters', { title: 't'.repeat(256) }, 'title'],
    ['an unknown assigneeMode', { assigneeMode: 'some' }, 'assigneeMode'],
  ] as const) {
    refused(t, await tina.api.call('POST', assignments, body), 400, 'BAD_REQUEST', param, `creation with ${what}`);
  }
  refused(t, await tina.api.call('POST', assignments, text('{"title": '), JSON_TYPE), 400, 'BAD_REQUEST', 'body', 'creation with a body that is not JSON');
  refused(t, await sam.api.call('POST', assignments, { title: 'Mine' }), 403, 'FORBIDDEN', undefined, 'a student creates no assignment');
  refused(t, await olga.api.call('POST', assignments, { title: 'Mine' }), 403, 'FORBIDDEN', undefined, 'nor does a teacher of another class');
  refused(t, await tina.api.call('POST', `/v2/classes/${NO_SUCH_ID}/assignments`, { title: 'x' }), 404, 'NOT_FOUND', 'class', 'creation in an unknown class');

  const listedIds = async (who: Account, path: string, what: string) => ids(valid<AssignmentJson[]>(t, await who.api.call('GET', path), 'Assignment', what));
  t.same(await listedIds(tina, assignments, "the teacher's list"), [main.id, draft.id, scheduled.id, solo.id], 'a teacher sees every assignment, oldest first');
  t.same(await listedIds(sam, assignments, "sam's list"), [main.id, solo.id], 'a student sees neither drafts nor scheduled ones');
  t.same(await listedIds(sue, assignments, "sue's list"), [main.id], 'nor those for other students');
  refused(t, await sam.api.call('GET', `${assignments}/${draft.id}`), 404, 'NOT_FOUND', 'assignment', 'a draft is not found by a student');
  refused(t, await sam.api.call('GET', `${assignments}/${scheduled.id}`), 404, 'NOT_FOUND', 'assignment', 'nor a scheduled assignment');
  refused(t, await sue.api.call('GET', `${assignments}/${solo.id}`), 404, 'NOT_FOUND', 'assignment', "nor another student's");
  t.match(valid(t, await sam.api.call('GET', mainPath), 'Assignment', 'a student reads a published assignment'), { id: main.id, title: 'Play the etude' });
  const counted = async (who: Account) => valid<ClassJson>(t, await who.api.call('GET', `/v2/classes/${classA.id}`), 'ClassDetails', `the class as ${who.username}`).assignmentsCount;
  t.same([await counted(tina), await counted(sam), await counted(sue)], [4, 2, 1], 'assignmentsCount: the assignments each member sees');
  refused(t, await tina.api.call('GET', `${assignments}/${NO_SUCH_ID}`), 404, 'NOT_FOUND', 'assignment', 'an unknown assignment');
  refused(t, await olga.api.call('GET', assignments), 403, 'FORBIDDEN', undefined, "the assignments of a class one is not in");
  refused(t, await tina.api.call('GET', `/v2/classes/${NO_SUCH_ID}/assignments`), 404, 'NOT_FOUND', 'class', 'the assignments of an unknown class');

  const draftPath = `${assignments}/${draft.id}`;
  const update = async (path: string, body: unknown, what: string) => valid<AssignmentJson>(t, await tina.api.call('PUT', path, body), 'Assignment', what);
  const published = await update(draftPath, { state: 'active', title: 'This week', dueDate: '2099-02-01T00:00:00Z', partnerGraph: { categories: ['Homework'] } }, 'the draft published');
  t.match(published, { id: draft.id, state: 'active', title: 'This week', dueDate: '2099-02-01T00:00:00.000Z', partnerGraph: { id: draft.partnerGraph?.id, state: 'assigned', categories: ['Homework'] } }, 'the same partner id');
  t.same(published.attachments, draft.attachments, 'attachments unchanged when not sent');
  t.match(valid(t, await sam.api.call('GET', draftPath), 'Assignment', 'a student reads it once published'), { id: draft.id, title: 'This week' });
  const cleared = await update(draftPath, { partnerGraph: null, dueDate: null, maxPoints: 10, attachments: [{ type: 'link', url: 'https://example.com/new' }] }, 'fields cleared with null');
  t.notOk('partnerGraph' in cleared, 'partnerGraph: null unlinks it');
  t.notOk('dueDate' in cleared, 'dueDate: null clears it');
  t.match(cleared, { maxPoints: 10, attachments: [{ type: 'link', url: 'https://example.com/new' }] }, 'the attachments replaced');
  t.equal(cleared.attachments.length, 1);
  refused(t, await sam.api.call('PUT', mainPath, { title: 'Mine' }), 403, 'FORBIDDEN', undefined, 'a student updates no assignment');
  refused(t, await tina.api.call('PUT', mainPath, { maxPoints: 'ten' }), 400, 'BAD_REQUEST', 'maxPoints', 'maxPoints that is no number');
  refused(t, await tina.api.call('PUT', mainPath, { attachments: [{ type: 'flat', score: secret.id }] }), 400, 'BAD_REQUEST', 'attachments', "an update attaching someone else's private score");
  refused(t, await tina.api.call('PUT', mainPath, text('[1'), JSON_TYPE), 400, 'BAD_REQUEST', 'body', 'an update that is not JSON');
  refused(t, await tina.api.call('PUT', `${assignments}/${NO_SUCH_ID}`, { title: 'x' }), 404, 'NOT_FOUND', 'assignment', 'updating an unknown assignment');
  t.same(valid<AssignmentJson>(t, await tina.api.call('GET', mainPath), 'Assignment', 'after refused updates').attachments[0]?.score, etude.id, 'a refused update changes nothing');

  const archived = valid<AssignmentJson>(t, await tina.api.call('POST', `${mainPath}/archive`), 'Assignment', 'archived');
  t.match(archived, { id: main.id, state: 'archived', partnerGraph: { id: main.partnerGraph?.id, state: 'inactive' } }, 'partnerGraph: inactive');
  refused(t, await sam.api.call('GET', mainPath), 404, 'NOT_FOUND', 'assignment', 'students no longer see an archived assignment');
  t.same(await listedIds(sam, assignments, "sam's list"), [draft.id, solo.id]);
  refused(t, await sam.api.call('POST', `${assignments}/${solo.id}/archive`), 403, 'FORBIDDEN', undefined, 'a student archives no assignment');
  refused(t, await tina.api.call('POST', `${assignments}/${NO_SUCH_ID}/archive`), 404, 'NOT_FOUND', 'assignment', 'archiving an unknown assignment');
  t.match(valid(t, await tina.api.call('DELETE', `${mainPath}/archive`), 'Assignment', 'unarchived'), { state: 'active', partnerGraph: { state: 'assigned' } });
  t.same(await listedIds(sam, assignments, "sam's list"), [main.id, draft.id, solo.id], 'back for the students');

  const copyOf = (path: string) => `${path}/copy`;
  const copy = valid<AssignmentJson>(t, await tina.api.call('POST', copyOf(mainPath), { classroom: classB.id }), 'Assignment', 'a copy to another class');
  t.match(copy, {
    id: /^[0-9a-f]{24}$/,
    classroom: classB.id,
    state: 'active',
    title: 'Play the etude',
    creator: tina.id,
    dueDate: '2099-01-01T00:00:00.000Z',
    maxPoints: 20,
    assigneeMode: 'everyone',
    submissions: [],
    partnerGraph: { id: UUID, state: 'assigned', categories: ['Homework', 'Piano'], alternateLink: `${service.baseUrl}/v2/classes/${classB.id}/assignments/${copy.id}` },
  });
  t.not(copy.id, main.id, 'an assignment of its own');
  t.not(copy.partnerGraph?.id, main.partnerGraph?.id, 'with a partner id of its own');
  t.same(copy.attachments, main.attachments, 'the same attachments, on the same revision');
  const overdue = await create({ title: 'Overdue', state: 'draft', dueDate: '2020-01-01T00:00:00Z' }, 'a draft due in the past');
  t.equal(overdue.dueDate, '2020-01-01T00:00:00.000Z');
  const overdueCopy = valid<AssignmentJson>(t, await tina.api.call('POST', copyOf(`${assignments}/${overdue.id}`), { classroom: classB.id, scheduledDate: '2099-03-01T00:00:00Z' }), 'Assignment', 'a scheduled copy');
  t.notOk('dueDate' in overdueCopy, 'a due date already past is dropped');
  t.match(overdueCopy, { state: 'draft', title: 'Overdue', scheduledDate: '2099-03-01T00:00:00.000Z' }, 'a draft stays a draft, scheduled as asked');
  const classBAssignments = `/v2/classes/${classB.id}/assignments`;
  const overwritten = valid<AssignmentJson>(t, await tina.api.call('POST', copyOf(mainPath), { classroom: classB.id, assignment: overdueCopy.id }), 'Assignment', 'a copy over a draft');
  t.match(overwritten, { id: overdueCopy.id, title: 'Play the etude', state: 'active', classroom: classB.id, dueDate: '2099-01-01T00:00:00.000Z' }, 'the draft overwritten in place');
  t.same(await listedIds(tina, classBAssignments, "the destination's list"), [copy.id, overdueCopy.id], 'no third assignment');
  t.match(valid(t, await theo.api.call('POST', copyOf(mainPath), { classroom: classC.id }), 'Assignment', 'a teacher of both classes copies'), { classroom: classC.id, creator: theo.id }, 'the copier is its creator');
  refused(t, await tina.api.call('POST', copyOf(mainPath), {}), 400, 'BAD_REQUEST', 'classroom', 'a copy without classroom');
  refused(t, await tina.api.call('POST', copyOf(mainPath), { classroom: 5 }), 400, 'BAD_REQUEST', 'classroom', 'a classroom that is no string');
  refused(t, await tina.api.call('POST', copyOf(mainPath), { classroom: NO_SUCH_ID }), 404, 'NOT_FOUND', 'class', 'a copy to an unknown class');
  refused(t, await tina.api.call('POST', copyOf(mainPath), { classroom: classC.id }), 403, 'FORBIDDEN', undefined, 'a copy to a class one does not teach');
  refused(t, await theo.api.call('POST', copyOf(mainPath), { classroom: classB.id }), 403, 'FORBIDDEN', undefined, 'nor to one someone else teaches');
  refused(t, await tina.api.call('POST', copyOf(mainPath), { classroom: classB.id, assignment: copy.id }), 400, 'BAD_REQUEST', 'assignment', 'overwriting an assignment that is no draft');
  refused(t, await tina.api.call('POST', copyOf(mainPath), { classroom: classB.id, assignment: NO_SUCH_ID }), 404, 'NOT_FOUND', 'assignment', 'overwriting an unknown assignment');
  refused(t, await tina.api.call('POST', copyOf(mainPath), { classroom: classB.id, scheduledDate: 'soon' }), 400, 'BAD_REQUEST', 'scheduledDate', 'a scheduledDate that is no date-time');
  refused(t, await tina.api.call('POST', copyOf(mainPath), text('classroom'), JSON_TYPE), 400, 'BAD_REQUEST', 'body', 'a copy whose body is not JSON');
  refused(t, await sam.api.call('POST', copyOf(mainPath), { classroom: classA.id }), 403, 'FORBIDDEN', undefined, 'a student copies nothing');
  refused(t, await tina.api.call('POST', copyOf(`${assignments}/${NO_SUCH_ID}`), { classroom: classB.id }), 404, 'NOT_FOUND', 'assignment', 'copying an unknown assignment');
  t.same(await listedIds(tina, classBAssignments, "the destination's list"), [copy.id, overdueCopy.id], 'refused copies add nothing');
});

t.test('submissions: created, edited, turned in, graded, returned and reset', async (t) => {
  const { service, account, score } = await educationService(t, 'scores-education-submissions-');
  const tina = await account('tina', { organization: 'school-a', organizationRole: 'teacher' });
  const sam = await account('sam', { organization: 'school-a', organizationRole: 'user' });
  const sue = await account('sue', { organization: 'school-a', organizationRole: 'user' });
  const zed = await account('zed', { organization: 'school-a', organizationRole: 'user' });
  const classroom = valid<ClassJson>(t, await tina.api.call('POST', '/v2/classes', { name: 'Composition' }), 'ClassDetails', 'a class');
  for (const member of [sam, sue]) t.equal((await tina.api.call('PUT', `/v2/classes/${classroom.id}/users/${member.id}`)).status, 204, `${member.username} is in the class`);
  const samScore = await score(sam, 'My answer', 'private');
  const assignments = `/v2/classes/${classroom.id}/assignments`;
  const assignment = valid<AssignmentJson>(t, await tina.api.call('POST', assignments, { title: 'Compose 8 bars', type: 'newScore', maxPoints: 10, partnerGraph: { categories: ['Composition'] } }), 'Assignment', 'an assignment');
  const base = `${assignments}/${assignment.id}`;
  const submissions = `${base}/submissions`;
  const submit = async (who: Account, body: unknown, what: string) => valid<SubmissionJson>(t, await who.api.call('PUT', submissions, body), 'AssignmentSubmission', what);

  refused(t, await tina.api.call('PUT', submissions, { submit: true }), 403, 'FORBIDDEN', undefined, 'a teacher does not submit');
  refused(t, await zed.api.call('PUT', submissions, { submit: true }), 403, 'FORBIDDEN', undefined, 'nor does someone not in the class');
  const created = await submit(sam, { attachments: [{ type: 'link', url: 'https://example.com/draft' }] }, 'a student starts a submission');
  const one = `${submissions}/${created.id}`;
  t.match(created, {
    id: /^[0-9a-f]{24}$/,
    state: 'created',
    classroom: classroom.id,
    assignment: assignment.id,
    creator: sam.id,
    creationDate: ISO,
    grade: null,
    draftGrade: null,
    maxPoints: 10,
    attachments: [{ type: 'link', url: 'https://example.com/draft' }],
    partnerGraph: { id: UUID, state: 'working', alternateLink: `${service.baseUrl}${one}` },
  });
  t.notOk('submissionDate' in created, 'not submitted yet');
  t.notOk('track' in created, 'no recording');
  const edited = await submit(sam, { attachments: [{ type: 'flat', score: samScore.id }] }, 'the student edits it');
  t.match(edited, { id: created.id, state: 'created', partnerGraph: { id: created.partnerGraph?.id } }, 'the same submission');
  t.same(edited.attachments, [{ type: 'flat', score: samScore.id, revision: String(edited.attachments[0]?.revision), title: samScore.title, sharingMode: 'read' }], 'its attachments replaced');
  t.match(edited.attachments[0], { revision: /^[0-9a-f]{24}$/ });
  for (const [what, body, param] of [
    ['a grade', { grade: 5 }, 'grade'],
    ['a draft grade', { draftGrade: 5 }, 'draftGrade'],
    ['return', { return: true }, 'return'],
    ['submit that is no boolean', { submit: 'yes' }, 'submit'],
    ['attachments that are no list', { attachments: 'mine' }, 'attachments'],
    ['an unknown score', { attachments: [{ type: 'flat', score: NO_SUCH_ID }] }, 'attachments'],
  ] as const) {
    refused(t, await sam.api.call('PUT', submissions, body), 400, 'BAD_REQUEST', param, `a student sending ${what}`);
  }
  refused(t, await sam.api.call('PUT', submissions, text('submit'), JSON_TYPE), 400, 'BAD_REQUEST', 'body', 'a submission body that is not JSON');

  const turnedIn = await submit(sam, { submit: true }, 'the student turns it in');
  t.match(turnedIn, { id: created.id, state: 'turnedIn', submissionDate: ISO, partnerGraph: { state: 'submitted' } });
  t.same(turnedIn.attachments, edited.attachments, 'with the attachments it had');
  refused(t, await sam.api.call('PUT', submissions, { attachments: [] }), 409, 'CONFLICT', undefined, 'a turned-in submission cannot be edited');
  refused(t, await sam.api.call('PUT', submissions, { submit: true }), 409, 'CONFLICT', undefined, 'nor turned in twice');
  const sueWork = await submit(sue, {}, 'another student starts one');
  t.match(sueWork, { state: 'created', creator: sue.id, attachments: [] });

  t.same(ids(valid<SubmissionJson[]>(t, await sam.api.call('GET', submissions), 'AssignmentSubmission', "a student's list")), [created.id], 'a student sees only their own');
  t.same(ids(valid<SubmissionJson[]>(t, await tina.api.call('GET', submissions), 'AssignmentSubmission', "the teacher's list")), [created.id, sueWork.id], 'the teacher sees all, oldest first');
  t.same(ids(valid<AssignmentJson>(t, await sam.api.call('GET', base), 'Assignment', 'the assignment as a student').submissions), [created.id], 'the assignment shows a student their own');
  t.same(ids(valid<AssignmentJson>(t, await tina.api.call('GET', base), 'Assignment', 'the assignment as the teacher').submissions), [created.id, sueWork.id], 'and the teacher all');
  t.same(valid(t, await sam.api.call('GET', one), 'AssignmentSubmission', 'a student reads their submission'), turnedIn, 'as turned in');
  refused(t, await sue.api.call('GET', one), 403, 'FORBIDDEN', undefined, "another student's submission");
  refused(t, await zed.api.call('GET', submissions), 403, 'FORBIDDEN', undefined, 'the submissions of a class one is not in');
  refused(t, await tina.api.call('GET', `${submissions}/${NO_SUCH_ID}`), 404, 'NOT_FOUND', 'submission', 'an unknown submission');
  refused(t, await tina.api.call('GET', `${assignments}/${NO_SUCH_ID}/submissions`), 404, 'NOT_FOUND', 'assignment', 'the submissions of an unknown assignment');

  const grade = async (path: string, body: unknown, what: string) => valid<SubmissionJson>(t, await tina.api.call('PUT', path, body), 'AssignmentSubmission', what);
  t.match(await grade(one, { draftGrade: 8 }, 'a draft grade'), { id: created.id, state: 'turnedIn', draftGrade: 8, grade: null });
  for (const [what, body, param] of [
    ['a draft grade over maxPoints', { draftGrade: 11 }, 'draftGrade'],
    ['a grade over maxPoints', { grade: 10.5 }, 'grade'],
    ['a grade over 100', { grade: 101 }, 'grade'],
    ['a negative grade', { grade: -1 }, 'grade'],
    ['a grade that is no number', { draftGrade: '8' }, 'draftGrade'],
    ['return that is no boolean', { return: 'yes' }, 'return'],
    ['attachments', { attachments: [] }, 'attachments'],
    ['submit', { submit: true }, 'submit'],
  ] as const) {
    refused(t, await tina.api.call('PUT', one, body), 400, 'BAD_REQUEST', param, `a teacher sending ${what}`);
  }
  refused(t, await sam.api.call('PUT', one, { draftGrade: 10 }), 403, 'FORBIDDEN', undefined, 'a student grades nothing');
  refused(t, await sam.api.call('PUT', one, { return: true }), 403, 'FORBIDDEN', undefined, 'nor returns');
  refused(t, await tina.api.call('PUT', `${submissions}/${sueWork.id}`, { return: true }), 409, 'CONFLICT', undefined, 'a submission not turned in cannot be returned');
  t.match(await grade(`${submissions}/${sueWork.id}`, { draftGrade: 3 }, 'a draft grade on work in progress'), { state: 'created', draftGrade: 3, grade: null });
  const returned = await grade(one, { return: true }, 'returned');
  t.match(returned, { state: 'returned', draftGrade: 8, grade: 8, returnDate: ISO, returnCreator: tina.id, submissionDate: turnedIn.submissionDate, partnerGraph: { state: 'returned' } }, 'the draft grade becomes the grade');
  refused(t, await tina.api.call('PUT', one, { return: true }), 409, 'CONFLICT', undefined, 'returning it twice');
  t.match(await grade(one, { grade: 9 }, 'a grade changed'), { state: 'returned', grade: 9, draftGrade: 8 });
  t.match(await grade(one, { grade: 10, draftGrade: null }, 'a draft grade cleared'), { grade: 10, draftGrade: null }, 'maxPoints itself is a valid grade');
  const resubmitted = await submit(sam, { submit: true }, 'the student turns it in again');
  t.match(resubmitted, { id: created.id, state: 'turnedIn', grade: 10 });

  refused(t, await sam.api.call('DELETE', one), 403, 'FORBIDDEN', undefined, 'a student does not reset a submission');
  t.equal((await tina.api.call('DELETE', one)).status, 204, 'the teacher resets it');
  refused(t, await tina.api.call('GET', one), 404, 'NOT_FOUND', 'submission', 'it is gone');
  refused(t, await sam.api.call('GET', one), 404, 'NOT_FOUND', 'submission', 'for the student too');
  refused(t, await tina.api.call('DELETE', one), 404, 'NOT_FOUND', 'submission', 'resetting it again');
  t.same(valid(t, await sam.api.call('GET', submissions), 'AssignmentSubmission', "the student's list after the reset"), [], 'the student has none');
  const again = await submit(sam, {}, 'the student starts over');
  t.not(again.id, created.id, 'a new submission');
  t.match(again, { state: 'created', grade: null, draftGrade: null, attachments: [] });
  t.notOk('submissionDate' in again, 'not submitted');

  const free = valid<AssignmentJson>(t, await tina.api.call('POST', assignments, { title: 'Free', scheduledDate: '2020-01-01T00:00:00Z', partnerGraph: {} }), 'Assignment', 'an assignment without maxPoints');
  t.match(free, { scheduledDate: '2020-01-01T00:00:00.000Z', partnerGraph: { state: 'assigned' } }, 'scheduled in the past: assigned at once');
  const freeWork = valid<SubmissionJson>(t, await sam.api.call('PUT', `${assignments}/${free.id}/submissions`, { submit: true }), 'AssignmentSubmission', 'turned in at once');
  t.match(freeWork, { state: 'turnedIn', submissionDate: ISO, partnerGraph: { state: 'submitted' } }, 'a student sees and turns in an assignment whose scheduled date has passed');
  t.notOk('maxPoints' in freeWork, 'no maxPoints');
  t.match(await grade(`${assignments}/${free.id}/submissions/${freeWork.id}`, { grade: 100 }, 'graded 100'), { grade: 100 });
  refused(t, await tina.api.call('PUT', `${assignments}/${free.id}/submissions/${freeWork.id}`, { grade: 100.5 }), 400, 'BAD_REQUEST', 'grade', 'a grade over 100 without maxPoints');

  const ofStudent = (id: string) => `/v2/classes/${classroom.id}/students/${id}/submissions`;
  t.same(ids(valid<SubmissionJson[]>(t, await tina.api.call('GET', ofStudent(sam.id)), 'AssignmentSubmission', "a student's submissions, for the teacher")), [again.id, freeWork.id], 'one per assignment');
  t.same(ids(valid<SubmissionJson[]>(t, await sam.api.call('GET', ofStudent(sam.id)), 'AssignmentSubmission', 'their own, for the student')), [again.id, freeWork.id]);
  t.same(ids(valid<SubmissionJson[]>(t, await tina.api.call('GET', ofStudent(sue.id)), 'AssignmentSubmission', "another student's")), [sueWork.id]);
  refused(t, await sam.api.call('GET', ofStudent(sue.id)), 403, 'FORBIDDEN', undefined, "a student lists no one else's");
  t.same(valid(t, await tina.api.call('GET', ofStudent(NO_SUCH_ID)), 'AssignmentSubmission', 'someone with none'), []);
  refused(t, await tina.api.call('GET', `/v2/classes/${NO_SUCH_ID}/students/${sam.id}/submissions`), 404, 'NOT_FOUND', 'class', 'in an unknown class');

  t.equal((await tina.api.call('DELETE', `/v2/classes/${classroom.id}/users/${sue.id}`)).status, 204, 'a student removed from the class');
  t.same(ids(valid<SubmissionJson[]>(t, await tina.api.call('GET', submissions), 'AssignmentSubmission', 'the list after the removal')), [again.id], 'takes their submissions along');
  t.equal((await tina.api.call('POST', `${base}/archive`)).status, 200, 'the assignment archived');
  refused(t, await sam.api.call('PUT', submissions, { submit: true }), 404, 'NOT_FOUND', 'assignment', 'no submitting to an archived assignment');
});

t.test("recordings: a student records a track on the teacher's score and turns it in", async (t) => {
  const { account, score } = await educationService(t, 'scores-education-recordings-');
  const tina = await account('tina', { organization: 'school-a', organizationRole: 'teacher' });
  const sam = await account('sam', { organization: 'school-a', organizationRole: 'user' });
  const sue = await account('sue', { organization: 'school-a', organizationRole: 'user' });
  const zoe = await account('zoe', { organization: 'school-a', organizationRole: 'user' });
  const classroom = valid<ClassJson>(t, await tina.api.call('POST', '/v2/classes', { name: 'Recital' }), 'ClassDetails', 'a class');
  for (const member of [sam, sue]) t.equal((await tina.api.call('PUT', `/v2/classes/${classroom.id}/users/${member.id}`)).status, 204, `${member.username} is in the class`);
  const recital = await score(tina, 'Recital piece', 'private');
  const scorePath = `/v2/scores/${recital.id}`;
  const tracks = `${scorePath}/tracks`;
  const revision = ((await tina.api.call('GET', `${scorePath}/revisions/last`)).json() as { id: string }).id;
  const assignments = `/v2/classes/${classroom.id}/assignments`;

  refused(t, await sam.api.call('GET', scorePath), 403, 'FORBIDDEN', undefined, "a student does not read the teacher's private score");
  const listening = valid<AssignmentJson>(t, await tina.api.call('POST', assignments, { title: 'Listen', attachments: [{ type: 'flat', score: recital.id }] }), 'Assignment', 'an assignment to read the score');
  t.equal((await sam.api.call('GET', scorePath)).status, 200, 'the class shares the attached score with its students');
  refused(t, await zoe.api.call('GET', scorePath), 403, 'FORBIDDEN', undefined, 'not with anyone else');
  refused(t, await sam.api.call('POST', tracks, { url: 'https://youtu.be/xyz' }), 403, 'FORBIDDEN', undefined, 'shared to read: no recording');
  const performance = valid<AssignmentJson>(
    t,
    await tina.api.call('POST', assignments, {
      title: 'Record the piece',
      type: 'performance',
      state: 'draft',
      attachments: [{ type: 'flat', score: recital.id, sharingMode: 'performance' }],
      partnerGraph: { categories: ['Performance'] },
    }),
    'Assignment',
    'a performance assignment, as a draft',
  );
  t.match(performance.attachments, [{ type: 'flat', score: recital.id, revision, sharingMode: 'performance' }]);
  refused(t, await sam.api.call('POST', tracks, { url: 'https://youtu.be/xyz' }), 403, 'FORBIDDEN', undefined, 'no recording while the assignment is a draft');
  t.match(valid(t, await tina.api.call('PUT', `${assignments}/${performance.id}`, { state: 'active' }), 'Assignment', 'published'), { state: 'active' });

  const record = async (who: Account, body: unknown, what: string) => valid<TrackJson>(t, await who.api.call('POST', tracks, body), 'ScoreTrack', what);
  const samTrack = await record(sam, { url: 'https://youtu.be/xyz', title: 'My take' }, "a student records on the teacher's score");
  t.match(samTrack, { creator: sam.id, score: recital.id, title: 'My take', type: 'youtube', mediaId: 'xyz', default: false, state: 'draft' });
  refused(t, await sam.api.call('POST', tracks, { url: 'https://youtu.be/abc', default: true }), 403, 'FORBIDDEN', undefined, 'a student does not choose the default track');
  refused(t, await zoe.api.call('POST', tracks, { url: 'https://youtu.be/abc' }), 403, 'FORBIDDEN', undefined, 'a student without such an assignment records nothing');
  refused(t, await sam.api.call('POST', tracks, { url: 'ftp://example.com/take.mp3' }), 400, 'BAD_REQUEST', 'url', 'a recording URL that is not http(s)');
  const sueTrack = await record(sue, { url: 'https://youtu.be/sue' }, 'another student records');
  const tinaTrack = await record(tina, { url: 'https://youtu.be/teacher' }, 'the teacher records too');
  refused(t, await sam.api.call('PUT', `${tracks}/${tinaTrack.id}`, { title: 'Mine now' }), 403, 'FORBIDDEN', undefined, "a student does not edit the teacher's track");
  t.match(valid(t, await sam.api.call('PUT', `${tracks}/${samTrack.id}`, { title: 'My best take' }), 'ScoreTrack', 'a student edits their own track'), { title: 'My best take' });

  const submissions = `${assignments}/${performance.id}/submissions`;
  refused(t, await sam.api.call('PUT', submissions, { submit: true }), 400, 'BAD_REQUEST', 'attachments', 'a performance turned in without a recording');
  t.same(valid(t, await tina.api.call('GET', submissions), 'AssignmentSubmission', 'the submissions after the refusal'), [], 'nothing was stored');
  refused(t, await sam.api.call('PUT', submissions, { attachments: [{ type: 'flat', score: recital.id, track: sueTrack.id }], submit: true }), 400, 'BAD_REQUEST', 'attachments', "someone else's recording");
  refused(t, await sam.api.call('PUT', submissions, { attachments: [{ type: 'flat', score: recital.id, track: NO_SUCH_ID }], submit: true }), 400, 'BAD_REQUEST', 'attachments', 'an unknown track');

  const turnedIn = await sam.api.call('PUT', submissions, { attachments: [{ type: 'flat', score: recital.id, track: samTrack.id }], submit: true });
  const submitted = valid<SubmissionJson>(t, turnedIn, 'AssignmentSubmission', "the recording on the teacher's private score turned in");
  t.match(submitted, { state: 'turnedIn', track: samTrack.id, submissionDate: ISO, partnerGraph: { state: 'submitted' } }, 'the recorded track at the top level');
  t.same(submitted.attachments, [{ type: 'performance', score: recital.id, revision, title: recital.title, sharingMode: 'performance', track: samTrack.id }], 'a performance attachment');
  t.match(valid(t, await tina.api.call('GET', `${submissions}/${submitted.id}`), 'AssignmentSubmission', 'the teacher reads it'), { track: samTrack.id });

  const listed = async (query: string, what: string) => ids(valid<TrackJson[]>(t, await tina.api.call('GET', `${tracks}${query}`), 'ScoreTrack', what));
  t.same(await listed(`?assignment=${performance.id}`, "the performance assignment's tracks"), [samTrack.id], 'exactly the track the submission carries');
  t.same(await listed('', 'every track of the score'), [samTrack.id, sueTrack.id, tinaTrack.id], 'while the score has three');
  t.same(await listed(`?assignment=${listening.id}`, "another assignment's tracks"), [], 'none for an assignment without recordings');
  // A recording of another score is not a performance of the assignment's.
  const sueScore = await score(sue, 'Something else', 'private');
  const elsewhere = valid<TrackJson>(t, await sue.api.call('POST', `/v2/scores/${sueScore.id}/tracks`, { url: 'https://youtu.be/elsewhere' }), 'ScoreTrack', 'a recording on a score of her own');
  const offScore = await sue.api.call('PUT', submissions, { attachments: [{ type: 'flat', score: sueScore.id, track: elsewhere.id }], submit: true });
  refused(t, offScore, 400, 'BAD_REQUEST', 'attachments', 'a performance assignment is not turned in with a recording of another score than the one it attaches');
  t.same(await listed(`?assignment=${performance.id}`, "the performance assignment's tracks"), [samTrack.id], "the assignment's tracks on its score are still sam's alone");
  t.equal((await tina.api.call('DELETE', `${submissions}/${submitted.id}`)).status, 204, 'the teacher resets the submission');
  t.same(await listed(`?assignment=${performance.id}`, "the performance assignment's tracks after the reset"), [], 'its recording is no longer listed for the assignment');
  t.match(valid(t, await sam.api.call('GET', `${tracks}/${samTrack.id}`), 'ScoreTrack', 'the recording itself'), { id: samTrack.id, creator: sam.id }, "but stays the student's");

  // A student of an organization creates no class to pass the teacher's private score on; a
  // teacher the score is shared with through a class cannot attach it to a class of their own.
  refused(t, await sam.api.call('POST', '/v2/classes', { name: "Sam's band" }), 403, 'FORBIDDEN', undefined, "a student of an organization does not create classes");
  const colleague = await account('colleague', { organization: 'school-a', organizationRole: 'teacher' });
  t.equal((await tina.api.call('PUT', `/v2/classes/${classroom.id}/users/${colleague.id}`)).status, 204, 'a colleague teaches the class too');
  t.equal((await colleague.api.call('GET', scorePath)).status, 200, 'and reads the attached score through it');
  const own = valid<ClassJson>(t, await colleague.api.call('POST', '/v2/classes', { name: 'Colleague class' }), 'ClassDetails', "the colleague's own class");
  t.match(valid(t, await zoe.api.call('POST', `/v2/classes/enroll/${own.enrollmentCode ?? ''}`), 'ClassDetails', 'a student joins it'), { id: own.id });
  refused(
    t,
    await colleague.api.call('POST', `/v2/classes/${own.id}/assignments`, { title: 'Read this', attachments: [{ type: 'flat', score: recital.id, sharingMode: 'performance' }] }),
    400,
    'BAD_REQUEST',
    'attachments',
    "the private score cannot be passed on through another class",
  );
  refused(t, await zoe.api.call('GET', scorePath), 403, 'FORBIDDEN', undefined, "the teacher's private score stays out of reach of that class's students");
  refused(t, await zoe.api.call('POST', tracks, { url: 'https://youtu.be/zoe' }), 403, 'FORBIDDEN', undefined, 'who cannot record on it either');
});
