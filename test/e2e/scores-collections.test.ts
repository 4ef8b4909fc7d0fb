/**
 * Collections, the trash, forks, a score's submissions and users' public pages, against the
 * whole service: each operation's answer, the 400s naming their field, 403 and 404, and the
 * trash round trips (a score, and a collection with the scores it alone held).
 */
import t, { type Test } from 'tap';
import { generatedScore } from '../support/generated-score.js';
import { issueToken, scoreApiClient, scoreServiceEnv, type ScoreApiClient } from '../support/score-api-client.js';
import { startService } from '../support/service-harness.js';
import { tempDir } from '../support/temp-dir.js';

const XML = generatedScore({ title: 'Filed', measures: 1, parts: 1 });
const ALL = 'scores,collections,account.public_profile,edu.classes,edu.assignments';

type Json = Record<string, unknown>;
const idOf = (value: unknown) => (value as { id: string }).id;
const idsOf = (value: unknown) => (value as Json[]).map(idOf);

async function newScore(client: ScoreApiClient, extra: Json = {}): Promise<string> {
  const answer = await client.call('POST', '/v2/scores', { privacy: 'private', data: XML, ...extra });
  if (answer.status !== 200) throw new Error(answer.text);
  return idOf(answer.json());
}

async function started(t: Test, extraEnv: Record<string, string> = {}) {
  const env = { ...(await scoreServiceEnv(await tempDir(t, 'scores-collections-'))), ...extraEnv };
  const service = await startService(t, { env });
  const client = async (user: string, scopes = ALL) => scoreApiClient(service.baseUrl, await issueToken(env, user, scopes));
  return { service, client };
}

