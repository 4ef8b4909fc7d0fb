/**
 * Sharing a score with collaborators (users by id or username, a class's group) and the rights
 * each gives wherever the score is used; comments on the document and inline, replies,
 * mentions, editing, resolving and deleting; the bounds; and both kept across kill -9.
 */
import { join } from 'node:path';
import t from 'tap';
import { flatSchemaErrors } from '../support/flat-schema.js';
import { generatedScore } from '../support/generated-score.js';
import { startProcess } from '../support/process-harness.js';
import { issueToken, scoreApiClient, scoreServiceEnv, type ScoreApiClient } from '../support/score-api-client.js';
import { startService } from '../support/service-harness.js';
import type { Teardown } from '../support/teardown.js';
import { tempDir } from '../support/temp-dir.js';

const XML = generatedScore({ title: 'Shared', measures: 2, parts: 1 });
const CONTEXT = { partUuid: 'p1', staffUuid: 's1', measureUuids: ['m1', 'm2'], startTimePos: 0, stopTimePos: 1, startDpq: 1, stopDpq: 1 };

async function sharingService(t: Teardown, extraEnv: Record<string, string> = {}) {
  const env = { ...(await scoreServiceEnv(await tempDir(t, 'scores-sharing-'))), ...extraEnv };
  const service = await startService(t, { env });
  const users = async (...names: string[]) => {
    const clients: Record<string, { client: ScoreApiClient; id: string }> = {};
    for (const name of names) {
      const client = scoreApiClient(service.baseUrl, await issueToken(env, name, 'scores,account.public_profile,edu.classes'));
      clients[name] = { client, id: ((await client.call('GET', '/v2/me?onlyId=true')).json() as { id: string }).id };
    }
    return clients;
  };
  return { env, service, users };
}

const idOf = (answer: { json(): unknown }) => (answer.json() as { id: string }).id;

