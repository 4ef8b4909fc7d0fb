/**
 * What goes with an assignment's submissions, through the running service: the teachers' grade
 * exports (CSV, and a real .xlsx read back with exceljs), a submission's history of changes, the
 * feedback comments between its student and teachers, the partner link under both its names
 * (`partnerGraph`, and `microsoftGraph` as release 2.13.0 names it), and the scores shared with a
 * class's groups.
 */
import ExcelJS from 'exceljs';
import t from 'tap';
import { flatSchemaErrors } from '../support/flat-schema.js';
import { generatedScore } from '../support/generated-score.js';
import { issueToken, scoreApiClient, scoreServiceEnv, type ScoreApiClient } from '../support/score-api-client.js';
import { startService } from '../support/service-harness.js';
import { tempDir } from '../support/temp-dir.js';

type Tap = Parameters<Parameters<typeof t.test>[0]>[0];

const ADMIN = 'admin-secret-of-at-least-32-characters';
const SCOPES = 'edu.classes,edu.assignments,scores';

interface Classroom {
  id: string;
  enrollmentCode: string;
  teachersGroup: { id: string };
  studentsGroup: { id: string };
}

/** A class of `teacher` with students `pupil` and `pupil2`, an assignment (maxPoints 20) attaching the teacher's public score. */
async function classWithAssignment(t: Tap) {
  const dataDir = await tempDir(t, 'class-extras-');
  const env = await scoreServiceEnv(dataDir);
  const service = await startService(t, { env: { ...env, SCORES_ADMIN_TOKEN: ADMIN } });
  const admin = scoreApiClient(service.baseUrl, ADMIN);
  const ids: Record<string, string> = {};
  for (const [name, role] of [['teacher', 'teacher'], ['pupil', 'user'], ['pupil2', 'user'], ['outsider', 'user']] as const) {
    ids[name] = ((await admin.call('PUT', `/v2/admin/users/${name}`, { email: `=${name}@school.test`, organization: 'school', organizationRole: role })).json() as { id: string }).id;
  }
  const client = async (name: string, scopes = SCOPES): Promise<ScoreApiClient> => scoreApiClient(service.baseUrl, await issueToken(env, name, scopes));
  const [teacher, pupil, pupil2, outsider] = [await client('teacher'), await client('pupil'), await client('pupil2'), await client('outsider')];
  const classroom = (await teacher.call('POST', '/v2/classes', { name: 'Strings' })).json() as Classroom;
  for (const student of [pupil, pupil2]) t.equal((await student.call('POST', `/v2/classes/enroll/${classroom.enrollmentCode}`)).status, 200);
  const score = ((await teacher.call('POST', '/v2/scores', { privacy: 'private', data: generatedScore({ title: 'Etude', measures: 1, parts: 1 }) })).json() as { id: string }).id;
  const created = await teacher.call('POST', `/v2/classes/${classroom.id}/assignments`, { title: 'Play: the "Etude", part 1', maxPoints: 20, attachments: [{ type: 'flat', score }] });
  t.equal(created.status, 200, created.text);
  const assignment = (created.json() as { id: string }).id;
  const base = `/v2/classes/${classroom.id}/assignments/${assignment}`;
  return { service, ids, teacher, pupil, pupil2, outsider, classroom, score, base };
}

/** The pupil hands the score in and the teacher grades and returns it: four changes. */
async function gradedSubmission(t: Tap, c: Awaited<ReturnType<typeof classWithAssignment>>): Promise<string> {
  const started = await c.pupil.call('PUT', `${c.base}/submissions`, { attachments: [{ type: 'flat', score: c.score }] });
  t.equal(started.status, 200, started.text);
  const id = (started.json() as { id: string }).id;
  t.equal((await c.pupil.call('PUT', `${c.base}/submissions`, { submit: true })).status, 200);
  t.equal((await c.teacher.call('PUT', `${c.base}/submissions/${id}`, { draftGrade: 15 })).status, 200);
  t.equal((await c.teacher.call('PUT', `${c.base}/submissions/${id}`, { return: true })).status, 200);
  return id;
}