t.test('collections: create, get, list with pagination, edit, and the special ones', async (t) => {
  const { service, client } = await started(t, { SCORES_ACCOUNT_MAX_COLLECTIONS: '4' });
  const alice = await client('alice');
  const bob = await client('bob');
  const me = idOf((await alice.call('GET', '/v2/me')).json());

  const created = await alice.call('POST', '/v2/collections', { title: 'Études', privacy: 'private' });
  t.equal(created.status, 200);
  const etudes = created.json() as Json;
  t.match(etudes, {
    id: /^[0-9a-f]{24}$/,
    title: 'Études',
    type: 'regular',
    privacy: 'private',
    sharingKey: /^[0-9a-f]{128}$/,
    htmlUrl: `${service.baseUrl}/v2/collections/${String(etudes['id'])}`,
    creationDate: /^\d{4}-\d\d-\d\dT/,
    user: { id: me, username: 'alice' },
    rights: { aclRead: true, aclWrite: true, aclAdmin: true },
    capabilities: { canEdit: true, canShare: false, canDelete: true, canAddScores: true, canDeleteScores: true },
  });
  t.same((await alice.call('GET', `/v2/collections/${String(etudes['id'])}`)).json(), etudes, 'GET answers what POST did');

  t.match((await alice.call('POST', '/v2/collections', { privacy: 'private' })).json(), { code: 'BAD_REQUEST', param: 'title' });
  t.match((await alice.call('POST', '/v2/collections', { title: 'x'.repeat(301), privacy: 'private' })).json(), { code: 'BAD_REQUEST', param: 'title' });
  t.match((await alice.call('POST', '/v2/collections', { title: 'No privacy' })).json(), { code: 'BAD_REQUEST', param: 'privacy' });
  t.match((await alice.call('POST', '/v2/collections', { title: 'Public', privacy: 'public' })).json(), { code: 'BAD_REQUEST', param: 'privacy' });

  const root = (await alice.call('GET', '/v2/collections/root')).json() as Json;
  t.match(root, { id: /^[0-9a-f]{24}$/, type: 'root', capabilities: { canEdit: false, canDelete: false, canAddScores: true, canDeleteScores: true } });
  t.same((await alice.call('GET', `/v2/collections/${String(root['id'])}`)).json(), root, 'root by its id and by its alias');
  t.match((await alice.call('GET', '/v2/collections/trash')).json(), { type: 'trash', capabilities: { canAddScores: false, canDeleteScores: false } });
  t.match((await alice.call('GET', '/v2/collections/sharedWithMe')).json(), { type: 'sharedWithMe' });
  t.not(idOf((await bob.call('GET', '/v2/collections/root')).json()), root['id'], 'every account has a root of its own');
  t.equal((await bob.call('GET', `/v2/collections/${String(root['id'])}`)).status, 404, "another account's root is not found");
  t.match((await bob.call('GET', `/v2/collections/${String(etudes['id'])}`)).json(), { code: 'FORBIDDEN' }, "another account's collection is refused");
  t.equal((await bob.call('GET', `/v2/collections/${String(etudes['id'])}`)).status, 403);
  t.match((await alice.call('GET', '/v2/collections/000000000000000000000000')).json(), { code: 'NOT_FOUND', param: 'collection' });

  const names = ['Bach', 'Chopin', 'Debussy'];
  for (const title of names) t.equal((await alice.call('POST', '/v2/collections', { title, privacy: 'private' })).status, 200);
  t.match((await alice.call('POST', '/v2/collections', { title: 'One too many', privacy: 'private' })).json(), { code: 'QUOTA_EXCEEDED' }, 'SCORES_ACCOUNT_MAX_COLLECTIONS');

  const newestFirst = (await alice.call('GET', '/v2/collections')).json() as Json[];
  t.same(newestFirst.map((c) => c['title']), ['Debussy', 'Chopin', 'Bach', 'Études'], 'newest first by default, special ones left out');
  const firstPage = await alice.call('GET', '/v2/collections?sort=title&limit=3');
  t.same((firstPage.json() as Json[]).map((c) => c['title']), ['Bach', 'Chopin', 'Debussy']);
  const link = firstPage.headers.get('link') ?? '';
  const next = /<([^>]+)>; rel="next"/.exec(link)?.[1];
  t.ok(next?.startsWith(`${service.baseUrl}/v2/collections?`), 'Link has the next page');
  const secondPage = await alice.call('GET', next ?? '');
  t.same((secondPage.json() as Json[]).map((c) => c['title']), ['Études']);
  t.match(secondPage.headers.get('link'), /rel="previous"/);
  t.notMatch(secondPage.headers.get('link') ?? '', /rel="next"/, 'no next page after the last');
  t.same(((await alice.call('GET', '/v2/collections?sort=title&direction=desc&limit=1')).json() as Json[]).map((c) => c['title']), ['Études']);
  const refusals: Array<[query: string, param: string]> = [['limit=0', 'limit'], ['limit=101', 'limit'], ['next=bogus', 'next'], ['sort=size', 'sort'], ['direction=up', 'direction'], ['parent=000000000000000000000000', 'parent']];
  for (const [query, param] of refusals) {
    t.match((await alice.call('GET', `/v2/collections?${query}`)).json(), { code: query.startsWith('parent') ? 'NOT_FOUND' : 'BAD_REQUEST', param }, query);
  }
  t.same((await alice.call('GET', '/v2/collections?parent=sharedWithMe')).json(), []);

  const renamed = await alice.call('PUT', `/v2/collections/${String(etudes['id'])}`, { title: 'Studies' });
  t.match(renamed.json(), { id: etudes['id'], title: 'Studies' });
  t.match((await alice.call('PUT', `/v2/collections/${String(etudes['id'])}`, { title: '' })).json(), { code: 'BAD_REQUEST', param: 'title' });
  t.match((await alice.call('PUT', `/v2/collections/${String(etudes['id'])}`, { privacy: 'public' })).json(), { code: 'BAD_REQUEST', param: 'privacy' });
  t.equal((await alice.call('PUT', '/v2/collections/root', { title: 'Mine' })).status, 403, 'root is not renamed');
  t.equal((await alice.call('DELETE', '/v2/collections/trash')).status, 403, 'the trash is not deleted');
  t.equal((await bob.call('PUT', `/v2/collections/${String(etudes['id'])}`, { title: 'Taken' })).status, 403);
});

