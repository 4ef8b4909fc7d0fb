/**
 * Tracks of a score through the running service: from YouTube, Vimeo, SoundCloud and audio URLs
 * and from uploaded recordings; listing with the automatic MP3 track and by assignment; edits,
 * the one default track, deletion; and profile pictures, uploaded and served. Every 200 body is
 * checked against the Flat API 2.13.0 schemas.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { flatSchemaErrors } from '../support/flat-schema.js';
import { issueToken, scoreApiClient, type ScoreApiClient, scoreServiceEnv } from '../support/score-api-client.js';
import { startService } from '../support/service-harness.js';
import { tempDir } from '../support/temp-dir.js';
import { generatedScore } from '../support/generated-score.js';

const XML = generatedScore({ title: 'Tracked', measures: 2, parts: 1 });

interface TrackJson {
  id: string;
  url?: string;
  default: boolean;
  mediaId?: string;
  synchronizationPoints: Array<{ time: number }>;
}

function multipart(fields: Record<string, string>, file?: { bytes: Uint8Array; name: string; type: string }): FormData {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  if (file !== undefined) form.append('file', new Blob([file.bytes], { type: file.type }), file.name);
  return form;
}

t.test('tracks: created from URLs and recordings, listed, edited, deleted', async (t) => {
  const dataDir = await tempDir(t, 'score-tracks-');
  const env = await scoreServiceEnv(dataDir);
  const service = await startService(t, { env: { ...env, API_MAX_REQUEST_BYTES: String(2 * 1024 * 1024) } });
  const alice = scoreApiClient(service.baseUrl, await issueToken(env, 'alice', 'scores'));
  const bob = scoreApiClient(service.baseUrl, await issueToken(env, 'bob', 'scores'));
  const anonymous = scoreApiClient(service.baseUrl, undefined);
  const scoreId = ((await alice.call('POST', '/v2/scores', { privacy: 'private', data: XML })).json() as { id: string }).id;
  const tracks = `/v2/scores/${scoreId}/tracks`;
  const created = async (client: ScoreApiClient, body: unknown): Promise<TrackJson> => {
    const response = await client.call('POST', tracks, body);
    t.equal(response.status, 200, response.text);
    t.same(flatSchemaErrors('ScoreTrack', response.json()), [], 'a ScoreTrack');
    return response.json() as TrackJson;
  };

  t.same((await alice.call('GET', tracks)).json(), [], 'no tracks yet');
  t.match(await created(alice, { title: 'Live', url: 'https://www.youtube.com/watch?v=dQw4w9WgXcQ&t=3', default: true }), { type: 'youtube', mediaId: 'dQw4w9WgXcQ', state: 'draft', default: true, score: scoreId, title: 'Live' });
  t.match(await created(alice, { url: 'https://youtu.be/abcDEF12345' }), { type: 'youtube', mediaId: 'abcDEF12345', default: false });
  t.match(await created(alice, { url: 'https://vimeo.com/76979871', state: 'completed' }), { type: 'vimeo', mediaId: '76979871', state: 'completed' });
  t.match(await created(alice, { url: 'https://soundcloud.com/artist/a-song' }), { type: 'soundcloud', mediaId: 'artist/a-song' });
  const elsewhere = await created(alice, { url: 'https://cdn.example.com/take1.mp3' });
  t.match(elsewhere, { type: 'audio', url: 'https://cdn.example.com/take1.mp3' });
  t.notOk('mediaId' in elsewhere, 'no media id for a plain audio URL');

  const recording = (await alice.call('GET', `/v2/scores/${scoreId}/revisions/last/mp3`)).bytes;
  const points = [{ type: 'measure', time: 0, measureUuid: '5132a788-69e6-d0c6-84ec-4bd858658d7c' }, { type: 'end', time: 4 }];
  const uploaded = await created(alice, multipart({ title: 'Take 2', default: 'true', synchronizationPoints: JSON.stringify(points) }, { bytes: recording, name: 'take2.mp3', type: 'audio/mpeg' }));
  t.match(uploaded, { type: 'audio', title: 'Take 2', default: true, synchronizationPoints: points, url: new RegExp(`^${service.baseUrl}/v2/files/uploads/[0-9a-f]{24}\\?expires=\\d+&signature=[0-9a-f]{64}$`) });
  const fetched = await anonymous.call('GET', uploaded.url ?? '');
  t.equal(fetched.status, 200, 'the recording is served at its signed link');
  t.equal(fetched.type, 'audio/mpeg');
  t.same(fetched.bytes, recording);
  t.equal((await anonymous.call('GET', (uploaded.url ?? '').replace(/\?.*/, ''))).status, 403, 'not without the signature');

  const listed = (await alice.call('GET', tracks)).json() as TrackJson[];
  t.equal(listed.length, 6, 'every track, oldest first');
  t.same(listed.flatMap((track) => flatSchemaErrors('ScoreTrack', track)), [], 'each a ScoreTrack');
  t.same(listed.filter((track) => track.default).map((track) => track.id), [uploaded.id], 'one default track: the newest that asked to be');

  for (const [what, body, param] of [
    ['neither url nor file', { title: 'x' }, 'url'],
    ['a relative url', { url: 'take.mp3' }, 'url'],
    ['an ftp url', { url: 'ftp://example.com/a.mp3' }, 'url'],
    ['a YouTube url without a video', { url: 'https://youtube.com/feed' }, 'url'],
    ['an unknown state', { url: 'https://youtu.be/x', state: 'published' }, 'state'],
    ['default as a string', { url: 'https://youtu.be/x', default: 'yes' }, 'default'],
    ['points out of order', { url: 'https://youtu.be/x', synchronizationPoints: [{ type: 'measure', time: 2 }, { type: 'end', time: 1 }] }, 'synchronizationPoints'],
    ['a point of no type', { url: 'https://youtu.be/x', synchronizationPoints: [{ time: 2 }] }, 'synchronizationPoints'],
    ['a measureUuid that is no UUID', { url: 'https://youtu.be/x', synchronizationPoints: [{ type: 'measure', time: 0, measureUuid: 'm1' }] }, 'synchronizationPoints'],
  ] as const) {
    const refused = await alice.call('POST', tracks, body);
    t.equal(refused.status, 400, what);
    t.match(refused.json(), { code: 'BAD_REQUEST', param }, `${what}: names ${param}`);
  }
  const tooLarge = await alice.call('POST', tracks, multipart({}, { bytes: new Uint8Array(3 * 1024 * 1024), name: 'long.wav', type: 'audio/wav' }));
  t.equal(tooLarge.status, 413, 'a recording over API_MAX_REQUEST_BYTES');
  t.match(tooLarge.json(), { code: 'PAYLOAD_TOO_LARGE', message: String });
  const notAudio = await alice.call('POST', tracks, multipart({}, { bytes: new TextEncoder().encode('<html>not audio</html>'), name: 'x.mp3', type: 'audio/mpeg' }));
  t.match(notAudio.json(), { code: 'BAD_REQUEST', param: 'file', message: /not audio/ }, 'a file is checked for being audio, whatever its name says');
  t.equal((await alice.call('POST', tracks, multipart({ url: 'https://youtu.be/x' }, { bytes: recording, name: 'a.mp3', type: 'audio/mpeg' }))).status, 400, 'a url and a file at once');

  const one = `${tracks}/${elsewhere.id}`;
  t.match((await alice.call('GET', one)).json(), { id: elsewhere.id, url: 'https://cdn.example.com/take1.mp3' });
  const edited = await alice.call('PUT', one, { title: 'Take 1', state: 'completed', default: true, synchronizationPoints: points });
  t.equal(edited.status, 200);
  t.same(flatSchemaErrors('ScoreTrack', edited.json()), []);
  t.match(edited.json(), { title: 'Take 1', state: 'completed', default: true, synchronizationPoints: points, url: 'https://cdn.example.com/take1.mp3' });
  t.match((await alice.call('GET', `${tracks}/${uploaded.id}`)).json(), { default: false }, 'the former default track is not any more');
  t.match((await alice.call('PUT', one, { url: 'https://youtu.be/x' })).json(), { code: 'BAD_REQUEST', param: 'url' }, 'a track does not move');
  t.equal((await alice.call('GET', `${tracks}/000000000000000000000000`)).status, 404);

  t.equal((await bob.call('GET', tracks)).status, 403, "another user does not see a private score's tracks");
  t.equal((await bob.call('POST', tracks, { url: 'https://youtu.be/x' })).status, 403);
  await alice.call('PUT', `/v2/scores/${scoreId}`, { privacy: 'public' });
  t.equal((await bob.call('GET', tracks)).status, 200, 'anyone reads the tracks of a public score');
  t.equal((await bob.call('PUT', one, { title: 'Mine' })).status, 403, 'but only its owner edits them');
  t.equal((await bob.call('DELETE', one)).status, 403);

  t.same((await alice.call('GET', `${tracks}?assignment=000000000000000000000000`)).json(), [], 'no assignment holds these tracks');

  const withAuto = (await alice.call('GET', `${tracks}?listAutoTrack=true`)).json() as Array<TrackJson & { type: string; state: string }>;
  t.equal(withAuto.length, 7, 'the automatic track comes after the others, once its MP3 exists');
  const auto = withAuto.at(-1) as TrackJson & { type: string; state: string };
  t.same(flatSchemaErrors('ScoreTrack', auto), []);
  t.match(auto, { type: 'audio', state: 'completed', default: false });
  t.same(auto.synchronizationPoints, (await alice.call('GET', `/v2/scores/${scoreId}/revisions/last/synchronizationPoints`)).json(), "with the revision's synchronization points");
  t.same((await anonymous.call('GET', auto.url ?? '')).bytes, recording, 'and a link to its MP3');
  await alice.call('POST', `/v2/scores/${scoreId}/revisions`, { data: XML.replace('Tracked', 'Tracked again') });
  t.equal(((await alice.call('GET', `${tracks}?listAutoTrack=true`)).json() as unknown[]).length, 6, 'a new revision has no MP3 yet: no automatic track');

  t.equal((await alice.call('DELETE', `${tracks}/${uploaded.id}`)).status, 204);
  t.match((await alice.call('GET', `${tracks}/${uploaded.id}`)).json(), { code: 'NOT_FOUND', param: 'track' });
  t.equal((await anonymous.call('GET', uploaded.url ?? '')).status, 404, 'its recording is gone');

  const second = await created(alice, multipart({}, { bytes: recording, name: 'take3.mp3', type: 'audio/mpeg' }));
  const fileId = /uploads\/([0-9a-f]{24})/.exec(second.url ?? '')?.[1] ?? '';
  t.ok(existsSync(join(dataDir, 'scores', 'uploads', fileId)), 'recordings are kept under DATA_DIR');
  t.equal((await alice.call('DELETE', `/v2/scores/${scoreId}?now=true`)).status, 204);
  t.notOk(existsSync(join(dataDir, 'scores', 'uploads', fileId)), 'a score deleted for good takes its recordings along');
});