t.test('collaborators: each right allows what it says and is refused the rest', async (t) => {
  const { users } = await sharingService(t);
  const { owner, reader, writer, admin, stranger } = await users('owner', 'reader', 'writer', 'admin', 'stranger');
  const o = owner!.client;
  const score = idOf(await o.call('POST', '/v2/scores', { privacy: 'private', data: XML }));
  const share = (body: unknown, by = o) => by.call('POST', `/v2/scores/${score}/collaborators`, body);

  const byName = await share({ user: 'reader' });
  t.equal(byName.status, 200, 'shared with a username');
  t.same(flatSchemaErrors('ResourceCollaborator', byName.json()), [], 'a ResourceCollaborator');
  t.match(byName.json(), { score, aclRead: true, aclWrite: false, aclAdmin: false, user: { id: reader!.id, username: 'reader' } });
  t.match((await share({ user: writer!.id, aclWrite: true })).json(), { aclRead: true, aclWrite: true, aclAdmin: false }, 'shared by id; writing includes reading');
  const adminPermission = (await share({ user: admin!.id, aclRead: false, aclAdmin: true })).json() as { id: string };
  t.match(adminPermission, { aclRead: true, aclWrite: true, aclAdmin: true }, 'administering includes writing and reading');

  const listed = (await o.call('GET', `/v2/scores/${score}/collaborators`)).json() as Array<{ id: string; user: { username: string } }>;
  t.same(listed.map((c) => c.user.username), ['owner', 'reader', 'writer', 'admin'], 'the owner first, then the collaborators as added');
  t.match((await o.call('GET', `/v2/scores/${score}/collaborators/${adminPermission.id}`)).json(), { id: adminPermission.id, user: { username: 'admin' } }, 'one by its permission id');
  t.match((await o.call('GET', `/v2/scores/${score}/collaborators/${admin!.id}`)).json(), { id: adminPermission.id }, 'one by its user id');
  t.match((await o.call('GET', `/v2/scores/${score}/collaborators/${owner!.id}`)).json(), { aclAdmin: true, user: { username: 'owner' } }, 'the owner');
  t.match((await o.call('GET', `/v2/scores/${score}/collaborators/000000000000000000000000`)).json(), { code: 'NOT_FOUND', param: 'collaborator' });

  const details = (await reader!.client.call('GET', `/v2/scores/${score}`)).json() as Record<string, unknown>;
  t.same(flatSchemaErrors('ScoreDetails', details), [], 'the reader gets ScoreDetails');
  t.match(details, { rights: { aclRead: true, aclWrite: false, aclAdmin: false, isCollaborator: true } }, "with the reader's rights");
  t.equal((details['collaborators'] as unknown[]).length, 4, 'and the collaborators');
  t.notOk('sharingKey' in details, 'not the sharing key');

  const can = async (client: ScoreApiClient) => ({
    read: (await client.call('GET', `/v2/scores/${score}`)).status,
    revisions: (await client.call('GET', `/v2/scores/${score}/revisions`)).status,
    export: (await client.call('GET', `/v2/scores/${score}/revisions/last/xml`)).status,
    tracks: (await client.call('GET', `/v2/scores/${score}/tracks`)).status,
    edit: (await client.call('PUT', `/v2/scores/${score}`, { title: 'Edited' })).status,
    revise: (await client.call('POST', `/v2/scores/${score}/revisions`, { data: XML })).status,
    record: (await client.call('POST', `/v2/scores/${score}/tracks`, { url: 'https://youtu.be/abc' })).status,
    privacy: (await client.call('PUT', `/v2/scores/${score}`, { privacy: 'private' })).status,
    share: (await client.call('POST', `/v2/scores/${score}/collaborators`, { user: 'stranger', aclRead: true })).status,
    delete: (await client.call('DELETE', `/v2/scores/${score}`)).status,
  });
  t.same(await can(reader!.client), { read: 200, revisions: 200, export: 200, tracks: 200, edit: 403, revise: 403, record: 403, privacy: 403, share: 403, delete: 403 }, 'aclRead: reads only');
  t.same(await can(writer!.client), { read: 200, revisions: 200, export: 200, tracks: 200, edit: 200, revise: 200, record: 200, privacy: 403, share: 403, delete: 403 }, 'aclWrite: also edits, revises, records');
  t.same(await can(admin!.client), { read: 200, revisions: 200, export: 200, tracks: 200, edit: 200, revise: 200, record: 200, privacy: 200, share: 200, delete: 403 }, 'aclAdmin: also shares; only the owner deletes');
  t.equal((await stranger!.client.call('GET', `/v2/scores/${score}`)).status, 200, 'the stranger the admin shared it with reads it');

  t.match((await share({ user: 'reader', aclWrite: true })).json(), { id: (byName.json() as { id: string }).id, aclWrite: true }, 'sharing again changes the rights of the same permission');
  t.equal((await reader!.client.call('PUT', `/v2/scores/${score}`, { title: 'By the reader' })).status, 200, 'which take effect at once');
  t.equal((await reader!.client.call('DELETE', `/v2/scores/${score}/collaborators/${admin!.id}`)).status, 403, 'a writer does not remove others');
  t.equal((await admin!.client.call('DELETE', `/v2/scores/${score}/collaborators/${reader!.id}`)).status, 204, 'an admin removes a collaborator');
  t.equal((await reader!.client.call('GET', `/v2/scores/${score}`)).status, 403, 'who then no longer reads it');
  t.equal((await writer!.client.call('DELETE', `/v2/scores/${score}/collaborators/${writer!.id}`)).status, 204, 'a collaborator leaves');
  t.equal((await writer!.client.call('GET', `/v2/scores/${score}`)).status, 403);
  t.equal((await admin!.client.call('DELETE', `/v2/scores/${score}/collaborators/${owner!.id}`)).status, 403, 'the owner is not removed');
  t.equal((await o.call('DELETE', `/v2/scores/${score}`)).status, 204, 'the owner deletes it');
});