t.test('scores in collections: add, list, remove, root, and ScoreDetails.collections', async (t) => {
  const { client } = await started(t);
  const alice = await client('alice');
  const bob = await client('bob');
  const folder = idOf((await alice.call('POST', '/v2/collections', { title: 'Folder', privacy: 'private' })).json());
  const rootId = idOf((await alice.call('GET', '/v2/collections/root')).json());
  const first = await newScore(alice, { title: 'Alpha' });
  const second = await newScore(alice, { title: 'Beta' });
  const inFolder = await newScore(alice, { title: 'Gamma', collection: folder });

  t.same(idsOf((await alice.call('GET', '/v2/collections/root/scores')).json()), [second, first], 'new scores are in root, the last modified first');
  t.same(idsOf((await alice.call('GET', `/v2/collections/${folder}/scores`)).json()), [inFolder], 'ScoreCreation.collection files it there');
  t.match((await alice.call('GET', `/v2/scores/${inFolder}`)).json(), { collections: [folder] });
  t.match((await alice.call('GET', `/v2/scores/${first}`)).json(), { collections: [rootId] });

  const added = await alice.call('PUT', `/v2/collections/${folder}/scores/${first}`);
  t.equal(added.status, 200);
  t.match(added.json(), { id: first, title: 'Alpha', collections: [folder] }, 'ScoreDetails, now in the folder');
  t.equal((await alice.call('PUT', `/v2/collections/${folder}/scores/${first}`)).status, 200, 'adding again changes nothing');
  t.same(idsOf((await alice.call('GET', `/v2/collections/${folder}/scores?sort=title`)).json()), [first, inFolder]);
  t.same(idsOf((await alice.call('GET', '/v2/collections/root/scores')).json()), [second], 'filed in a collection, it left root');
  t.equal((await alice.call('PUT', `/v2/collections/root/scores/${first}`)).status, 200, 'a score can be in root and a collection');
  t.match((await alice.call('GET', `/v2/scores/${first}`)).json(), { collections: [rootId, folder] });
  t.equal((await alice.call('DELETE', `/v2/collections/root/scores/${first}`)).status, 204);

  const limited = await alice.call('GET', `/v2/collections/${folder}/scores?sort=title&direction=desc&limit=1`);
  t.same(idsOf(limited.json()), [inFolder]);
  t.match(limited.headers.get('link'), /rel="next"/);
  t.match((await alice.call('GET', `/v2/collections/${folder}/scores?sort=size`)).json(), { code: 'BAD_REQUEST', param: 'sort' });

  t.equal((await alice.call('DELETE', `/v2/collections/${folder}/scores/${first}`)).status, 204);
  t.same(idsOf((await alice.call('GET', '/v2/collections/root/scores?sort=title&direction=asc')).json()), [first, second], 'filed nowhere else, it is back in root');

  const bobs = await newScore(bob);
  t.equal((await alice.call('PUT', `/v2/collections/${folder}/scores/${bobs}`)).status, 403, "another account's private score");
  t.equal((await bob.call('PUT', `/v2/collections/${folder}/scores/${bobs}`)).status, 403, "another account's collection");
  t.match((await alice.call('PUT', `/v2/collections/${folder}/scores/000000000000000000000000`)).json(), { code: 'NOT_FOUND', param: 'score' });
  t.equal((await alice.call('PUT', `/v2/collections/trash/scores/${first}`)).status, 403, 'nothing is added to the trash');
  t.equal((await alice.call('PUT', `/v2/collections/000000000000000000000000/scores/${first}`)).status, 404);
});