t.test('profile pictures: uploaded as the body or a form, served, shown on the profile and scores', async (t) => {
  const dataDir = await tempDir(t, 'score-pictures-');
  const env = await scoreServiceEnv(dataDir);
  const service = await startService(t, { env });
  const alice = scoreApiClient(service.baseUrl, await issueToken(env, 'alice', 'scores,account.public_profile'));
  const bob = scoreApiClient(service.baseUrl, await issueToken(env, 'bob', 'scores'));
  const anonymous = scoreApiClient(service.baseUrl, undefined);
  const scoreId = ((await alice.call('POST', '/v2/scores', { privacy: 'public', data: XML })).json() as { id: string }).id;
  const png = (await alice.call('GET', `/v2/scores/${scoreId}/revisions/last/thumbnail.png`)).bytes;

  const before = (await alice.call('GET', '/v2/me')).json();
  t.match(before, { picture: null, pictureFile: null, coverPicture: '', coverPictureFile: null }, 'no pictures yet');

  const set = await alice.call('PUT', '/v2/me/picture', png, { 'content-type': 'image/png' });
  t.equal(set.status, 200, set.text);
  t.same(flatSchemaErrors('UserDetails', set.json()), [], 'a UserDetails');
  const me = set.json() as { picture: string; pictureFile: string };
  t.match(me, { pictureFile: /^[0-9a-f]{24}$/, picture: `${service.baseUrl}/v2/files/uploads/${me.pictureFile}` });
  const served = await anonymous.call('GET', me.picture);
  t.equal(served.type, 'image/png');
  t.same(served.bytes, png, 'the picture is served to anyone at its URL');

  const cover = await alice.call('PUT', '/v2/me/coverPicture', multipart({}, { bytes: png, name: 'cover.png', type: 'image/png' }));
  t.match(cover.json(), { coverPictureFile: /^[0-9a-f]{24}$/, coverPicture: /\/v2\/files\/uploads\/[0-9a-f]{24}$/, pictureFile: me.pictureFile });
  t.same(flatSchemaErrors('UserDetails', (await alice.call('GET', '/v2/me')).json()), [], 'GET /me with both pictures');

  t.match((await bob.call('GET', `/v2/scores/${scoreId}`)).json(), { user: { username: 'alice', picture: me.picture } }, "the owner's picture on the score");

  const replaced = (await alice.call('PUT', '/v2/me/picture', png, { 'content-type': 'image/png' })).json() as { pictureFile: string };
  t.not(replaced.pictureFile, me.pictureFile, 'a new picture is a new file');
  t.equal((await anonymous.call('GET', me.picture)).status, 404, 'the old one is removed');

  t.match((await alice.call('PUT', '/v2/me/picture', new TextEncoder().encode('GIF? no'), { 'content-type': 'image/gif' })).json(), { code: 'BAD_REQUEST', param: 'file' }, 'bytes that are no image');
  t.equal((await bob.call('PUT', '/v2/me/picture', png, { 'content-type': 'image/png' })).status, 403, 'a token without a profile scope');
  t.equal((await anonymous.call('PUT', '/v2/me/picture', png, { 'content-type': 'image/png' })).status, 401);
  t.equal((await anonymous.call('GET', `${service.baseUrl}/v2/files/uploads/nothing`)).status, 404);
});
