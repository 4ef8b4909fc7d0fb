/**
 * The published JavaScript client, `flat-api` 1.0.1 (generated for a later API version), drives
 * the service end to end: `/me`, a score from MusicXML, its revisions, exports, tracks, a typed
 * error, a class with an assignment, its scheduled copy and a submission's reset, and
 * collections. Where the later version's models drop a 2.13.0 field, the raw response is read.
 */
import { FlatClient, FlatNotFoundError } from 'flat-api';
import t from 'tap';
import { generatedScore } from '../support/generated-score.js';
import { issueToken, scoreServiceEnv } from '../support/score-api-client.js';
import { startService } from '../support/service-harness.js';
import { tempDir } from '../support/temp-dir.js';

t.test('flat-api 1.0.1: me, create a score, list revisions, export, tracks', async (t) => {
  const dataDir = await tempDir(t, 'scores-flat-api-');
  const env = await scoreServiceEnv(dataDir);
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

t.test('flat-api 1.0.1: a class, enrollment, an assignment, its copy, a submission and its reset', async (t) => {
  const dataDir = await tempDir(t, 'scores-flat-api-edu-');
  const env = await scoreServiceEnv(dataDir);
  const service = await startService(t, { env });
  const scopes = 'edu.classes,edu.assignments';
  const teacher = new FlatClient({ accessToken: await issueToken(env, 'teacher', scopes), baseUrl: `${service.baseUrl}/v2` });
  const student = new FlatClient({ accessToken: await issueToken(env, 'student', scopes), baseUrl: `${service.baseUrl}/v2` });

  const classroom = await teacher.classes.createClass({ body: { name: 'Theory', section: 'B' } });
  t.match(classroom, { id: /^[0-9a-f]{24}$/, name: 'Theory', state: 'active', enrollmentCode: /^[A-Z2-9]{8}$/ }, 'createClass');
  const next = await teacher.classes.createClass({ body: { name: 'Theory, next term' } });
  t.match(await student.classes.enrollClass({ enrollmentCode: classroom.enrollmentCode! }), { id: classroom.id }, 'enrollClass');
  // The 2.26 models of assignments and submissions read fields 2.13.0 does not have: their raw bodies are read.
  const created = await teacher.classes.createClassAssignmentRaw({ _class: classroom.id!, body: { title: 'Intervals', state: 'active' } });
  const assignment = (await created.raw.json()) as { id: string };
  t.match(assignment, { title: 'Intervals', state: 'active', classroom: classroom.id }, 'createClassAssignment');

  const copied = await teacher.classes.copyAssignmentRaw({ _class: classroom.id!, assignment: assignment.id, body: { classroom: next.id!, scheduledDate: new Date('2099-09-01T08:00:00Z') } });
  t.match(await copied.raw.json(), { classroom: next.id, title: 'Intervals', scheduledDate: '2099-09-01T08:00:00.000Z' }, 'copyAssignment with scheduledDate');

  const handedIn = await student.classes.createSubmissionRaw({ _class: classroom.id!, assignment: assignment.id, body: { attachments: [{ type: 'link', url: 'https://example.com/answers' }], submit: true } });
  const submission = (await handedIn.raw.json()) as { id: string };
  t.match(submission, { state: 'turnedIn', creator: /^[0-9a-f]{24}$/ }, 'createSubmission');
  // 2.13.0 answers deleteSubmission with 204 and no body; later versions answer the reset submission.
  const reset = await teacher.classes.deleteSubmissionRaw({ _class: classroom.id!, assignment: assignment.id, submission: submission.id });
  t.equal(reset.raw.status, 204, 'deleteSubmission');
  await t.rejects(teacher.classes.getSubmission({ _class: classroom.id!, assignment: assignment.id, submission: submission.id }), FlatNotFoundError, 'the reset submission is gone');
  const again = (await (await student.classes.createSubmissionRaw({ _class: classroom.id!, assignment: assignment.id, body: { attachments: [] } })).raw.json()) as { id: string };
  t.match(again, { state: 'created' }, 'the student starts over');
  t.not(again.id, submission.id);
});

t.test('flat-api 1.0.1: collections: create, list, add a score, list its scores, remove, delete, untrash', async (t) => {
  const dataDir = await tempDir(t, 'scores-flat-api-collections-');
  const env = await scoreServiceEnv(dataDir);
  const service = await startService(t, { env });
  const client = new FlatClient({ accessToken: await issueToken(env, 'alice', 'scores,collections'), baseUrl: `${service.baseUrl}/v2` });

  const created = await client.collections.createCollection({ body: { title: 'Sonatas', privacy: 'private' } });
  t.match(created, { id: /^[0-9a-f]{24}$/, title: 'Sonatas', type: 'regular', capabilities: { canAddScores: true } }, 'createCollection');
  const listed = await client.collections.listCollections({});
  t.same(listed.map((collection) => collection.id), [created.id], 'listCollections');
  const root = await client.collections.getCollection({ collection: 'root' });
  t.equal(root.type, 'root', 'getCollection(root)');

  const score = await client.scores.createScore({ body: { privacy: 'private', data: generatedScore({ title: 'Pathétique', measures: 1, parts: 1 }) } });
  const added = await client.collections.addScoreToCollection({ collection: created.id!, score: score.id! });
  t.match(added, { id: score.id, collections: [created.id] }, 'addScoreToCollection');
  const second = await client.scores.createScore({ body: { privacy: 'private', collection: created.id!, data: generatedScore({ title: 'Appassionata', measures: 1, parts: 1 }) } });
  const inIt = await client.collections.listCollectionScores({ collection: created.id!, sort: 'title' });
  t.same(inIt.map((item) => item.id), [second.id, score.id], 'listCollectionScores');
  const everything: string[] = [];
  for await (const item of client.paginate('listCollectionScores', { collection: created.id!, sort: 'title', limit: 1 })) everything.push((item as { id: string }).id);
  t.same(everything, [second.id, score.id], 'paginate: one score a page, following the Link header');

  await client.collections.deleteScoreFromCollection({ collection: created.id!, score: score.id! });
  t.same((await client.collections.listCollectionScores({ collection: created.id! })).map((item) => item.id), [second.id], 'deleteScoreFromCollection');
  t.same((await client.collections.listCollectionScores({ collection: 'root' })).map((item) => item.id), [score.id], 'filed nowhere else, the score is in root');

  await client.collections.deleteCollection({ collection: created.id! });
  t.same((await client.collections.listCollections({ parent: 'trash' })).map((collection) => collection.id), [created.id], 'deleteCollection: in the trash');
  const untrashed = await client.collections.untrashCollectionRaw({ collection: created.id! });
  t.equal(untrashed.raw.status, 204, 'untrashCollection');
  t.same((await client.collections.listCollections({})).map((collection) => collection.id), [created.id], 'back in root');
});