t.test('the trash: a score and a collection go and come back', async (t) => {
  const { client } = await started(t);
  const alice = await client('alice');
  const folder = idOf((await alice.call('POST', '/v2/collections', { title: 'Folder', privacy: 'private' })).json());
  const other = idOf((await alice.call('POST', '/v2/collections', { title: 'Other', privacy: 'private' })).json());
  const score = await newScore(alice, { collection: folder });
  const alone = await newScore(alice, { collection: folder });
  const shared = await newScore(alice, { collection: folder });
  t.equal((await alice.call('PUT', `/v2/collections/${other}/scores/${shared}`)).status, 200);

  t.equal((await alice.call('DELETE', `/v2/scores/${score}`)).status, 204);
  t.same(idsOf((await alice.call('GET', '/v2/collections/trash/scores')).json()), [score], 'a deleted score is in the trash');
  t.notOk(idsOf((await alice.call('GET', `/v2/collections/${folder}/scores`)).json()).includes(score), 'and no longer in its collection');
  t.equal((await alice.call('POST', `/v2/scores/${score}/untrash`)).status, 204);
  t.same((await alice.call('GET', '/v2/collections/trash/scores')).json(), []);
  t.match((await alice.call('GET', `/v2/scores/${score}`)).json(), { collections: [folder] }, 'untrashed, it is back where it was');

  t.equal((await alice.call('DELETE', `/v2/collections/${folder}`)).status, 204);
  t.equal((await alice.call('DELETE', `/v2/collections/${folder}`)).status, 204, 'deleting it again changes nothing');
  t.same(idsOf((await alice.call('GET', '/v2/collections?parent=trash')).json()), [folder], 'the collection is in the trash');
  t.same(idsOf((await alice.call('GET', '/v2/collections')).json()), [other], 'and no longer in root');
  t.match((await alice.call('GET', `/v2/collections/${folder}`)).json(), { capabilities: { canEdit: false, canAddScores: false } });
  t.equal((await alice.call('PUT', `/v2/collections/${folder}/scores/${shared}`)).status, 403, 'a trashed collection takes no scores');
  t.same(new Set(idsOf((await alice.call('GET', '/v2/collections/trash/scores')).json())), new Set([score, alone]), 'the scores it alone held went with it');
  t.match((await alice.call('GET', `/v2/scores/${shared}`)).json(), { collections: [other] }, 'one also in another collection stayed');
  t.equal((await alice.call('GET', `/v2/scores/${alone}`)).status, 404);
  t.match((await alice.call('GET', `/v2/scores/${shared}`)).json(), { id: shared });

  t.equal((await alice.call('POST', `/v2/collections/${folder}/untrash`)).status, 204);
  t.equal((await alice.call('POST', `/v2/collections/${folder}/untrash`)).status, 204, 'untrashing again changes nothing');
  t.same(idsOf((await alice.call('GET', '/v2/collections?parent=trash')).json()), []);
  t.same(new Set(idsOf((await alice.call('GET', `/v2/collections/${folder}/scores`)).json())), new Set([score, alone, shared]), 'it came back with its scores');
  t.same((await alice.call('GET', '/v2/collections/trash/scores')).json(), []);
  t.equal((await alice.call('POST', '/v2/collections/root/untrash')).status, 403);
});