t.test('adding a collaborator: 400 naming the field', async (t) => {
  const { users } = await sharingService(t);
  const { owner } = await users('owner', 'friend');
  const o = owner!.client;
  const score = idOf(await o.call('POST', '/v2/scores', { privacy: 'private', data: XML }));
  const cases: Array<[unknown, string, RegExp]> = [
    [{}, 'user', /user .* or group .* is required/],
    [{ user: 'friend', group: 'g' }, 'group', /not both/],
    [{ user: 'nobody' }, 'user', /no user has the id or username "nobody"/],
    [{ user: owner!.id }, 'user', /owner/],
    [{ userEmail: 'friend@example.com' }, 'userEmail', /invitations are not supported/],
    [{ group: '000000000000000000000000' }, 'group', /no group/],
    [{ user: 'friend', aclRead: false }, 'aclRead', /at least one right/],
    [{ user: 'friend', aclWrite: 'yes' }, 'aclWrite', /true or false/],
    [{ user: 42 }, 'user', /must be a string/],
  ];
  for (const [body, param, message] of cases) {
    const answer = await o.call('POST', `/v2/scores/${score}/collaborators`, body);
    t.equal(answer.status, 400, JSON.stringify(body));
    t.match(answer.json(), { code: 'BAD_REQUEST', param, message });
  }
  t.same(((await o.call('GET', `/v2/scores/${score}/collaborators`)).json() as unknown[]).length, 1, 'nothing was added');
  t.equal((await o.call('POST', '/v2/scores/000000000000000000000000/collaborators', { user: 'friend' })).status, 404, 'no such score');
});

t.test("a class's group as a collaborator gives its rights to the group's members", async (t) => {
  const { users } = await sharingService(t);
  const { teacher, pupil, outsider } = await users('teacher', 'pupil', 'outsider');
  const classroom = (await teacher!.client.call('POST', '/v2/classes', { name: 'Strings' })).json() as { id: string; enrollmentCode: string; studentsGroup: { id: string }; teachersGroup: { id: string } };
  t.equal((await pupil!.client.call('POST', `/v2/classes/enroll/${classroom.enrollmentCode}`)).status, 200);
  const score = idOf(await teacher!.client.call('POST', '/v2/scores', { privacy: 'private', data: XML }));
  t.equal((await pupil!.client.call('GET', `/v2/scores/${score}`)).status, 403, 'not before it is shared');

  const shared = await teacher!.client.call('POST', `/v2/scores/${score}/collaborators`, { group: classroom.studentsGroup.id, aclWrite: true });
  t.equal(shared.status, 200);
  t.same(flatSchemaErrors('ResourceCollaborator', shared.json()), []);
  t.match(shared.json(), { group: { id: classroom.studentsGroup.id, type: 'classStudents', usersCount: 1 }, aclWrite: true });
  t.match((await pupil!.client.call('GET', `/v2/scores/${score}`)).json(), { rights: { aclRead: true, aclWrite: true, aclAdmin: false, isCollaborator: true } }, 'a student of the class reads and writes it');
  t.equal((await pupil!.client.call('POST', `/v2/scores/${score}/revisions`, { data: XML })).status, 200);
  t.equal((await outsider!.client.call('GET', `/v2/scores/${score}`)).status, 403, 'someone outside the class does not');
  const other = idOf(await outsider!.client.call('POST', '/v2/scores', { privacy: 'private', data: XML }));
  t.match((await outsider!.client.call('POST', `/v2/scores/${other}/collaborators`, { group: classroom.studentsGroup.id })).json(), { param: 'group' }, "a group of a class one is not in cannot be named");
  t.equal((await pupil!.client.call('DELETE', `/v2/classes/${classroom.id}/users/${pupil!.id}`)).status, 204, 'the student leaves the class');
  t.equal((await pupil!.client.call('GET', `/v2/scores/${score}`)).status, 403, 'and with it the score');
});

