/**
 * The published JavaScript client, `flat-api` 1.0.1 (generated for a later API version), drives
 * the service end to end: `/me`, a score from MusicXML, its revisions, exports, tracks, and a
 * typed error. Where the later version's models drop a 2.13.0 field, the raw response is read.
 */
import { FlatClient, FlatNotFoundError } from 'flat-api';
import t from 'tap';
import { generatedScore } from '../support/generated-score.js';
import { issueToken, scoreServiceEnv } from '../support/score-api-client.js';
import { startService } from '../support/service-harness.js';
import { tempDir } from '../support/temp-dir.js';

t.test('flat-api 1.0.1: me, create a score, list revisions, export, tracks', async (t) => {
  const dataDir = await tempDir(t, 'scores-flat-api-');
  const env = await scoreServiceEnv(t, dataDir);
  const service = await startService(t, { env });
  const client = new FlatClient({ accessToken: await issueToken(env, 'alice', 'scores,account.public_profile'), baseUrl: `${service.baseUrl}/v2` });

  const me = await client.account.getAuthenticatedUser({ onlyId: true });
  t.match(me, { id: /^[0-9a-f]{24}$/ }, 'getAuthenticatedUser(onlyId)');
  const profile = await client.account.getAuthenticatedUser();
  t.equal(profile.username, 'alice');

  const score = await client.scores.createScore({ body: { privacy: 'private', data: generatedScore({ title: 'Client', measures: 2, parts: 1 }) } });
  t.match(score, { id: /^[0-9a-f]{24}$/, title: 'Client', privacy: 'private' }, 'createScore');
  const revisions = await client.scores.getScoreRevisions({ score: score.id! });
  t.equal(revisions.length, 1, 'getScoreRevisions');
  t.match(revisions[0], { id: /^[0-9a-f]{24}$/ });

  const midi = await client.scores.getScoreRevisionData({ score: score.id!, revision: 'last', format: 'midi' });
  t.equal(Buffer.from(await midi.arrayBuffer()).subarray(0, 4).toString('latin1'), 'MThd', 'getScoreRevisionData(midi): a MIDI file');
  const linked = await client.scores.getScoreRevisionDataRaw({ score: score.id!, revision: 'last', format: 'mp3', url: true });
  const { url } = (await linked.raw.json()) as { url: string };
  const mp3 = await fetch(url);
  t.equal(mp3.headers.get('content-type'), 'audio/mp3', 'url=true: a link to the MP3');

  // 2.13.0 answers addScoreTrack with the ScoreTrack itself; later versions wrap it as {track}.
  const added = await client.scores.addScoreTrackRaw({ score: score.id!, body: { title: 'Video', url: 'https://www.youtube.com/watch?v=abc123' } });
  const track = (await added.raw.json()) as { id: string };
  t.match(track, { id: /^[0-9a-f]{24}$/ }, 'addScoreTrack');
  const tracks = await client.scores.listScoreTracks({ score: score.id!, listAutoTrack: true });
  t.same(tracks.map((item) => item.type), ['youtube', 'audio'], 'listScoreTracks(listAutoTrack): the track, then the automatic MP3');
  const fetched = await client.scores.getScoreTrack({ score: score.id!, track: track.id });
  t.match(fetched, { title: 'Video', mediaId: 'abc123' }, 'getScoreTrack');

  await t.rejects(client.scores.getScore({ score: '000000000000000000000000' }), FlatNotFoundError, 'a 404 is the typed not-found error');
});
