/**
 * Who may call what, for every education route: the class's teacher, a teacher of the same
 * organization who is not in the class, a student enrolled in it, a student who is not, no
 * token, a token never issued, and a token without the education scopes. Every call runs on a
 * class of its own, so what one identity did cannot change what the next one gets.
 */
import t from 'tap';
import { scoresApi, type ScoresApiParts } from '../../src/scores/index.js';
import { generatedScore } from '../support/generated-score.js';
import { issueToken, scoreApiClient, scoreServiceEnv, type Fetched, type ScoreApiClient } from '../support/score-api-client.js';
import { startService } from '../support/service-harness.js';
import { tempDir } from '../support/temp-dir.js';

interface Fixture {
  classId: string;
  otherClassId: string;
  code: string;
  teachersGroup: string;
  assignment: string;
  submission: string;
  student: string;
  outsider: string;
  /** A comment of the class's teacher on the submission. */
  comment: string;
}

/** Expected statuses for: the class's teacher, another teacher, the enrolled student, another student. */
type Statuses = [teacher: number, otherTeacher: number, student: number, otherStudent: number];

interface RouteCase {
  route: string;
  call(client: ScoreApiClient, f: Fixture): Promise<Fetched>;
  expected: Statuses;
  /** What the teacher and the student holding no education scope get, where the route takes another scope. */
  withoutEducationScopes?: [teacher: number, student: number];
}

const MEMBERS_READ: Statuses = [200, 403, 200, 403];
const TEACHER_ONLY: Statuses = [200, 403, 403, 403];
const base = (f: Fixture) => `/v2/classes/${f.classId}`;
const assignment = (f: Fixture) => `${base(f)}/assignments/${f.assignment}`;
const submission = (f: Fixture) => `${assignment(f)}/submissions/${f.submission}`;
const link = { type: 'link', url: 'https://example.com/homework' };