t.test('grade exports: CSV and Excel list every student with their submission, for teachers', async (t) => {
  const c = await classWithAssignment(t);
  await gradedSubmission(t, c);

  // Regression: `…/submissions/csv` was taken for a submission named "csv" and answered 404.
  const csv = await c.teacher.call('GET', `${c.base}/submissions/csv`);
  t.equal(csv.status, 200, csv.text);
  t.match(csv.type, /^text\/csv/);
  const lines = csv.text.trimEnd().split('\r\n');
  t.equal(lines[0], 'Username,First name,Last name,Email,State,Submission date,Return date,Draft grade,Grade,Max points');
  t.match(lines[1], /^pupil,,,'=pupil@school\.test,returned,\d{4}-\d\d-\d\dT[^,]+Z,\d{4}-\d\d-\d\dT[^,]+Z,15,15,20$/, "the pupil's row; a cell a spreadsheet would take for a formula is quoted");
  t.equal(lines[2], "pupil2,,,'=pupil2@school.test,,,,,,20", 'a student without a submission has empty cells');
  t.equal(lines.length, 3, 'the teacher is not a row');

  const excel = await c.teacher.call('GET', `${c.base}/submissions/excel`);
  t.equal(excel.status, 200);
  t.equal(excel.type, 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
  t.match(await c.teacher.call('GET', `${c.base}/submissions/excel`), {});
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(Buffer.from(excel.bytes) as unknown as ArrayBuffer);
  const sheet = workbook.worksheets[0];
  t.equal(sheet?.name, 'Play the "Etude", part 1', 'the sheet is named after the assignment, without the characters sheet names refuse');
  t.same(sheet?.getRow(1).values, [undefined, 'Username', 'First name', 'Last name', 'Email', 'State', 'Submission date', 'Return date', 'Draft grade', 'Grade', 'Max points']);
  const pupilRow = sheet?.getRow(2);
  t.equal(pupilRow?.getCell(1).value, 'pupil');
  t.equal(pupilRow?.getCell(4).value, '=pupil@school.test', 'a text cell, not a formula');
  t.equal(pupilRow?.getCell(5).value, 'returned');
  t.ok(pupilRow?.getCell(6).value instanceof Date, 'dates are Excel dates');
  t.same([pupilRow?.getCell(8).value, pupilRow?.getCell(9).value, pupilRow?.getCell(10).value], [15, 15, 20]);
  t.equal(sheet?.getRow(3).getCell(1).value, 'pupil2');
  t.equal(sheet?.getRow(3).getCell(5).value, null);
  t.equal(sheet?.rowCount, 3);

  for (const format of ['csv', 'excel']) {
    t.match((await c.pupil.call('GET', `${c.base}/submissions/${format}`)).json(), { code: 'FORBIDDEN' }, `students do not export ${format}`);
    t.equal((await c.outsider.call('GET', `${c.base}/submissions/${format}`)).status, 403);
  }
  t.equal((await c.teacher.call('GET', `/v2/classes/${c.classroom.id}/assignments/000000000000000000000000/submissions/csv`)).status, 404);
});

t.test("a submission's history: each change with who made it, for teachers; a reset starts it over", async (t) => {
  const c = await classWithAssignment(t);
  const id = await gradedSubmission(t, c);
  const answer = await c.teacher.call('GET', `${c.base}/submissions/${id}/history`);
  t.equal(answer.status, 200, answer.text);
  const history = answer.json() as Array<Record<string, unknown>>;
  for (const entry of history) t.same(flatSchemaErrors('AssignmentSubmissionHistory', entry), []);
  t.match(history, [
    { users: [c.ids['pupil']], state: 'created', maxPoints: 20, attachment: { score: c.score, revision: String } },
    { users: [c.ids['pupil']], state: 'turnedIn' },
    { users: [c.ids['teacher']], state: 'turnedIn', draftGrade: 15 },
    { users: [c.ids['teacher']], state: 'returned', draftGrade: 15, grade: 15 },
  ]);
  t.equal(history.length, 4);
  t.notOk('grade' in (history[0] ?? {}), 'no grade yet: absent');
  t.match((await c.pupil.call('GET', `${c.base}/submissions/${id}/history`)).json(), { code: 'FORBIDDEN' }, 'for teachers only');
  t.equal((await c.teacher.call('GET', `${c.base}/submissions/000000000000000000000000/history`)).status, 404);

  t.equal((await c.teacher.call('DELETE', `${c.base}/submissions/${id}`)).status, 204);
  const again = ((await c.pupil.call('PUT', `${c.base}/submissions`, { attachments: [] })).json() as { id: string }).id;
  t.match((await c.teacher.call('GET', `${c.base}/submissions/${again}/history`)).json(), [{ state: 'created' }]);
  t.equal(((await c.teacher.call('GET', `${c.base}/submissions/${again}/history`)).json() as unknown[]).length, 1, 'the reset submission starts a history of its own');
});

t.test('feedback comments between the student and the teachers', async (t) => {
  const c = await classWithAssignment(t);
  const id = (((await c.pupil.call('PUT', `${c.base}/submissions`, { attachments: [] })).json()) as { id: string }).id;
  const comments = `${c.base}/submissions/${id}/comments`;
  const posted = await c.teacher.call('POST', comments, { comment: 'Mind the tempo in bar 3' });
  t.equal(posted.status, 200, posted.text);
  const fromTeacher = posted.json() as { id: string };
  t.same(flatSchemaErrors('AssignmentSubmissionComment', fromTeacher), []);
  t.match(fromTeacher, { user: c.ids['teacher'], submission: id, comment: 'Mind the tempo in bar 3', unread: false });

  t.match((await c.pupil.call('GET', comments)).json(), [{ id: fromTeacher.id, unread: true }], 'unread by the student');
  t.match((await c.pupil.call('GET', comments)).json(), [{ id: fromTeacher.id, unread: false }], 'read once listed');
  const reply = (await c.pupil.call('POST', comments, { comment: 'Thanks!' })).json() as { id: string };
  t.match((await c.teacher.call('GET', comments)).json(), [{ id: fromTeacher.id, unread: false }, { id: reply.id, user: c.ids['pupil'], unread: true }]);

  const edited = await c.teacher.call('PUT', `${comments}/${fromTeacher.id}`, { comment: 'Mind the tempo in bar 4' });
  t.match(edited.json(), { comment: 'Mind the tempo in bar 4', modificationDate: String });
  t.match((await c.pupil.call('GET', comments)).json(), [{ comment: 'Mind the tempo in bar 4', unread: true }, { unread: false }], 'a rewritten comment is unread again');
  t.match((await c.pupil.call('PUT', `${comments}/${fromTeacher.id}`, { comment: 'mine now' })).json(), { code: 'FORBIDDEN' }, "only its author changes it");
  t.match((await c.pupil2.call('GET', comments)).json(), { code: 'FORBIDDEN' }, "another student does not see them");
  t.equal((await c.outsider.call('POST', comments, { comment: 'hi' })).status, 403);
  for (const body of [{}, { comment: '   ' }, { comment: 'x'.repeat(10_001) }, { comment: 7 }]) {
    t.match((await c.pupil.call('POST', comments, body)).json(), { code: 'BAD_REQUEST', param: 'comment' }, `refused: ${JSON.stringify(body).slice(0, 40)}`);
  }
  t.match((await c.teacher.call('PUT', `${comments}/000000000000000000000000`, { comment: 'x' })).json(), { code: 'NOT_FOUND', param: 'comment' });
  t.equal((await c.teacher.call('DELETE', `${comments}/${reply.id}`)).status, 204, "a teacher deletes the student's comment");
  t.equal((await c.pupil.call('DELETE', `${comments}/${fromTeacher.id}`)).status, 403, "the student does not delete the teacher's");
  t.same(((await c.teacher.call('GET', comments)).json() as Array<{ id: string }>).map((comment) => comment.id), [fromTeacher.id]);
  t.equal((await c.teacher.call('DELETE', `${c.base}/submissions/${id}`)).status, 204);
  const restarted = ((await c.pupil.call('PUT', `${c.base}/submissions`, { attachments: [] })).json() as { id: string }).id;
  t.same((await c.pupil.call('GET', `${c.base}/submissions/${restarted}/comments`)).json(), [], 'a reset takes the comments with it');
});

t.test('the partner link is served as partnerGraph and microsoftGraph, and accepted under either name', async (t) => {
  const c = await classWithAssignment(t);
  const assignments = `/v2/classes/${c.classroom.id}/assignments`;
  const created = (await c.teacher.call('POST', assignments, { title: 'Teams', microsoftGraph: { categories: ['c1'] } })).json() as Record<string, { id: string; categories: string[] }>;
  t.match(created['microsoftGraph'], { id: String, state: 'assigned', alternateLink: String, categories: ['c1'] });
  t.same(created['microsoftGraph'], created['partnerGraph'], 'the same link under both names');
  t.same(flatSchemaErrors('MicrosoftGraphAssignment', created['microsoftGraph']), []);
  const id = (created as unknown as { id: string }).id;
  const renamed = (await c.teacher.call('PUT', `${assignments}/${id}`, { partnerGraph: { categories: ['c2'] } })).json() as Record<string, { categories: string[] }>;
  t.same(renamed['microsoftGraph']?.categories, ['c2']);
  const submission = (await c.pupil.call('PUT', `${assignments}/${id}/submissions`, { attachments: [] })).json() as Record<string, unknown>;
  t.match(submission['microsoftGraph'], { id: String, state: 'working', alternateLink: String });
  t.same(submission['microsoftGraph'], submission['partnerGraph']);
  t.same(flatSchemaErrors('MicrosoftGraphSubmission', submission['microsoftGraph']), []);
  const removed = (await c.teacher.call('PUT', `${assignments}/${id}`, { microsoftGraph: null })).json() as Record<string, unknown>;
  t.notOk('microsoftGraph' in removed || 'partnerGraph' in removed, 'null under either name removes it');
  t.match((await c.teacher.call('POST', assignments, { microsoftGraph: 'teams' })).json(), { code: 'BAD_REQUEST', param: 'microsoftGraph' });
  t.match((await c.teacher.call('POST', assignments, { microsoftGraph: { categories: [] }, partnerGraph: { categories: [] } })).json(), { code: 'BAD_REQUEST', param: 'microsoftGraph' });
});

t.test("a group's scores: those its class's assignments share with it", async (t) => {
  const c = await classWithAssignment(t);
  const draftScore = ((await c.teacher.call('POST', '/v2/scores', { privacy: 'private', data: generatedScore({ title: 'Draft', measures: 1, parts: 1 }) })).json() as { id: string }).id;
  t.equal((await c.teacher.call('POST', `/v2/classes/${c.classroom.id}/assignments`, { title: 'Later', state: 'draft', attachments: [{ type: 'flat', score: draftScore }] })).status, 200);
  const titles = async (client: ScoreApiClient, group: string) => {
    const answer = await client.call('GET', `/v2/groups/${group}/scores`);
    t.equal(answer.status, 200, answer.text);
    const scores = answer.json() as Array<{ title: string }>;
    for (const score of scores) t.same(flatSchemaErrors('ScoreDetails', score), []);
    return scores.map((score) => score.title);
  };
  t.same(await titles(c.pupil, c.classroom.studentsGroup.id), ['Etude'], 'the students group: the published assignment’s score');
  t.same(await titles(c.teacher, c.classroom.studentsGroup.id), ['Etude']);
  t.same(await titles(c.teacher, c.classroom.teachersGroup.id), ['Etude', 'Draft'], 'the teachers group: every assignment’s, drafts too');
  t.match((await c.pupil.call('GET', `/v2/groups/${c.classroom.teachersGroup.id}/scores`)).json(), { code: 'FORBIDDEN' }, "students do not list the teachers' group");
  t.equal((await c.outsider.call('GET', `/v2/groups/${c.classroom.studentsGroup.id}/scores`)).status, 403);
  t.equal((await c.pupil.call('GET', '/v2/groups/000000000000000000000000/scores')).status, 404);
  const fork = ((await c.teacher.call('POST', `/v2/scores/${c.score}/fork`, {})).json() as { id: string }).id;
  t.equal((await c.teacher.call('POST', `/v2/classes/${c.classroom.id}/assignments`, { title: 'Arranged', state: 'draft', attachments: [{ type: 'flat', score: fork }] })).status, 200);
  const forks = (await c.teacher.call('GET', `/v2/groups/${c.classroom.teachersGroup.id}/scores?parent=${c.score}`)).json() as Array<{ id: string; parentScore: string }>;
  t.match(forks, [{ id: fork, parentScore: c.score }], '`parent` keeps the forks of that score');
  t.equal((await c.teacher.call('DELETE', `/v2/scores/${c.score}`)).status, 204);
  t.same(await titles(c.pupil, c.classroom.studentsGroup.id), [], 'a trashed score is not listed');
});
