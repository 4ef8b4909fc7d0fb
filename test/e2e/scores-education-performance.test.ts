/**
 * A performance assignment from start to reset and back: the student records the teacher's score
 * (an uploaded audio file through the tracks API), turns it in, is graded; the teacher resets the
 * submission; the student records again and turns the new take in. The recordings stay the
 * student's; the assignment's track filter follows the submissions.
 */
import t from 'tap';
import { generatedScore } from '../support/generated-score.js';
import { issueToken, scoreApiClient, scoreServiceEnv, type ScoreApiClient } from '../support/score-api-client.js';
import { startService } from '../support/service-harness.js';
import { tempDir } from '../support/temp-dir.js';

function recording(bytes: Uint8Array, title: string): FormData {
  const form = new FormData();
  form.append('title', title);
  form.append('file', new Blob([bytes], { type: 'audio/wav' }), `${title}.wav`);
  return form;
}

async function ok(client: ScoreApiClient, method: string, path: string, body?: unknown): Promise<Record<string, unknown> & { id: string }> {
  const answer = await client.call(method, path, body);
  if (answer.status !== 200) throw new Error(`${method} ${path}: ${answer.status} ${answer.text}`);
  return answer.json() as Record<string, unknown> & { id: string };
}

t.test('a teacher resets a performance submission and the student turns in a new recording', async (t) => {
  const env = await scoreServiceEnv(await tempDir(t, 'edu-performance-'));
  const service = await startService(t, { env: { ...env, API_MAX_REQUEST_BYTES: String(4 * 1024 * 1024) } });
  const scopes = 'edu.classes,edu.assignments,scores,account.public_profile';
  const teacher = scoreApiClient(service.baseUrl, await issueToken(env, 'teacher', scopes));
  const student = scoreApiClient(service.baseUrl, await issueToken(env, 'student', scopes));
  const classmate = scoreApiClient(service.baseUrl, await issueToken(env, 'classmate', scopes));

  const score = await ok(teacher, 'POST', '/v2/scores', { privacy: 'private', data: generatedScore({ title: 'Minuet', measures: 2, parts: 1 }) });
  t.equal((await student.call('GET', `/v2/scores/${score.id}`)).status, 403, 'the private score is closed to the student before it is assigned');
  const classroom = await ok(teacher, 'POST', '/v2/classes', { name: 'Piano' });
  for (const member of [student, classmate]) await ok(member, 'POST', `/v2/classes/enroll/${String(classroom['enrollmentCode'])}`);
  const assignment = await ok(teacher, 'POST', `/v2/classes/${classroom.id}/assignments`, {
    title: 'Play the minuet',
    type: 'performance',
    maxPoints: 20,
    attachments: [{ type: 'flat', score: score.id, sharingMode: 'performance' }],
  });
  const submissions = `/v2/classes/${classroom.id}/assignments/${assignment.id}/submissions`;
  const tracks = `/v2/scores/${score.id}/tracks`;

  t.equal((await student.call('GET', `/v2/scores/${score.id}`)).status, 200, 'the assignment shares the score with its students');
  const audio = (await student.call('GET', `/v2/scores/${score.id}/revisions/last/wav`)).bytes;
  const firstTake = await ok(student, 'POST', tracks, recording(audio, 'first-take'));
  t.equal(firstTake['creator'], ((await student.call('GET', '/v2/me')).json() as { id: string }).id, 'the recording is the student’s track');
  t.equal((await student.call('PUT', submissions, { attachments: [{ type: 'flat', score: score.id }], submit: true })).status, 400, 'a performance is not turned in without a recording');
  const handedIn = await ok(student, 'PUT', submissions, { attachments: [{ type: 'flat', score: score.id, track: firstTake.id }], submit: true });
  t.match(handedIn, { state: 'turnedIn', track: firstTake.id, attachments: [{ type: 'performance', score: score.id, track: firstTake.id, sharingMode: 'performance' }] });
  t.equal((await classmate.call('PUT', submissions, { attachments: [{ type: 'flat', score: score.id, track: firstTake.id }] })).status, 400, 'a classmate cannot hand in someone else’s recording');

  const listed = (await teacher.call('GET', `${tracks}?assignment=${assignment.id}`)).json() as Array<{ id: string; url: string }>;
  t.same(listed.map((track) => track.id), [firstTake.id], 'the teacher finds the recording by assignment');
  t.same((await teacher.call('GET', listed[0]?.url ?? '')).bytes, audio, 'and hears exactly what was uploaded');
  t.match(await ok(teacher, 'PUT', `${submissions}/${handedIn.id}`, { draftGrade: 12, return: true }), { state: 'returned', grade: 12 }, 'graded and returned');

  t.equal((await student.call('DELETE', `${submissions}/${handedIn.id}`)).status, 403, 'a student cannot reset');
  t.equal((await teacher.call('DELETE', `${submissions}/${handedIn.id}`)).status, 204, 'the teacher resets the submission');
  t.equal((await student.call('GET', `${submissions}/${handedIn.id}`)).status, 404, 'it is gone');
  t.same((await student.call('GET', submissions)).json(), [], 'the student has no submission any more');
  t.equal((await student.call('GET', `${tracks}/${firstTake.id}`)).status, 200, 'the first recording is still the student’s');
  t.same((await teacher.call('GET', `${tracks}?assignment=${assignment.id}`)).json(), [], 'and no longer part of the assignment');

  const secondTake = await ok(student, 'POST', tracks, recording(audio, 'second-take'));
  const started = await ok(student, 'PUT', submissions, { attachments: [{ type: 'flat', score: score.id, track: secondTake.id }] });
  t.not(started.id, handedIn.id, 'the student starts a new submission');
  t.match(started, { state: 'created', grade: null, draftGrade: null, track: secondTake.id });
  t.notOk('returnDate' in started || 'submissionDate' in started, 'with no dates of the old one');
  t.match(await ok(student, 'PUT', submissions, { submit: true }), { state: 'turnedIn', track: secondTake.id }, 'and turns the new take in');
  t.same(((await teacher.call('GET', `${tracks}?assignment=${assignment.id}`)).json() as Array<{ id: string }>).map((x) => x.id), [secondTake.id], 'the assignment now holds the second take');
  t.equal((await student.call('PUT', `${tracks}/${secondTake.id}`, { default: true })).status, 403, "a student's take cannot become the score's default track");
});
