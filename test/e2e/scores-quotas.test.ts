/**
 * Per-account quotas through the HTTP front: revisions posted in a loop stop at the account's
 * bytes (SCORES_ACCOUNT_MAX_BYTES) and at SCORES_MAX_REVISIONS_PER_SCORE, uploads at
 * SCORES_ACCOUNT_MAX_UPLOADS and at the bytes, each refused with Flat's 402 "Account overquota" in
 * the score API's error form, storing nothing; deleting for good makes room again. The bounds
 * are small so that a few requests reach them.
 */
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import t from 'tap';
import { generatedScore } from '../support/generated-score.js';
import { issueToken, scoreApiClient, scoreServiceEnv, type ScoreApiClient } from '../support/score-api-client.js';
import { startService } from '../support/service-harness.js';
import { tempDir } from '../support/temp-dir.js';

const XML = generatedScore({ title: 'Loop', measures: 4, parts: 1 });
const XML_BYTES = Buffer.byteLength(XML);
const PNG = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex');

/** A WAV recording as the upload check knows it (RIFF…WAVE), `bytes` long. */
function wav(bytes: number): Uint8Array {
  const file = Buffer.alloc(bytes);
  file.write('RIFF', 0, 'latin1');
  file.write('WAVE', 8, 'latin1');
  return file;
}

function recording(bytes: number): FormData {
  const form = new FormData();
  form.append('file', new Blob([wav(bytes)], { type: 'audio/wav' }), 'take.wav');
  return form;
}

async function scoreOf(client: ScoreApiClient): Promise<string> {
  const created = await client.call('POST', '/v2/scores', { privacy: 'private', data: XML });
  if (created.status !== 200) throw new Error(created.text);
  return (created.json() as { id: string }).id;
}

t.test("revisions in a loop stop at the account's bytes, with 402, and deleting a score for good makes room", async (t) => {
  const dataDir = await tempDir(t, 'scores-quota-bytes-');
  const env = { ...(await scoreServiceEnv(dataDir)), SCORES_ACCOUNT_MAX_BYTES: String(Math.floor(4.5 * XML_BYTES)) };
  const service = await startService(t, { env });
  const alice = scoreApiClient(service.baseUrl, await issueToken(env, 'alice', 'scores'));
  const bob = scoreApiClient(service.baseUrl, await issueToken(env, 'bob', 'scores'));
  const first = await scoreOf(alice);
  const revisions = `/v2/scores/${first}/revisions`;
  const statuses: number[] = [];
  for (let i = 0; i < 6; i++) statuses.push((await alice.call('POST', revisions, { data: XML })).status);
  t.same(statuses, [200, 200, 200, 402, 402, 402], 'four revisions fit in 4.5 of their size; then every one is refused');
  const refused = await alice.call('POST', revisions, { data: XML });
  t.same(refused.json(), {
    code: 'QUOTA_EXCEEDED',
    message: `Account overquota: it stores ${4 * XML_BYTES} of its ${Math.floor(4.5 * XML_BYTES)} bytes and this adds ${XML_BYTES}; delete scores for good (DELETE /v2/scores/{score}?now=true; scores in the trash count until then) or recordings to make room`,
    param: 'data',
  });
  t.equal(((await alice.call('GET', revisions)).json() as unknown[]).length, 4, 'a refused revision is not stored');
  t.equal((await alice.call('POST', '/v2/scores', { privacy: 'private', data: XML })).status, 402, 'nor is a new score');
  t.equal((await bob.call('POST', '/v2/scores', { privacy: 'private', data: XML })).status, 200, "another account's quota is its own");
  const bobsScore = await scoreOf(bob);
  const racing = await Promise.all(Array.from({ length: 4 }, () => bob.call('POST', `/v2/scores/${bobsScore}/revisions`, { data: XML })));
  t.same(racing.map((answer) => answer.status).sort(), [200, 200, 402, 402], 'writes sent together cannot pass the quota together: room for two, two stored');

  t.equal((await alice.call('DELETE', `/v2/scores/${first}`)).status, 204);
  t.equal((await alice.call('POST', '/v2/scores', { privacy: 'private', data: XML })).status, 402, 'a score in the trash still counts');
  t.equal((await alice.call('POST', `/v2/scores/${first}/untrash`)).status, 204);
  t.equal((await alice.call('DELETE', `/v2/scores/${first}?now=true`)).status, 204);
  t.equal((await alice.call('POST', '/v2/scores', { privacy: 'private', data: XML })).status, 200, 'deleted for good, its bytes are free again');
});

