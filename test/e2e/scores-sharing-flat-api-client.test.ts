/**
 * The published JavaScript client, `flat-api` 1.0.1, drives sharing and comments end to end: a
 * collaborator added and listed, who then reads the score and comments; a reply, resolving and
 * unresolving, deleting, and the collaborator removed.
 */
import { FlatClient, FlatAuthorizationError } from 'flat-api';
import t from 'tap';
import { generatedScore } from '../support/generated-score.js';
import { issueToken, scoreServiceEnv } from '../support/score-api-client.js';
import { startService } from '../support/service-harness.js';
import { tempDir } from '../support/temp-dir.js';

t.test('flat-api 1.0.1: collaborators and comments', async (t) => {
  const env = await scoreServiceEnv(await tempDir(t, 'scores-flat-api-sharing-'));
  const service = await startService(t, { env });
  const baseUrl = `${service.baseUrl}/v2`;
  const alice = new FlatClient({ accessToken: await issueToken(env, 'alice', 'scores,account.public_profile'), baseUrl });
  const bob = new FlatClient({ accessToken: await issueToken(env, 'bob', 'scores,account.public_profile'), baseUrl });
  const bobId = (await bob.account.getAuthenticatedUser({ onlyId: true })).id!;
  const score = (await alice.scores.createScore({ body: { privacy: 'private', data: generatedScore({ title: 'Duet', measures: 2, parts: 1 }) } })).id!;
  await t.rejects(bob.scores.getScore({ score }), FlatAuthorizationError, 'bob reads nothing before it is shared');

  const added = await alice.scores.addScoreCollaborator({ score, body: { user: 'bob', aclRead: true } });
  t.match(added, { aclRead: true, aclWrite: false, user: { id: bobId, username: 'bob' } }, 'addScoreCollaborator');
  const listed = await alice.scores.getScoreCollaborators({ score });
  t.same(listed.map((c) => c.user?.username), ['alice', 'bob'], 'getScoreCollaborators: the owner, then bob');
  t.match(await alice.scores.getScoreCollaborator({ score, collaborator: added.id! }), { user: { username: 'bob' } }, 'getScoreCollaborator');
  t.match(await bob.scores.getScore({ score }), { title: 'Duet', rights: { aclRead: true, aclWrite: false, isCollaborator: true } }, 'bob reads it');

  const comment = await bob.scores.postScoreComment({ score, body: { comment: 'Bar 2 is rushed', context: { partUuid: 'p', measureUuids: ['m2'], startTimePos: 0, stopTimePos: 1, startDpq: 1, stopDpq: 1 } } });
  t.match(comment, { type: 'inline', user: bobId, resolved: false }, 'postScoreComment');
  const reply = await alice.scores.postScoreComment({ score, body: { comment: 'Fixed', replyTo: comment.id! } });
  t.match(reply, { replyTo: comment.id, type: 'document' }, 'a reply');
  t.match(await bob.scores.updateScoreComment({ score, comment: comment.id!, body: { comment: 'Bar 2 was rushed' } }), { comment: 'Bar 2 was rushed' }, 'updateScoreComment');
  await alice.scores.markScoreCommentResolved({ score, comment: comment.id! });
  t.match(await alice.scores.getScoreComments({ score, type: 'inline' }), [{ id: comment.id, resolved: true, resolvedBy: (await alice.account.getAuthenticatedUser({ onlyId: true })).id }], 'markScoreCommentResolved');
  await alice.scores.markScoreCommentUnresolved({ score, comment: comment.id! });
  t.match(await bob.scores.getScoreComments({ score, direction: 'desc' }), [{ id: reply.id }, { id: comment.id, resolved: false }], 'markScoreCommentUnresolved; newest first');
  await alice.scores.deleteScoreComment({ score, comment: comment.id! });
  t.same(await alice.scores.getScoreComments({ score }), [], 'deleteScoreComment takes the reply with it');

  await alice.scores.removeScoreCollaborator({ score, collaborator: bobId });
  await t.rejects(bob.scores.getScore({ score }), FlatAuthorizationError, 'removeScoreCollaborator: bob no longer reads it');
});
