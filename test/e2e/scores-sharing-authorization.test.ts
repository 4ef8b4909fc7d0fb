/**
 * Who may call what, for every collaborators and comments route of the score API: the owner, a
 * collaborator with each right (read, write, admin), another user with every scope, no token, a
 * token never issued, and the owner's token without a scope the operation accepts. Each call runs
 * on a score of its own; after a refused call the owner makes the same call there, so a refusal
 * that wrongly went through shows as a changed outcome for the owner.
 */
import t from 'tap';
import { scoresApi, type ScoresApiParts } from '../../src/scores/index.js';
import { generatedScore } from '../support/generated-score.js';
import { issueToken, scoreApiClient, scoreServiceEnv, type Fetched, type ScoreApiClient } from '../support/score-api-client.js';
import { startService } from '../support/service-harness.js';
import { tempDir } from '../support/temp-dir.js';

const XML = generatedScore({ title: 'Sharing matrix', measures: 1, parts: 1 });
const CONTEXT = { partUuid: 'p', measureUuids: ['m'], startTimePos: 0, stopTimePos: 1, startDpq: 1, stopDpq: 1 };

interface Fixture {
  score: string;
  /** A user the score is shared with (to read), whom the routes name. */
  target: string;
  /** An inline comment by the owner. */
  comment: string;
}

/** Expected statuses for: the owner, the read, write and admin collaborators, another user. */
type Expected = [number, number, number, number, number];

interface RouteCase {
  route: string;
  call(client: ScoreApiClient, fixture: Fixture): Promise<Fetched>;
  expected: Expected;
}

const c = (score: string) => `/v2/scores/${score}/comments`;
const ROUTES: RouteCase[] = [
  { route: 'GET /v2/scores/:score/collaborators', call: (client, f) => client.call('GET', `/v2/scores/${f.score}/collaborators`), expected: [200, 200, 200, 200, 403] },
  { route: 'POST /v2/scores/:score/collaborators', call: (client, f) => client.call('POST', `/v2/scores/${f.score}/collaborators`, { user: 'newcomer' }), expected: [200, 403, 403, 200, 403] },
  { route: 'GET /v2/scores/:score/collaborators/:collaborator', call: (client, f) => client.call('GET', `/v2/scores/${f.score}/collaborators/${f.target}`), expected: [200, 200, 200, 200, 403] },
  { route: 'DELETE /v2/scores/:score/collaborators/:collaborator', call: (client, f) => client.call('DELETE', `/v2/scores/${f.score}/collaborators/${f.target}`), expected: [204, 403, 403, 204, 403] },
  { route: 'GET /v2/scores/:score/comments', call: (client, f) => client.call('GET', c(f.score)), expected: [200, 200, 200, 200, 403] },
  { route: 'POST /v2/scores/:score/comments', call: (client, f) => client.call('POST', c(f.score), { comment: 'Hello' }), expected: [200, 200, 200, 200, 403] },
  { route: 'PUT /v2/scores/:score/comments/:comment', call: (client, f) => client.call('PUT', `${c(f.score)}/${f.comment}`, { comment: 'Edited' }), expected: [200, 403, 403, 403, 403] },
  { route: 'DELETE /v2/scores/:score/comments/:comment', call: (client, f) => client.call('DELETE', `${c(f.score)}/${f.comment}`), expected: [204, 403, 403, 204, 403] },
  { route: 'PUT /v2/scores/:score/comments/:comment/resolved', call: (client, f) => client.call('PUT', `${c(f.score)}/${f.comment}/resolved`), expected: [204, 403, 403, 204, 403] },
  { route: 'DELETE /v2/scores/:score/comments/:comment/resolved', call: (client, f) => client.call('DELETE', `${c(f.score)}/${f.comment}/resolved`), expected: [204, 403, 403, 204, 403] },
];

const isSharingRoute = (path: string) => path.startsWith('/v2/scores/') && (path.includes('/collaborators') || path.includes('/comments'));

t.test('the matrix covers every collaborators and comments route', async (t) => {
  // Routing only: no route handler runs, so the API's parts are never used.
  const api = scoresApi({ adminToken: '' } as ScoresApiParts);
  const routes = api.routes.filter((r) => isSharingRoute(r.path)).map((r) => `${r.method} ${r.path}`);
  t.same(new Set(ROUTES.map((r) => r.route)), new Set(routes));
});

