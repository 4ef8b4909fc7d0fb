/**
 * Every acknowledged write of the score API survives kill -9: scores, revisions, edits, the
 * trash, tracks with their recordings and profile pictures are all there after a restart on the
 * same DATA_DIR, as the files they point at.
 */
import { join } from 'node:path';
import t from 'tap';
import { generatedScore } from '../support/generated-score.js';
import { startProcess } from '../support/process-harness.js';
import { issueToken, scoreApiClient, scoreServiceEnv } from '../support/score-api-client.js';
import { tempDir } from '../support/temp-dir.js';

t.test('score API writes survive kill -9 right after they were acknowledged', async (t) => {
  const dataDir = join(await tempDir(t, 'scores-durable-'), 'data');
  const env = { ...(await scoreServiceEnv(dataDir)), RUNTIME_ROOT: '/nonexistent', HTTP_WORKERS: '1' };
  const first = await startProcess(t, env);
  const token = await issueToken(env, 'alice', 'scores,account.public_profile');
  const alice = scoreApiClient(first.baseUrl, token);
  const score = (await alice.call('POST', '/v2/scores', { privacy: 'private', data: generatedScore({ title: 'Kept', measures: 2, parts: 1 }) })).json() as { id: string };
  const revision = (await alice.call('POST', `/v2/scores/${score.id}/revisions`, { data: generatedScore({ title: 'Kept', measures: 3, parts: 1 }), description: 'longer' })).json() as { id: string };
  t.equal((await alice.call('PUT', `/v2/scores/${score.id}`, { title: 'Kept and renamed' })).status, 200);
  const trashed = (await alice.call('POST', '/v2/scores', { privacy: 'public', data: generatedScore({ title: 'Trashed', measures: 1, parts: 1 }) })).json() as { id: string };
  t.equal((await alice.call('DELETE', `/v2/scores/${trashed.id}`)).status, 204);
  const mp3 = (await alice.call('GET', `/v2/scores/${score.id}/revisions/last/mp3`)).bytes;
  const form = new FormData();
  form.append('title', 'Take 1');
  form.append('file', new Blob([mp3], { type: 'audio/mpeg' }), 'take1.mp3');
  const track = (await alice.call('POST', `/v2/scores/${score.id}/tracks`, form)).json() as { id: string };
  t.equal((await alice.call('PUT', `/v2/scores/${score.id}/tracks/${track.id}`, { state: 'completed' })).status, 200);
  const png = (await alice.call('GET', `/v2/scores/${score.id}/revisions/last/thumbnail.png`)).bytes;
  const me = (await alice.call('PUT', '/v2/me/picture', png, { 'content-type': 'image/png' })).json() as { pictureFile: string };
  first.kill('SIGKILL');
  await first.waitForExit();

  const second = await startProcess(t, env);
  const again = scoreApiClient(second.baseUrl, token);
  t.match((await again.call('GET', `/v2/scores/${score.id}`)).json(), { title: 'Kept and renamed', numberMeasures: 3 }, 'the score and its edit');
  t.match((await again.call('GET', `/v2/scores/${score.id}/revisions/last`)).json(), { id: revision.id, description: 'longer' }, 'the new revision');
  t.equal((await again.call('GET', `/v2/scores/${trashed.id}`)).status, 404, 'the trashed score is still in the trash');
  t.equal((await again.call('POST', `/v2/scores/${trashed.id}/untrash`)).status, 204, 'and can come back');
  const kept = (await again.call('GET', `/v2/scores/${score.id}/tracks/${track.id}`)).json() as { state: string; url: string };
  t.match(kept, { title: 'Take 1', state: 'completed' }, 'the track and its edit');
  t.same((await scoreApiClient(second.baseUrl, undefined).call('GET', kept.url.replace(first.baseUrl, second.baseUrl))).bytes, mp3, 'its recording');
  const profile = (await again.call('GET', '/v2/me')).json() as { pictureFile: string; picture: string };
  t.equal(profile.pictureFile, me.pictureFile, 'the picture');
  t.same((await again.call('GET', profile.picture)).bytes, png, 'and its file');
  t.equal((await again.call('GET', `/v2/scores/${score.id}/revisions/last/mp3?onlyCached=true`)).status, 200, 'exports produced before are still cached');
});

