/**
 * A student's score attached to a submission is handed to the class's teachers: they read it,
 * its revisions and its exports, but do not change it or record on it; classmates, teachers of
 * other classes and outsiders get 403 as before.
 */
import t from 'tap';
import { generatedScore } from '../support/generated-score.js';
import { issueToken, scoreApiClient, scoreServiceEnv, type ScoreApiClient } from '../support/score-api-client.js';
import { startService } from '../support/service-harness.js';
import { tempDir } from '../support/temp-dir.js';

const SCOPES = 'edu.classes,edu.assignments,scores';
const XML = generatedScore({ title: 'Homework', measures: 2, parts: 1 });

t.test("a teacher reads, and only reads, the score a student attached to a submission of the teacher's class", async (t) => {
  const dataDir = await tempDir(t, 'scores-submission-sharing-');
  const env = await scoreServiceEnv(dataDir);
  const service = await startService(t, { env });
  const client = async (name: string) => scoreApiClient(service.baseUrl, await issueToken(env, name, SCOPES));
  const [teacher, student, classmate, otherTeacher, outsider] = [await client('teacher'), await client('student'), await client('classmate'), await client('other-teacher'), await client('outsider')];
  const ok = async (caller: ScoreApiClient, method: string, path: string, body?: unknown) => {
    const answer = await caller.call(method, path, body);
    if (answer.status !== 200) throw new Error(`${method} ${path}: ${answer.status} ${answer.text}`);
    return answer.json() as { id: string; enrollmentCode: string };
  };

  const classroom = await ok(teacher, 'POST', '/v2/classes', { name: 'Harmony' });
  await ok(otherTeacher, 'POST', '/v2/classes', { name: 'Another class' });
  await ok(student, 'POST', `/v2/classes/enroll/${classroom.enrollmentCode}`);
  await ok(classmate, 'POST', `/v2/classes/enroll/${classroom.enrollmentCode}`);
  const assignment = await ok(teacher, 'POST', `/v2/classes/${classroom.id}/assignments`, { title: 'Write a chorale', state: 'active' });
  const score = (await ok(student, 'POST', '/v2/scores', { privacy: 'private', data: XML })).id;
  const path = `/v2/scores/${score}`;
  t.equal((await teacher.call('GET', path)).status, 403, 'before it is handed in, the score is private to the student');
  await ok(student, 'PUT', `/v2/classes/${classroom.id}/assignments/${assignment.id}/submissions`, { attachments: [{ type: 'flat', score }], submit: true });

  const reads: Array<[string, string]> = [
    ['the score', path],
    ['its revisions', `${path}/revisions`],
    ['its newest revision', `${path}/revisions/last`],
    ['its MusicXML export', `${path}/revisions/last/xml`],
    ['its tracks', `${path}/tracks`],
  ];
  for (const [what, route] of reads) t.equal((await teacher.call('GET', route)).status, 200, `the teacher reads ${what}`);
  t.equal((await teacher.call('GET', `${path}/revisions/last/xml`)).text, XML, 'the MusicXML the student wrote');

  const writes: Array<[string, string, string, unknown]> = [
    ['edit it', 'PUT', path, { title: 'Mine now' }],
    ['add a revision', 'POST', `${path}/revisions`, { data: XML }],
    ['record on it', 'POST', `${path}/tracks`, { url: 'https://youtu.be/abc' }],
    ['trash it', 'DELETE', path, undefined],
  ];
  for (const [what, method, route, body] of writes) {
    const answer = await teacher.call(method, route, body);
    t.equal(answer.status, 403, `the teacher may not ${what}`);
    t.match(answer.json(), { code: 'FORBIDDEN', message: String });
  }
  for (const [who, caller] of [['a classmate', classmate], ['a teacher of another class', otherTeacher], ['an outsider', outsider]] as const) {
    const answer = await caller.call('GET', path);
    t.equal(answer.status, 403, `${who} still may not read it`);
    t.match(answer.json(), { code: 'FORBIDDEN', message: 'Not granted to read this score' });
  }
  t.match((await student.call('GET', path)).json(), { id: score, title: 'Homework' }, 'the score is unchanged and still the student’s');
});