const ROUTES: RouteCase[] = [
  { route: 'GET /v2/classes', call: (c) => c.call('GET', '/v2/classes'), expected: [200, 200, 200, 200] },
  // Students of an organization do not create classes; its teachers do.
  { route: 'POST /v2/classes', call: (c) => c.call('POST', '/v2/classes', { name: 'New class' }), expected: [200, 200, 403, 403] },
  { route: 'GET /v2/classes/:class', call: (c, f) => c.call('GET', base(f)), expected: MEMBERS_READ },
  { route: 'PUT /v2/classes/:class', call: (c, f) => c.call('PUT', base(f), { name: 'Renamed' }), expected: TEACHER_ONLY },
  { route: 'POST /v2/classes/:class/archive', call: (c, f) => c.call('POST', `${base(f)}/archive`), expected: TEACHER_ONLY },
  { route: 'DELETE /v2/classes/:class/archive', call: (c, f) => c.call('DELETE', `${base(f)}/archive`), expected: TEACHER_ONLY },
  { route: 'POST /v2/classes/:class/activate', call: (c, f) => c.call('POST', `${base(f)}/activate`), expected: TEACHER_ONLY },
  { route: 'PUT /v2/classes/:class/users/:user', call: (c, f) => c.call('PUT', `${base(f)}/users/${f.outsider}`), expected: [204, 403, 403, 403] },
  // A student may leave; only teachers remove others.
  { route: 'DELETE /v2/classes/:class/users/:user', call: (c, f) => c.call('DELETE', `${base(f)}/users/${f.student}`), expected: [204, 403, 204, 403] },
  // Whoever holds the code joins (a teacher of the class is already in it).
  { route: 'POST /v2/classes/enroll/:enrollmentCode', call: (c, f) => c.call('POST', `/v2/classes/enroll/${f.code}`), expected: [200, 200, 200, 200] },
  { route: 'POST /v2/classes/:class/roster', call: (c, f) => c.call('POST', `${base(f)}/roster`, { users: [{ email: 'new.student@school.test' }] }), expected: TEACHER_ONLY },
  { route: 'GET /v2/groups/:group', call: (c, f) => c.call('GET', `/v2/groups/${f.teachersGroup}`), expected: MEMBERS_READ },
  { route: 'GET /v2/groups/:group/users', call: (c, f) => c.call('GET', `/v2/groups/${f.teachersGroup}/users`), expected: MEMBERS_READ },
  { route: 'GET /v2/classes/:class/assignments', call: (c, f) => c.call('GET', `${base(f)}/assignments`), expected: MEMBERS_READ },
  { route: 'POST /v2/classes/:class/assignments', call: (c, f) => c.call('POST', `${base(f)}/assignments`, { title: 'More' }), expected: TEACHER_ONLY },
  { route: 'GET /v2/classes/:class/assignments/:assignment', call: (c, f) => c.call('GET', assignment(f)), expected: MEMBERS_READ },
  { route: 'PUT /v2/classes/:class/assignments/:assignment', call: (c, f) => c.call('PUT', assignment(f), { title: 'Retitled' }), expected: TEACHER_ONLY },
  { route: 'POST /v2/classes/:class/assignments/:assignment/copy', call: (c, f) => c.call('POST', `${assignment(f)}/copy`, { classroom: f.otherClassId }), expected: TEACHER_ONLY },
  { route: 'POST /v2/classes/:class/assignments/:assignment/archive', call: (c, f) => c.call('POST', `${assignment(f)}/archive`), expected: TEACHER_ONLY },
  { route: 'DELETE /v2/classes/:class/assignments/:assignment/archive', call: (c, f) => c.call('DELETE', `${assignment(f)}/archive`), expected: TEACHER_ONLY },
  { route: 'GET /v2/classes/:class/assignments/:assignment/submissions', call: (c, f) => c.call('GET', `${assignment(f)}/submissions`), expected: MEMBERS_READ },
  // Students submit; teachers grade through the submission's own route.
  { route: 'PUT /v2/classes/:class/assignments/:assignment/submissions', call: (c, f) => c.call('PUT', `${assignment(f)}/submissions`, { attachments: [link] }), expected: [403, 403, 200, 403] },
  { route: 'GET /v2/classes/:class/assignments/:assignment/submissions/:submission', call: (c, f) => c.call('GET', submission(f)), expected: MEMBERS_READ },
  { route: 'PUT /v2/classes/:class/assignments/:assignment/submissions/:submission', call: (c, f) => c.call('PUT', submission(f), { draftGrade: 8 }), expected: TEACHER_ONLY },
  { route: 'DELETE /v2/classes/:class/assignments/:assignment/submissions/:submission', call: (c, f) => c.call('DELETE', submission(f)), expected: [204, 403, 403, 403] },
  { route: 'GET /v2/classes/:class/assignments/:assignment/submissions/csv', call: (c, f) => c.call('GET', `${assignment(f)}/submissions/csv`), expected: TEACHER_ONLY },
  { route: 'GET /v2/classes/:class/assignments/:assignment/submissions/excel', call: (c, f) => c.call('GET', `${assignment(f)}/submissions/excel`), expected: TEACHER_ONLY },
  { route: 'GET /v2/classes/:class/assignments/:assignment/submissions/:submission/history', call: (c, f) => c.call('GET', `${submission(f)}/history`), expected: TEACHER_ONLY },
  { route: 'GET /v2/classes/:class/assignments/:assignment/submissions/:submission/comments', call: (c, f) => c.call('GET', `${submission(f)}/comments`), expected: MEMBERS_READ },
  { route: 'POST /v2/classes/:class/assignments/:assignment/submissions/:submission/comments', call: (c, f) => c.call('POST', `${submission(f)}/comments`, { comment: 'Well played' }), expected: MEMBERS_READ },
  // The comment is the teacher's: only its author changes it; its author or a teacher deletes it.
  { route: 'PUT /v2/classes/:class/assignments/:assignment/submissions/:submission/comments/:comment', call: (c, f) => c.call('PUT', `${submission(f)}/comments/${f.comment}`, { comment: 'Reworded' }), expected: TEACHER_ONLY },
  { route: 'DELETE /v2/classes/:class/assignments/:assignment/submissions/:submission/comments/:comment', call: (c, f) => c.call('DELETE', `${submission(f)}/comments/${f.comment}`), expected: [204, 403, 403, 403] },
  // What the teachers group shares is for teachers; the route takes the score scopes.
  { route: 'GET /v2/groups/:group/scores', call: (c, f) => c.call('GET', `/v2/groups/${f.teachersGroup}/scores`), expected: TEACHER_ONLY, withoutEducationScopes: [200, 403] },
  { route: 'GET /v2/classes/:class/students/:user/submissions', call: (c, f) => c.call('GET', `${base(f)}/students/${f.student}/submissions`), expected: MEMBERS_READ },
];