t.test('education writes survive kill -9 right after they were acknowledged', async (t) => {
  const dataDir = join(await tempDir(t, 'edu-durable-'), 'data');
  const env = { ...(await scoreServiceEnv(dataDir)), RUNTIME_ROOT: '/nonexistent', HTTP_WORKERS: '1', SCORES_ADMIN_TOKEN: 'admin-secret-of-at-least-32-characters' };
  const first = await startProcess(t, env);
  const admin = scoreApiClient(first.baseUrl, 'admin-secret-of-at-least-32-characters');
  await admin.call('PUT', '/v2/admin/users/elsewhere', { email: 'elsewhere@other.test', organization: 'other-school' });
  const scopes = 'edu.classes,edu.assignments,scores';
  const teacherToken = await issueToken(env, 'teacher', scopes);
  const studentToken = await issueToken(env, 'student', scopes);
  const teacher = scoreApiClient(first.baseUrl, teacherToken);
  const student = scoreApiClient(first.baseUrl, studentToken);
  const score = (await teacher.call('POST', '/v2/scores', { privacy: 'public', data: generatedScore({ title: 'Duet', measures: 2, parts: 1 }) })).json() as { id: string };
  const classroom = (await teacher.call('POST', '/v2/classes', { name: 'Ensemble' })).json() as { id: string; enrollmentCode: string };
  const other = (await teacher.call('POST', '/v2/classes', { name: 'Next term' })).json() as { id: string };
  t.equal((await student.call('POST', `/v2/classes/enroll/${classroom.enrollmentCode}`)).status, 200);
  const synced = (await teacher.call('POST', `/v2/classes/${classroom.id}/roster`, { users: [{ email: 'elsewhere@other.test' }] })).json() as { issues: unknown };
  const work = (await teacher.call('POST', `/v2/classes/${classroom.id}/assignments`, { title: 'Record it', type: 'performance', maxPoints: 20, attachments: [{ type: 'flat', score: score.id, sharingMode: 'performance' }], partnerGraph: { categories: ['c1'] } })).json() as { id: string };
  const copy = (await teacher.call('POST', `/v2/classes/${classroom.id}/assignments/${work.id}/copy`, { classroom: other.id, scheduledDate: '2099-01-01T00:00:00Z' })).json() as { id: string };
  const track = (await student.call('POST', `/v2/scores/${score.id}/tracks`, { url: 'https://youtu.be/take1' })).json() as { id: string };
  const handedIn = (await student.call('PUT', `/v2/classes/${classroom.id}/assignments/${work.id}/submissions`, { attachments: [{ type: 'flat', score: score.id, track: track.id }], submit: true })).json() as { id: string };
  t.equal((await teacher.call('PUT', `/v2/classes/${classroom.id}/assignments/${work.id}/submissions/${handedIn.id}`, { draftGrade: 17, return: true })).status, 200);
  const reset = (await teacher.call('POST', `/v2/classes/${classroom.id}/assignments`, { title: 'Reset me' })).json() as { id: string };
  const toReset = (await student.call('PUT', `/v2/classes/${classroom.id}/assignments/${reset.id}/submissions`, { attachments: [{ type: 'link', url: 'https://example.com' }] })).json() as { id: string };
  t.equal((await teacher.call('DELETE', `/v2/classes/${classroom.id}/assignments/${reset.id}/submissions/${toReset.id}`)).status, 204);
  first.kill('SIGKILL');
  await first.waitForExit();

  const second = await startProcess(t, env);
  const teacherAgain = scoreApiClient(second.baseUrl, teacherToken);
  const studentAgain = scoreApiClient(second.baseUrl, studentToken);
  const kept = (await teacherAgain.call('GET', `/v2/classes/${classroom.id}`)).json() as { issues: unknown; studentsGroup: { usersCount: number } };
  t.same(kept.issues, synced.issues, 'the class and its synchronization issues');
  t.equal(kept.studentsGroup.usersCount, 1, 'its enrolled student');
  t.match((await teacherAgain.call('GET', `/v2/classes/${other.id}/assignments/${copy.id}`)).json(), { scheduledDate: '2099-01-01T00:00:00.000Z', partnerGraph: { state: 'scheduled', categories: ['c1'] } }, 'the scheduled copy');
  t.equal((await studentAgain.call('GET', `/v2/classes/${other.id}/assignments`)).status, 403, 'which the student, not in that class, cannot list');
  t.match(
    (await studentAgain.call('GET', `/v2/classes/${classroom.id}/assignments/${work.id}/submissions/${handedIn.id}`)).json(),
    { state: 'returned', grade: 17, track: track.id, attachments: [{ type: 'performance', track: track.id }] },
    'the graded, returned submission with its recording',
  );
  t.equal((await teacherAgain.call('GET', `/v2/classes/${classroom.id}/assignments/${reset.id}/submissions/${toReset.id}`)).status, 404, 'the reset submission stays gone');
  t.same(((await teacherAgain.call('GET', `/v2/scores/${score.id}/tracks?assignment=${work.id}`)).json() as Array<{ id: string }>).map((x) => x.id), [track.id], 'the track filter by assignment');
});