t.test('comments: document and inline, replies, mentions, edits, resolving and deleting', async (t) => {
  const { users } = await sharingService(t);
  const { owner, reader, admin, stranger } = await users('owner', 'reader', 'admin', 'stranger');
  const o = owner!.client;
  const score = idOf(await o.call('POST', '/v2/scores', { privacy: 'private', data: XML }));
  const elsewhere = idOf(await o.call('POST', '/v2/scores', { privacy: 'private', data: XML }));
  await o.call('POST', `/v2/scores/${score}/collaborators`, { user: 'reader' });
  await o.call('POST', `/v2/scores/${score}/collaborators`, { user: 'admin', aclAdmin: true });
  const revisions = (await o.call('GET', `/v2/scores/${score}/revisions`)).json() as Array<{ id: string }>;
  const path = `/v2/scores/${score}/comments`;
  const r = reader!.client;

  const posted = await r.call('POST', path, { comment: 'Lovely' });
  t.equal(posted.status, 200, 'a reader comments');
  t.same(flatSchemaErrors('ScoreComment', posted.json()), [], 'a ScoreComment');
  const documentComment = posted.json() as { id: string };
  t.match(documentComment, { type: 'document', user: reader!.id, score, revision: revisions[0]!.id, comment: 'Lovely', rawComment: 'Lovely', mentions: [], resolved: false, spam: false }, 'on the document, on the newest revision');
  const inline = (await o.call('POST', path, { comment: `@[${reader!.id}:reader] bar 2?`, rawComment: '@reader bar 2?', mentions: [reader!.id], context: CONTEXT })).json() as { id: string };
  t.match(inline, { type: 'inline', context: CONTEXT, mentions: [reader!.id] }, 'inline with a context, with a mention');
  const reply = (await r.call('POST', path, { comment: 'Yes', replyTo: inline.id })).json() as { id: string };
  t.match(reply, { replyTo: inline.id, type: 'document' });
  const replyToReply = idOf(await o.call('POST', path, { comment: 'Sure?', replyTo: reply.id }));
  const foreign = idOf(await o.call('POST', `/v2/scores/${elsewhere}/comments`, { comment: 'Elsewhere' }));

  const list = async (query = '') => ((await o.call('GET', `${path}${query}`)).json() as Array<{ id: string }>).map((c) => c.id);
  t.same(await list(), [documentComment.id, inline.id, reply.id, replyToReply], 'oldest first');
  t.same(await list('?direction=desc&sort=date'), [replyToReply, reply.id, inline.id, documentComment.id], 'newest first');
  t.same(await list('?type=inline'), [inline.id], 'inline only');
  t.same(await list('?type=document'), [documentComment.id, reply.id, replyToReply], 'document only');
  t.match((await o.call('GET', `${path}?type=margin`)).json(), { code: 'BAD_REQUEST', param: 'type' });
  t.match((await o.call('GET', `/v2/scores/${score}`)).json(), { comments: { total: 3, unique: 2, weekly: 2, monthly: 2 } }, 'ScoreDetails counts the comments on the document');

  const refusals: Array<[unknown, string, RegExp]> = [
    [{}, 'comment', /required/],
    [{ comment: '' }, 'comment', /empty/],
    [{ comment: 'x'.repeat(10_001) }, 'comment', /at most 10000/],
    [{ comment: 'Hi', mentions: ['000000000000000000000000'], rawComment: 'Hi' }, 'mentions', /mentions\[0\]: no user/],
    [{ comment: 'Hi', mentions: [reader!.id] }, 'rawComment', /required when the comment has mentions/],
    [{ comment: 'Hi', replyTo: foreign }, 'replyTo', /no comment/],
    [{ comment: 'Hi', revision: '000000000000000000000000' }, 'revision', /no revision/],
    [{ comment: 'Hi', context: { ...CONTEXT, partUuid: undefined } }, 'context.partUuid', /required/],
    [{ comment: 'Hi', context: { ...CONTEXT, startDpq: 'one' } }, 'context.startDpq', /number/],
    [{ comment: 'Hi', context: 'bar 2' }, 'context', /object/],
  ];
  for (const [body, param, message] of refusals) {
    const answer = await r.call('POST', path, body);
    t.equal(answer.status, 400, JSON.stringify(body).slice(0, 80));
    t.match(answer.json(), { code: 'BAD_REQUEST', param, message });
  }
  t.equal((await stranger!.client.call('POST', path, { comment: 'Hi' })).status, 403, 'someone who cannot read it does not comment');
  t.equal((await stranger!.client.call('GET', path)).status, 403, 'nor read the comments');

  const edited = await r.call('PUT', `${path}/${documentComment.id}`, { comment: 'Lovely indeed' });
  t.match(edited.json(), { comment: 'Lovely indeed', rawComment: 'Lovely indeed' }, 'its author edits it');
  t.equal((await o.call('PUT', `${path}/${documentComment.id}`, { comment: 'Mine now' })).status, 403, 'nobody else does, not even the owner');
  t.match((await r.call('PUT', `${path}/000000000000000000000000`, { comment: 'x' })).json(), { code: 'NOT_FOUND', param: 'comment' });
  t.match((await r.call('PUT', `${path}/${documentComment.id}`, { comment: '' })).json(), { param: 'comment' });

  t.equal((await r.call('PUT', `${path}/${inline.id}/resolved`)).status, 403, 'a reader does not resolve a comment of another');
  t.equal((await admin!.client.call('PUT', `${path}/${inline.id}/resolved`)).status, 204, 'an admin resolves it');
  t.match((await o.call('GET', `${path}?type=inline`)).json(), [{ id: inline.id, resolved: true, resolvedBy: admin!.id }]);
  t.equal((await o.call('DELETE', `${path}/${inline.id}/resolved`)).status, 204, 'the owner unresolves it');
  const unresolved = ((await o.call('GET', `${path}?type=inline`)).json() as Array<Record<string, unknown>>)[0];
  t.match(unresolved, { resolved: false });
  t.notOk(unresolved !== undefined && 'resolvedBy' in unresolved);
  t.match((await o.call('PUT', `${path}/${documentComment.id}/resolved`)).json(), { code: 'BAD_REQUEST', param: 'comment' }, 'a comment on the document is not resolved');

  t.equal((await r.call('DELETE', `${path}/${inline.id}`)).status, 403, 'a reader does not delete the comment of another');
  t.equal((await admin!.client.call('DELETE', `${path}/${inline.id}`)).status, 204, 'an admin does, with the replies under it');
  t.same(await list(), [documentComment.id]);
  t.equal((await r.call('DELETE', `${path}/${documentComment.id}`)).status, 204, 'an author deletes their own');
  t.equal((await r.call('DELETE', `${path}/${documentComment.id}`)).status, 404);
  t.equal((await o.call('DELETE', `/v2/scores/${elsewhere}?now=true`)).status, 204, 'a score with comments and collaborators is deleted for good');
});

