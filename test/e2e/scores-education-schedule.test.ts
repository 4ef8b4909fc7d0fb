/**
 * POST /classes/{class}/assignments/{assignment}/copy with `scheduledDate`: the copy is listed to
 * the destination's teachers at once and to its students from that date, not a millisecond
 * before, with a clock the test sets. The schedule is kept in the store, so it holds across a
 * restart before the date and after it.
 */
import { join } from 'node:path';
import t from 'tap';
import { openInProcessScores, type InProcessScores } from '../support/in-process-scores.js';
import { issueToken, scoreServiceEnv } from '../support/score-api-client.js';
import { tempDir } from '../support/temp-dir.js';

interface Listed {
  id: string;
  title: string;
  scheduledDate?: string;
  partnerGraph?: { state: string };
}

const SCOPES = 'edu.classes,edu.assignments';

t.test('a scheduled copy appears to students at its date, not before, across restarts', async (t) => {
  const env = await scoreServiceEnv(join(await tempDir(t, 'edu-schedule-'), 'data'));
  let clock = Date.parse('2026-03-01T08:00:00.000Z');
  const publication = '2026-03-02T08:00:00.000Z';
  const teacher = await issueToken(env, 'teacher', SCOPES);
  const student = await issueToken(env, 'student', SCOPES);
  let api: InProcessScores = await openInProcessScores(env, () => clock);
  t.teardown(() => api.close());
  const restart = async () => {
    await api.close();
    api = await openInProcessScores(env, () => clock);
  };
  const ok = async (bearer: string, method: string, path: string, body?: unknown) => {
    const answer = await api.call(bearer, method, path, body);
    if (answer.status !== 200) throw new Error(`${method} ${path}: ${answer.status} ${JSON.stringify(answer.json())}`);
    return answer.json() as Record<string, unknown> & { id: string };
  };
  const studentSees = async () => ((await ok(student, 'GET', `/v2/classes/${destination.id}/assignments`)) as unknown as Listed[]).map((a) => a.title);

  const source = await ok(teacher, 'POST', '/v2/classes', { name: 'Monday group' });
  const destination = await ok(teacher, 'POST', '/v2/classes', { name: 'Tuesday group' });
  await ok(student, 'POST', `/v2/classes/enroll/${String(destination['enrollmentCode'])}`);
  const original = await ok(teacher, 'POST', `/v2/classes/${source.id}/assignments`, { title: 'Scales', state: 'active', partnerGraph: { categories: ['warm-up'] } });
  await ok(teacher, 'POST', `/v2/classes/${destination.id}/assignments`, { title: 'Already out', state: 'active' });

  const copy = (await ok(teacher, 'POST', `/v2/classes/${source.id}/assignments/${original.id}/copy`, { classroom: destination.id, scheduledDate: publication })) as unknown as Listed;
  t.equal(copy.scheduledDate, publication, 'the copy carries the scheduled date');
  t.equal(copy.partnerGraph?.state, 'scheduled', 'and the partner suite sees it scheduled');
  const teacherList = (await ok(teacher, 'GET', `/v2/classes/${destination.id}/assignments`)) as unknown as Listed[];
  t.same(teacherList.map((a) => a.title), ['Already out', 'Scales'], 'teachers see the copy at once');
  t.same(await studentSees(), ['Already out'], 'students do not');
  t.equal((await api.call(student, 'GET', `/v2/classes/${destination.id}/assignments/${copy.id}`)).status, 404, 'nor can they open it');
  t.equal((await api.call(student, 'PUT', `/v2/classes/${destination.id}/assignments/${copy.id}/submissions`, { attachments: [] })).status, 404, 'nor submit to it');
  t.equal((await ok(student, 'GET', `/v2/classes/${destination.id}`))['assignmentsCount'], 1, 'the class counts what the student sees');

  await restart();
  clock = Date.parse(publication) - 1;
  t.same(await studentSees(), ['Already out'], 'after a restart, a millisecond before the date: still hidden');

  clock = Date.parse(publication);
  t.same(await studentSees(), ['Already out', 'Scales'], 'at the date: listed to students');
  const opened = (await ok(student, 'GET', `/v2/classes/${destination.id}/assignments/${copy.id}`)) as unknown as Listed;
  t.equal(opened.partnerGraph?.state, 'assigned', 'and assigned in the partner suite');
  t.equal((await api.call(student, 'PUT', `/v2/classes/${destination.id}/assignments/${copy.id}/submissions`, { attachments: [{ type: 'link', url: 'https://example.com/scales' }], submit: true })).status, 200, 'students can now turn it in');

  await restart();
  t.same(await studentSees(), ['Already out', 'Scales'], 'after another restart it is still there');
  const submissions = (await ok(teacher, 'GET', `/v2/classes/${destination.id}/assignments/${copy.id}/submissions`)) as unknown as Array<{ state: string }>;
  t.same(submissions.map((s) => s.state), ['turnedIn'], 'with the submission made before it');
});

t.test('a copy without scheduledDate keeps the original schedule; a past due date is dropped', async (t) => {
  const env = await scoreServiceEnv(join(await tempDir(t, 'edu-schedule-keep-'), 'data'));
  let clock = Date.parse('2026-05-10T12:00:00.000Z');
  const teacher = await issueToken(env, 'teacher', SCOPES);
  const api = await openInProcessScores(env, () => clock);
  t.teardown(() => api.close());
  const json = async (method: string, path: string, body?: unknown) => (await api.call(teacher, method, path, body)).json() as Record<string, unknown> & { id: string };
  const one = await json('POST', '/v2/classes', { name: 'One' });
  const two = await json('POST', '/v2/classes', { name: 'Two' });
  const planned = await json('POST', `/v2/classes/${one.id}/assignments`, { title: 'Later', state: 'active', scheduledDate: '2026-06-01T00:00:00Z', dueDate: '2026-06-08T00:00:00Z' });
  const copied = await json('POST', `/v2/classes/${one.id}/assignments/${planned.id}/copy`, { classroom: two.id });
  t.equal(copied['scheduledDate'], '2026-06-01T00:00:00.000Z', "the original's scheduled date");
  t.equal(copied['dueDate'], '2026-06-08T00:00:00.000Z', 'a due date still ahead is kept');
  clock = Date.parse('2026-06-09T00:00:00Z');
  const late = await json('POST', `/v2/classes/${one.id}/assignments/${planned.id}/copy`, { classroom: two.id });
  t.notOk('dueDate' in late, 'a due date already past is not copied');
  t.equal((await api.call(teacher, 'POST', `/v2/classes/${one.id}/assignments/${planned.id}/copy`, { classroom: two.id, scheduledDate: 'tomorrow' })).status, 400, 'a scheduledDate that is not a date-time is refused');
});
