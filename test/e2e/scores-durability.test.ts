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
  const env = { ...(await scoreServiceEnv(t, dataDir)), RUNTIME_ROOT: '/nonexistent', HTTP_WORKERS: '1' };
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