t.test('SCORES_MAX_COMMENTS_PER_SCORE bounds the comments of one score', async (t) => {
  const { users } = await sharingService(t, { SCORES_MAX_COMMENTS_PER_SCORE: '2' });
  const { owner } = await users('owner');
  const o = owner!.client;
  const score = idOf(await o.call('POST', '/v2/scores', { privacy: 'public', data: XML }));
  for (const text of ['one', 'two']) t.equal((await o.call('POST', `/v2/scores/${score}/comments`, { comment: text })).status, 200);
  const refused = await o.call('POST', `/v2/scores/${score}/comments`, { comment: 'three' });
  t.equal(refused.status, 402);
  t.match(refused.json(), { code: 'QUOTA_EXCEEDED', param: 'score', message: /2 comments/ });
  t.equal(((await o.call('GET', `/v2/scores/${score}/comments`)).json() as unknown[]).length, 2, 'nothing stored');
});

t.test('collaborators and comments survive kill -9 right after they were acknowledged', async (t) => {
  const dataDir = join(await tempDir(t, 'scores-sharing-durable-'), 'data');
  const env = { ...(await scoreServiceEnv(dataDir)), RUNTIME_ROOT: '/nonexistent', HTTP_WORKERS: '1' };
  const first = await startProcess(t, env);
  const ownerToken = await issueToken(env, 'owner', 'scores');
  const friendToken = await issueToken(env, 'friend', 'scores');
  const owner = scoreApiClient(first.baseUrl, ownerToken);
  const score = idOf(await owner.call('POST', '/v2/scores', { privacy: 'private', data: XML }));
  t.equal((await owner.call('POST', `/v2/scores/${score}/collaborators`, { user: 'friend', aclWrite: true })).status, 200);
  const comment = idOf(await scoreApiClient(first.baseUrl, friendToken).call('POST', `/v2/scores/${score}/comments`, { comment: 'Kept', context: CONTEXT }));
  t.equal((await owner.call('PUT', `/v2/scores/${score}/comments/${comment}/resolved`)).status, 204);
  first.kill('SIGKILL');
  await first.waitForExit();

  const second = await startProcess(t, env);
  const friend = scoreApiClient(second.baseUrl, friendToken);
  t.match((await friend.call('GET', `/v2/scores/${score}`)).json(), { rights: { aclWrite: true } }, 'the collaborator and their rights');
  t.match((await friend.call('GET', `/v2/scores/${score}/comments`)).json(), [{ id: comment, comment: 'Kept', resolved: true }], 'the comment, resolved');
});