t.test('fork: a private copy of the last revision, in a collection, within the quota', async (t) => {
  const size = Buffer.byteLength(XML);
  // Room for three scores per account.
  const { client } = await started(t, { SCORES_ACCOUNT_MAX_BYTES: String(Math.max(1024, Math.floor(size * 3.5))) });
  const alice = await client('alice');
  const bob = await client('bob');
  const pub = await newScore(alice, { privacy: 'public', title: 'Open' });
  const linked = await newScore(bob, { privacy: 'privateLink', title: 'Linked' });
  const secret = await newScore(bob, { title: 'Secret' });
  const key = String(((await bob.call('GET', `/v2/scores/${linked}`)).json() as Json)['sharingKey']);
  const bobsFolder = idOf((await bob.call('POST', '/v2/collections', { title: 'Forks', privacy: 'private' })).json());

  const forked = await bob.call('POST', `/v2/scores/${pub}/fork`, { collection: bobsFolder });
  t.equal(forked.status, 200);
  const fork = forked.json() as Json;
  t.match(fork, { title: 'Open', privacy: 'private', parentScore: pub, user: { username: 'bob' }, rights: { aclAdmin: true }, collections: [bobsFolder] });
  t.not(fork['id'], pub);
  t.same(idsOf((await bob.call('GET', `/v2/collections/${bobsFolder}/scores`)).json()), [fork['id']]);
  t.equal((await bob.call('GET', `/v2/scores/${String(fork['id'])}/revisions/last/xml`)).text, XML, 'the last revision, copied');

  t.match((await bob.call('POST', `/v2/scores/${pub}/fork`, { collection: 'trash' })).json(), { code: 'FORBIDDEN', param: 'collection' });
  t.match((await bob.call('POST', `/v2/scores/${pub}/fork`, { collection: 42 })).json(), { code: 'BAD_REQUEST', param: 'collection' });
  t.match((await bob.call('POST', `/v2/scores/${pub}/fork`, { collection: '000000000000000000000000' })).json(), { code: 'NOT_FOUND', param: 'collection' });
  t.match((await bob.call('POST', `/v2/scores/${pub}/fork`)).json(), { code: 'BAD_REQUEST', param: 'body' }, 'ScoreFork is required');
  t.equal((await alice.call('POST', `/v2/scores/${secret}/fork`, {})).status, 403, 'a score the caller may not read');
  t.equal((await alice.call('POST', `/v2/scores/${linked}/fork`, {})).status, 403, 'a privateLink score without its key');
  t.match((await alice.call('POST', `/v2/scores/${linked}/fork?sharingKey=${key}`, {})).json(), { title: 'Linked', parentScore: linked }, 'with its key');
  t.equal((await alice.call('POST', `/v2/scores/${linked}/fork?sharingKey=${key}`, {})).status, 200);
  t.match((await alice.call('POST', `/v2/scores/${linked}/fork?sharingKey=${key}`, {})).json(), { code: 'QUOTA_EXCEEDED' }, 'past the quota of the one who forks');
  t.equal((await alice.call('POST', '/v2/scores/000000000000000000000000/fork', {})).status, 404);
  t.same(idsOf((await bob.call('GET', `/v2/users/me/scores?parent=${pub}`)).json()), [], 'forks are private: not on the public page');
});

t.test("a score's submissions: their students and their teachers see them", async (t) => {
  const { client } = await started(t);
  const teacher = await client('teacher');
  const student = await client('student');
  const classmate = await client('classmate');
  const outsider = await client('outsider');
  const score = await newScore(teacher, { privacy: 'public' });
  const classroom = (await teacher.call('POST', '/v2/classes', { name: 'Choir' })).json() as { id: string; enrollmentCode: string };
  for (const member of [student, classmate]) t.equal((await member.call('POST', `/v2/classes/enroll/${classroom.enrollmentCode}`)).status, 200);
  const work = idOf((await teacher.call('POST', `/v2/classes/${classroom.id}/assignments`, { title: 'Sing', state: 'active', attachments: [{ type: 'flat', score }] })).json());
  const submissions = `/v2/classes/${classroom.id}/assignments/${work}/submissions`;
  const mine = idOf((await student.call('PUT', submissions, { attachments: [{ type: 'flat', score }], submit: true })).json());
  t.equal((await classmate.call('PUT', submissions, { attachments: [{ type: 'flat', score }] })).status, 200);
  await classmate.call('PUT', submissions, { attachments: [{ type: 'link', url: 'https://example.com' }] });

  t.same(idsOf((await teacher.call('GET', `/v2/scores/${score}/submissions`)).json()), [mine], "the teacher sees the class's submissions attaching it");
  t.match((await student.call('GET', `/v2/scores/${score}/submissions`)).json(), [{ id: mine, state: 'turnedIn', assignment: work, classroom: classroom.id }], 'a student their own');
  t.same((await classmate.call('GET', `/v2/scores/${score}/submissions`)).json(), [], 'one whose submission no longer attaches it: none');
  t.same((await outsider.call('GET', `/v2/scores/${score}/submissions`)).json(), [], 'someone outside the class: none');
  const secret = await newScore(teacher);
  t.equal((await outsider.call('GET', `/v2/scores/${secret}/submissions`)).status, 403);
  t.equal((await outsider.call('GET', '/v2/scores/000000000000000000000000/submissions')).status, 404);
});