t.test('the matrix covers every education route', async (t) => {
  // Routing only: no route handler runs, so the API's parts are never used.
  const api = scoresApi({ adminToken: '' } as ScoresApiParts);
  const education = api.routes.filter((r) => r.path.startsWith('/v2/classes') || r.path.startsWith('/v2/groups/')).map((r) => `${r.method} ${r.path}`);
  t.same(new Set(ROUTES.map((r) => r.route)), new Set(education));
  t.equal(ROUTES.length, new Set(ROUTES.map((r) => r.route)).size, 'each route once');
});

t.test('every education route: teacher, other teacher, student, other student, no token, bad token, missing scope', async (t) => {
  const dataDir = await tempDir(t, 'edu-authz-');
  const env = await scoreServiceEnv(dataDir);
  const service = await startService(t, { env: { ...env, SCORES_ADMIN_TOKEN: 'admin-secret-of-at-least-32-characters' } });
  const admin = scoreApiClient(service.baseUrl, 'admin-secret-of-at-least-32-characters');
  const people = [
    ['teacher', 'teacher'],
    ['colleague', 'teacher'],
    ['pupil', 'user'],
    ['stranger', 'user'],
  ] as const;
  const ids: Record<string, string> = {};
  for (const [name, role] of people) {
    const answer = await admin.call('PUT', `/v2/admin/users/${name}`, { email: `${name}@school.test`, organization: 'school', organizationRole: role });
    ids[name] = (answer.json() as { id: string }).id;
  }
  const all = 'edu.classes,edu.assignments,scores';
  const client = async (name: string, scopes = all) => scoreApiClient(service.baseUrl, await issueToken(env, name, scopes));
  const [teacher, colleague, pupil, stranger] = [await client('teacher'), await client('colleague'), await client('pupil'), await client('stranger')];
  const refused: Array<[string, ScoreApiClient, (route: RouteCase) => number]> = [
    ['no token', scoreApiClient(service.baseUrl, undefined), () => 401],
    ['a token never issued', scoreApiClient(service.baseUrl, 'flatpat_neverissued'), () => 401],
    ['the teacher without education scopes', await client('teacher', 'scores'), (route) => route.withoutEducationScopes?.[0] ?? 403],
    ['the student without education scopes', await client('pupil', 'scores,account.public_profile'), (route) => route.withoutEducationScopes?.[1] ?? 403],
  ];
  const score = ((await teacher.call('POST', '/v2/scores', { privacy: 'public', data: generatedScore({ title: 'Etude', measures: 1, parts: 1 }) })).json() as { id: string }).id;

  const fixture = async (): Promise<Fixture> => {
    const created = (await teacher.call('POST', '/v2/classes', { name: 'Strings' })).json() as { id: string; enrollmentCode: string; teachersGroup: { id: string } };
    const other = (await teacher.call('POST', '/v2/classes', { name: 'Winds' })).json() as { id: string };
    t.equal((await pupil.call('POST', `/v2/classes/enroll/${created.enrollmentCode}`)).status, 200);
    const work = (await teacher.call('POST', `/v2/classes/${created.id}/assignments`, { title: 'Play', type: 'performance', attachments: [{ type: 'flat', score, sharingMode: 'performance' }] })).json() as { id: string };
    const handedIn = (await pupil.call('PUT', `/v2/classes/${created.id}/assignments/${work.id}/submissions`, { attachments: [link] })).json() as { id: string };
    const comment = (await teacher.call('POST', `/v2/classes/${created.id}/assignments/${work.id}/submissions/${handedIn.id}/comments`, { comment: 'Try again' })).json() as { id: string };
    return {
      classId: created.id,
      otherClassId: other.id,
      code: created.enrollmentCode,
      teachersGroup: created.teachersGroup.id,
      assignment: work.id,
      submission: handedIn.id,
      student: ids['pupil'] ?? '',
      outsider: ids['stranger'] ?? '',
      comment: comment.id,
    };
  };

  for (const route of ROUTES) {
    for (const [who, caller, statusOf] of refused) {
      const answer = await route.call(caller, await fixture());
      t.equal(answer.status, statusOf(route), `${route.route}: ${who}`);
      if (answer.status >= 400) t.match(answer.json(), { code: String, message: String }, `${route.route}: ${who} gets an error body`);
    }
    const members: Array<[string, ScoreApiClient]> = [
      ['the class teacher', teacher],
      ['another teacher', colleague],
      ['the enrolled student', pupil],
      ['another student', stranger],
    ];
    for (const [i, [who, caller]] of members.entries()) {
      const answer = await route.call(caller, await fixture());
      t.equal(answer.status, route.expected[i], `${route.route}: ${who}`);
      if (answer.status >= 400) t.match(answer.json(), { code: String, message: String }, `${route.route}: ${who} gets an error body`);
    }
  }
});