t.test('a score keeps at most SCORES_MAX_REVISIONS_PER_SCORE revisions', async (t) => {
  const dataDir = await tempDir(t, 'scores-quota-revisions-');
  const env = { ...(await scoreServiceEnv(dataDir)), SCORES_MAX_REVISIONS_PER_SCORE: '3' };
  const service = await startService(t, { env });
  const alice = scoreApiClient(service.baseUrl, await issueToken(env, 'alice', 'scores'));
  const score = await scoreOf(alice);
  const statuses: number[] = [];
  for (let i = 0; i < 3; i++) statuses.push((await alice.call('POST', `/v2/scores/${score}/revisions`, { data: XML })).status);
  t.same(statuses, [200, 200, 402], 'the creation is the first revision');
  t.same((await alice.call('POST', `/v2/scores/${score}/revisions`, { data: XML })).json(), {
    code: 'QUOTA_EXCEEDED',
    message: 'This score has 3 revisions, the most a score may have; go on in a new score',
    param: 'score',
  });
  t.equal((await alice.call('POST', `/v2/scores/${await scoreOf(alice)}/revisions`, { data: XML })).status, 200, 'another score has its own count');
});

t.test('uploads stop at SCORES_ACCOUNT_MAX_UPLOADS and at the bytes; a refused file is not kept', async (t) => {
  const dataDir = await tempDir(t, 'scores-quota-uploads-');
  const maxBytes = 64 * 1024;
  const env = { ...(await scoreServiceEnv(dataDir)), SCORES_ACCOUNT_MAX_UPLOADS: '2', SCORES_ACCOUNT_MAX_BYTES: String(maxBytes) };
  const service = await startService(t, { env });
  const alice = scoreApiClient(service.baseUrl, await issueToken(env, 'alice', 'scores,account.public_profile'));
  const score = await scoreOf(alice);
  const tracks = `/v2/scores/${score}/tracks`;
  const stored = async () => (await readdir(join(dataDir, 'scores', 'uploads')).catch(() => [] as string[])).length;

  const tooBig = await alice.call('POST', tracks, recording(maxBytes));
  t.equal(tooBig.status, 402, 'a recording larger than what is left');
  t.match(tooBig.json(), { code: 'QUOTA_EXCEEDED', message: new RegExp(`^Account overquota: it stores ${XML_BYTES} of its ${maxBytes} bytes and this adds ${maxBytes};`), param: 'file' });
  t.equal(await stored(), 0, 'the refused file is not kept on disk');

  const take = await alice.call('POST', tracks, recording(1000));
  t.equal(take.status, 200, take.text);
  t.equal((await alice.call('PUT', '/v2/me/picture', PNG, { 'content-type': 'image/png' })).status, 200, 'a picture is an upload too');
  const third = await alice.call('POST', tracks, recording(1000));
  t.equal(third.status, 402, 'a third upload');
  t.same(third.json(), { code: 'QUOTA_EXCEEDED', message: 'Account overquota: it keeps 2 uploaded files, the most it may; delete recordings to make room', param: 'file' });
  t.equal((await alice.call('PUT', '/v2/me/coverPicture', PNG, { 'content-type': 'image/png' })).status, 402, 'a cover picture as well');
  t.equal(await stored(), 2, 'only the two accepted files are on disk');
  t.equal(((await alice.call('GET', tracks)).json() as unknown[]).length, 1, 'no track was made of the refused recording');

  t.equal((await alice.call('DELETE', `${tracks}/${(take.json() as { id: string }).id}`)).status, 204);
  t.equal((await alice.call('POST', tracks, recording(1000))).status, 200, 'a deleted recording makes room');
});