t.test("users' public pages: profile, likes, public scores", async (t) => {
  const { client } = await started(t);
  const alice = await client('alice');
  const bob = await client('bob');
  const aliceId = idOf((await alice.call('GET', '/v2/me')).json());
  const open = await newScore(alice, { privacy: 'public' });
  await newScore(alice, { privacy: 'private' });
  const trashed = await newScore(alice, { privacy: 'public' });
  await alice.call('DELETE', `/v2/scores/${trashed}`);
  const forked = idOf((await bob.call('POST', `/v2/scores/${open}/fork`, {})).json());
  t.equal((await bob.call('PUT', `/v2/scores/${forked}`, { privacy: 'public' })).status, 200);

  t.match((await bob.call('GET', `/v2/users/${aliceId}`)).json(), { id: aliceId, username: 'alice', type: 'user', ownedPublicScoresCount: 1, likedScoresCount: 0 });
  t.match((await alice.call('GET', '/v2/users/me')).json(), { id: aliceId });
  t.match((await bob.call('GET', '/v2/users/000000000000000000000000')).json(), { code: 'NOT_FOUND', param: 'user' });
  t.same(idsOf((await bob.call('GET', `/v2/users/${aliceId}/scores`)).json()), [open], 'public scores only, none trashed');
  t.same(idsOf((await alice.call('GET', '/v2/users/me/scores')).json()), [open], 'also for oneself');
  const bobId = idOf((await bob.call('GET', '/v2/me')).json());
  t.same(idsOf((await alice.call('GET', `/v2/users/${bobId}/scores?parent=${open}`)).json()), [forked], 'parent keeps the forks of a score');
  t.same((await alice.call('GET', `/v2/users/${bobId}/scores?parent=${forked}`)).json(), []);
  t.same((await alice.call('GET', `/v2/users/${aliceId}/likes`)).json(), []);
  t.same((await alice.call('GET', `/v2/users/${aliceId}/likes?ids=true`)).json(), []);
  t.match((await alice.call('GET', `/v2/users/${aliceId}/likes?ids=maybe`)).json(), { code: 'BAD_REQUEST', param: 'ids' });
  t.equal((await alice.call('GET', '/v2/users/000000000000000000000000/likes')).status, 404);
});

t.test('sharedWithMe: the scores shared with the account by name, until the sharing ends or the score goes to the trash', async (t) => {
  const { client } = await started(t);
  const alice = await client('alice');
  const bob = await client('bob');
  const shared = await newScore(alice, { title: 'Shared' });
  await newScore(alice, { title: 'Not shared' });
  const sharedWithBob = async () => idsOf((await bob.call('GET', '/v2/collections/sharedWithMe/scores')).json());
  t.same(await sharedWithBob(), [], 'nothing shared yet');

  const permission = idOf((await alice.call('POST', `/v2/scores/${shared}/collaborators`, { user: 'bob' })).json());
  t.same(await sharedWithBob(), [shared], 'shared by name: listed');
  t.same(idsOf((await alice.call('GET', '/v2/collections/sharedWithMe/scores')).json()), [], "not in the owner's own sharedWithMe");
  t.equal((await alice.call('DELETE', `/v2/scores/${shared}`)).status, 204);
  t.same(await sharedWithBob(), [], 'a score in the trash is not listed');
  t.equal((await alice.call('POST', `/v2/scores/${shared}/untrash`)).status, 204);
  t.same(await sharedWithBob(), [shared], 'listed again once untrashed');
  t.equal((await alice.call('DELETE', `/v2/scores/${shared}/collaborators/${permission}`)).status, 204);
  t.same(await sharedWithBob(), [], 'the sharing ended: gone');
});