t.test('every route: owner, read, write and admin collaborators, another user, no token, a bad token, a missing scope', async (t) => {
  const env = await scoreServiceEnv(await tempDir(t, 'scores-sharing-authz-'));
  const service = await startService(t, { env });
  const client = async (name: string, scopes = 'scores') => scoreApiClient(service.baseUrl, await issueToken(env, name, scopes));
  const owner = await client('owner');
  await client('newcomer');
  await client('target');
  const collaborators: Array<[string, string, Record<string, boolean>]> = [
    ['the read collaborator', 'reader', { aclRead: true }],
    ['the write collaborator', 'writer', { aclWrite: true }],
    ['the admin collaborator', 'admin', { aclAdmin: true }],
  ];
  const collaboratorClients = await Promise.all(collaborators.map(([, username]) => client(username)));
  const identities: Array<[string, ScoreApiClient, (route: RouteCase) => number]> = [
    ...collaborators.map(([who], i): [string, ScoreApiClient, (route: RouteCase) => number] => [who, collaboratorClients[i]!, (route) => route.expected[i + 1] ?? 0]),
    ['another user', await client('other', 'scores,scores.social,scores.readonly'), (route) => route.expected[4]],
    ['no token', scoreApiClient(service.baseUrl, undefined), () => 401],
    ['a token never issued', scoreApiClient(service.baseUrl, 'flatpat_neverissued'), () => 401],
    ["the owner's token without a scores scope", await client('owner', 'account.public_profile'), () => 403],
  ];
  const fixture = async (): Promise<Fixture> => {
    const score = ((await owner.call('POST', '/v2/scores', { privacy: 'private', data: XML })).json() as { id: string }).id;
    const target = ((await owner.call('POST', `/v2/scores/${score}/collaborators`, { user: 'target' })).json() as { user: { id: string } }).user.id;
    for (const [, username, rights] of collaborators) await owner.call('POST', `/v2/scores/${score}/collaborators`, { user: username, ...rights });
    const comment = ((await owner.call('POST', c(score), { comment: 'Bar one', context: CONTEXT })).json() as { id: string }).id;
    return { score, target, comment };
  };

  for (const route of ROUTES) {
    for (const [who, caller, expected] of identities) {
      const f = await fixture();
      const answer = await route.call(caller, f);
      t.equal(answer.status, expected(route), `${route.route}: ${who}`);
      if (answer.status >= 400) {
        t.match(answer.json(), { code: String, message: String }, `${route.route}: ${who} gets an error body`);
        t.equal((await route.call(owner, f)).status, route.expected[0], `${route.route}: the owner after ${who} was refused`);
      }
    }
  }
});

t.test('scores.readonly lists, scores.social comments, neither shares', async (t) => {
  const env = await scoreServiceEnv(await tempDir(t, 'scores-sharing-scopes-'));
  const service = await startService(t, { env });
  const owner = scoreApiClient(service.baseUrl, await issueToken(env, 'owner', 'scores'));
  await issueToken(env, 'newcomer', 'scores');
  const readonly = scoreApiClient(service.baseUrl, await issueToken(env, 'owner', 'scores.readonly'));
  const social = scoreApiClient(service.baseUrl, await issueToken(env, 'owner', 'scores.social'));
  for (const route of ROUTES) {
    const score = ((await owner.call('POST', '/v2/scores', { privacy: 'private', data: XML })).json() as { id: string }).id;
    const targetId = ((await owner.call('POST', `/v2/scores/${score}/collaborators`, { user: 'newcomer' })).json() as { user: { id: string } }).user.id;
    const comment = ((await owner.call('POST', c(score), { comment: 'Bar one', context: CONTEXT })).json() as { id: string }).id;
    const f = { score, target: targetId, comment };
    const reads = route.route.startsWith('GET');
    const onComments = route.route.includes('/comments');
    t.equal((await route.call(readonly, f)).status, reads ? route.expected[0] : 403, `${route.route}: scores.readonly ${reads ? 'allowed' : 'refused'}`);
    t.equal((await route.call(social, f)).status, onComments ? route.expected[0] : 403, `${route.route}: scores.social ${onComments ? 'allowed' : 'refused'}`);
  }
});
