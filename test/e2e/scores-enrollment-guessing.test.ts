/**
 * Guessing enrollment codes: an account that gave SCORES_ENROLL_FAILURES_PER_MINUTE unknown codes
 * in a minute gets 429 with Retry-After, in the score API's error form, until the minute ends,
 * even for a right code; other accounts, and enrolments that succeed, are not slowed. The API
 * runs on a clock the test sets, so no test waits for a minute to pass.
 */
import { join } from 'node:path';
import t from 'tap';
import { openInProcessScores } from '../support/in-process-scores.js';
import { issueToken, scoreServiceEnv } from '../support/score-api-client.js';
import { tempDir } from '../support/temp-dir.js';

const SCOPES = 'edu.classes';
/** Twenty seconds into a minute: the window ends 40 s later. */
const START = Date.parse('2026-09-01T08:00:20.000Z');

t.test('failed enrolments per account are limited per minute, with 429 and Retry-After', async (t) => {
  const env = { ...(await scoreServiceEnv(join(await tempDir(t, 'edu-guess-'), 'data'))), SCORES_ENROLL_FAILURES_PER_MINUTE: '3' };
  let clock = START;
  const teacher = await issueToken(env, 'teacher', SCOPES);
  const guesser = await issueToken(env, 'guesser', SCOPES);
  const student = await issueToken(env, 'student', SCOPES);
  const api = await openInProcessScores(env, () => clock);
  t.teardown(() => api.close());
  const created = await api.call(teacher, 'POST', '/v2/classes', { name: 'Choir' });
  const code = String((created.json() as { enrollmentCode: string }).enrollmentCode);
  const enroll = (bearer: string, guess: string) => api.call(bearer, 'POST', `/v2/classes/enroll/${guess}`);

  for (const guess of ['AAAAAAAA', 'AAAAAAAB', 'AAAAAAAC']) {
    const answer = await enroll(guesser, guess);
    t.equal(answer.status, 404, `${guess}: an unknown code is looked up while the account has failures left`);
  }
  clock += 5_000;
  const throttled = await enroll(guesser, 'AAAAAAAD');
  t.equal(throttled.status, 429, 'the fourth failure in the minute is not looked up');
  t.match(throttled.json(), { code: 'API_RATE_LIMIT_EXCEEDED', message: /try again in 35 s/, param: 'enrollmentCode' });
  t.equal(throttled.header('Retry-After'), '35', 'Retry-After: the seconds left in the minute');
  t.equal((await enroll(guesser, code)).status, 429, 'not even the right code gets through: a guess cannot be confirmed');

  t.equal((await enroll(student, 'ZZZZZZZZ')).status, 404, 'another account keeps its own count');
  t.equal((await enroll(student, code)).status, 200, 'and enrolls');
  for (let i = 0; i < 5; i++) t.equal((await enroll(student, code)).status, 200, `enrolling again (${i + 1}) is not a failure`);
  t.equal((await enroll(student, 'ZZZZZZZY')).status, 404, 'successes did not count against the student');

  clock = START + 40_000;
  const next = await enroll(guesser, code);
  t.equal(next.status, 200, 'the next minute, the account may try again, and the right code enrolls it');
  t.match(next.json(), { id: (created.json() as { id: string }).id });
});

t.test('the limit is the setting: ten failures a minute by default', async (t) => {
  const env = await scoreServiceEnv(join(await tempDir(t, 'edu-guess-default-'), 'data'));
  const clock = START;
  const guesser = await issueToken(env, 'guesser', SCOPES);
  const api = await openInProcessScores(env, () => clock);
  t.teardown(() => api.close());
  const statuses: number[] = [];
  for (let i = 0; i < 12; i++) statuses.push((await api.call(guesser, 'POST', `/v2/classes/enroll/WRONG${String(i).padStart(3, '0')}`)).status);
  t.same(statuses, [...Array<number>(10).fill(404), 429, 429]);
});