t.test('read-only education scopes read but do not write', async (t) => {
  const dataDir = await tempDir(t, 'edu-authz-ro-');
  const env = await scoreServiceEnv(dataDir);
  const service = await startService(t, { env });
  const teacher = scoreApiClient(service.baseUrl, await issueToken(env, 'teacher', 'edu.classes,edu.assignments'));
  const reader = scoreApiClient(service.baseUrl, await issueToken(env, 'teacher', 'edu.classes.readonly,edu.assignments.readonly'));
  const created = (await teacher.call('POST', '/v2/classes', { name: 'Choir' })).json() as { id: string; teachersGroup: { id: string } };
  const work = (await teacher.call('POST', `/v2/classes/${created.id}/assignments`, { title: 'Sing' })).json() as { id: string };
  const reads = [
    '/v2/classes',
    `/v2/classes/${created.id}`,
    `/v2/groups/${created.teachersGroup.id}/users`,
    `/v2/classes/${created.id}/assignments`,
    `/v2/classes/${created.id}/assignments/${work.id}/submissions`,
    `/v2/classes/${created.id}/assignments/${work.id}/submissions/csv`,
    `/v2/classes/${created.id}/assignments/${work.id}/submissions/excel`,
  ];
  for (const path of reads) t.equal((await reader.call('GET', path)).status, 200, `GET ${path}`);
  const writes: Array<[string, string, unknown]> = [
    ['POST', '/v2/classes', { name: 'x' }],
    ['PUT', `/v2/classes/${created.id}`, { name: 'x' }],
    ['POST', `/v2/classes/${created.id}/assignments`, { title: 'x' }],
    ['POST', `/v2/classes/${created.id}/assignments/${work.id}/archive`, undefined],
    ['POST', `/v2/classes/${created.id}/assignments/${work.id}/submissions/none/comments`, { comment: 'x' }],
    // A group's scores take the score scopes, not the education ones.
    ['GET', `/v2/groups/${created.teachersGroup.id}/scores`, undefined],
  ];
  for (const [method, path, body] of writes) {
    const answer = await reader.call(method, path, body);
    t.equal(answer.status, 403, `${method} ${path}`);
    t.match(answer.json(), { code: 'FORBIDDEN', message: /needs one of the scopes/ });
  }
});
