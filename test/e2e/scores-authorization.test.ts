/**
 * Who may call what, for every route of the score API: the owner, another user with every
 * scope, no token, a token never issued, and a token without the scope the operation needs.
 * Each route runs on resources of its own, the owner last, so a refused call that wrongly went
 * through would show as a changed outcome for the owner.
 */
import t from 'tap';
import { scoresApi, type ScoresApiParts } from '../../src/scores/index.js';
import { generatedScore } from '../support/generated-score.js';
import { issueToken, scoreApiClient, type Fetched, type ScoreApiClient, scoreServiceEnv } from '../support/score-api-client.js';
import { startService } from '../support/service-harness.js';
import { tempDir } from '../support/temp-dir.js';

const XML = generatedScore({ title: 'Matrix', measures: 1, parts: 1 });
const PNG = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex');

interface Fixture {
  score: string;
  track: string;
}

interface RouteCase {
  name: string;
  /** The route's method and pattern, as the API registers it. */
  route: string;
  /** Calls the route on the fixture as `client`. */
  call(client: ScoreApiClient, fixture: Fixture): Promise<Fetched>;
  owner: number;
  /** Another user with every scope: the score is private to its owner. */
  other: number;
  /** Scopes of the token that lacks what the route needs. */
  without: 'scores' | 'profile';
}

const json = { privacy: 'private', data: XML };
const ROUTES: RouteCase[] = [
  { name: 'GET /me', route: 'GET /v2/me', call: (c) => c.call('GET', '/v2/me'), owner: 200, other: 200, without: 'profile' },
  { name: 'PUT /me/picture', route: 'PUT /v2/me/picture', call: (c) => c.call('PUT', '/v2/me/picture', PNG, { 'content-type': 'image/png' }), owner: 200, other: 200, without: 'profile' },
  { name: 'PUT /me/coverPicture', route: 'PUT /v2/me/coverPicture', call: (c) => c.call('PUT', '/v2/me/coverPicture', PNG, { 'content-type': 'image/png' }), owner: 200, other: 200, without: 'profile' },
  { name: 'POST /scores', route: 'POST /v2/scores', call: (c) => c.call('POST', '/v2/scores', json), owner: 200, other: 200, without: 'scores' },
  { name: 'GET /scores/{score}', route: 'GET /v2/scores/:score', call: (c, f) => c.call('GET', `/v2/scores/${f.score}`), owner: 200, other: 403, without: 'scores' },
  { name: 'PUT /scores/{score}', route: 'PUT /v2/scores/:score', call: (c, f) => c.call('PUT', `/v2/scores/${f.score}`, { title: 'x' }), owner: 200, other: 403, without: 'scores' },
  { name: 'DELETE /scores/{score}', route: 'DELETE /v2/scores/:score', call: (c, f) => c.call('DELETE', `/v2/scores/${f.score}`), owner: 204, other: 403, without: 'scores' },
  { name: 'POST /scores/{score}/untrash', route: 'POST /v2/scores/:score/untrash', call: (c, f) => c.call('POST', `/v2/scores/${f.score}/untrash`), owner: 204, other: 404, without: 'scores' },
  // Another user may not read the private score, so may not fork it or list its submissions.
  { name: 'POST /scores/{score}/fork', route: 'POST /v2/scores/:score/fork', call: (c, f) => c.call('POST', `/v2/scores/${f.score}/fork`, {}), owner: 200, other: 403, without: 'scores' },
  { name: 'GET /scores/{score}/submissions', route: 'GET /v2/scores/:score/submissions', call: (c, f) => c.call('GET', `/v2/scores/${f.score}/submissions`), owner: 200, other: 403, without: 'scores' },
  { name: 'GET /scores/{score}/revisions', route: 'GET /v2/scores/:score/revisions', call: (c, f) => c.call('GET', `/v2/scores/${f.score}/revisions`), owner: 200, other: 403, without: 'scores' },
  { name: 'POST /scores/{score}/revisions', route: 'POST /v2/scores/:score/revisions', call: (c, f) => c.call('POST', `/v2/scores/${f.score}/revisions`, { data: XML }), owner: 200, other: 403, without: 'scores' },
  { name: 'GET /scores/{score}/revisions/last', route: 'GET /v2/scores/:score/revisions/:revision', call: (c, f) => c.call('GET', `/v2/scores/${f.score}/revisions/last`), owner: 200, other: 403, without: 'scores' },
  { name: 'GET /scores/{score}/revisions/last/xml', route: 'GET /v2/scores/:score/revisions/:revision/:format', call: (c, f) => c.call('GET', `/v2/scores/${f.score}/revisions/last/xml`), owner: 200, other: 403, without: 'scores' },
  { name: 'GET /scores/{score}/revisions/last/midi?url=true', route: 'GET /v2/scores/:score/revisions/:revision/:format', call: (c, f) => c.call('GET', `/v2/scores/${f.score}/revisions/last/midi?url=true`), owner: 200, other: 403, without: 'scores' },
  { name: 'GET /scores/{score}/tracks', route: 'GET /v2/scores/:score/tracks', call: (c, f) => c.call('GET', `/v2/scores/${f.score}/tracks`), owner: 200, other: 403, without: 'scores' },
  { name: 'POST /scores/{score}/tracks', route: 'POST /v2/scores/:score/tracks', call: (c, f) => c.call('POST', `/v2/scores/${f.score}/tracks`, { url: 'https://youtu.be/abc' }), owner: 200, other: 403, without: 'scores' },
  { name: 'GET /scores/{score}/tracks/{track}', route: 'GET /v2/scores/:score/tracks/:track', call: (c, f) => c.call('GET', `/v2/scores/${f.score}/tracks/${f.track}`), owner: 200, other: 403, without: 'scores' },
  { name: 'PUT /scores/{score}/tracks/{track}', route: 'PUT /v2/scores/:score/tracks/:track', call: (c, f) => c.call('PUT', `/v2/scores/${f.score}/tracks/${f.track}`, { title: 'x' }), owner: 200, other: 403, without: 'scores' },
  { name: 'DELETE /scores/{score}/tracks/{track}', route: 'DELETE /v2/scores/:score/tracks/:track', call: (c, f) => c.call('DELETE', `/v2/scores/${f.score}/tracks/${f.track}`), owner: 204, other: 403, without: 'scores' },
];

t.test('the matrix covers every route that takes a bearer token', async (t) => {
  // Routing only: no route handler runs, so the API's parts are never used.
  const api = scoresApi({ adminToken: '' } as ScoresApiParts);
  // Files and admin routes take no user token; the education, collection, user and organization routes have matrices of their own.
  const tokenless = ['/v2/files/', '/v2/admin/', '/v2/classes', '/v2/groups/', '/v2/collections', '/v2/users/', '/v2/organizations'];
  // Collaborators and comments have theirs too (scores-sharing-authorization.test.ts).
  const sharing = (path: string) => path.startsWith('/v2/scores/') && (path.includes('/collaborators') || path.includes('/comments'));
  const routes = api.routes.filter((r) => !tokenless.some((prefix) => r.path.startsWith(prefix)) && !sharing(r.path)).map((r) => `${r.method} ${r.path}`);
  t.same(new Set(ROUTES.map((r) => r.route)), new Set(routes));
});

t.test('every route: owner, another user, no token, a bad token, a missing scope', async (t) => {
  const dataDir = await tempDir(t, 'scores-authz-');
  const env = await scoreServiceEnv(dataDir);
  const service = await startService(t, { env });
  const all = 'scores,account.public_profile';
  const owner = scoreApiClient(service.baseUrl, await issueToken(env, 'owner', all));
  const identities: Array<[string, ScoreApiClient, (route: RouteCase) => number]> = [
    ['another user', scoreApiClient(service.baseUrl, await issueToken(env, 'other', all)), (r) => r.other],
    ['no token', scoreApiClient(service.baseUrl, undefined), () => 401],
    ['a token never issued', scoreApiClient(service.baseUrl, 'flatpat_neverissued'), () => 401],
  ];
  const lacking = {
    scores: scoreApiClient(service.baseUrl, await issueToken(env, 'owner', 'account.public_profile')),
    profile: scoreApiClient(service.baseUrl, await issueToken(env, 'owner', 'scores')),
  };

  for (const route of ROUTES) {
    const score = ((await owner.call('POST', '/v2/scores', json)).json() as { id: string }).id;
    const track = ((await owner.call('POST', `/v2/scores/${score}/tracks`, { url: 'https://youtu.be/abc' })).json() as { id: string }).id;
    const fixture = { score, track };
    if (route.name.includes('untrash')) await owner.call('DELETE', `/v2/scores/${score}`);
    for (const [who, client, expected] of identities) {
      const answer = await route.call(client, fixture);
      t.equal(answer.status, expected(route), `${route.name}: ${who}`);
      if (answer.status >= 400) t.match(answer.json(), { code: String, message: String }, `${route.name}: ${who} gets an error body`);
    }
    const refused = await route.call(lacking[route.without], fixture);
    t.equal(refused.status, 403, `${route.name}: the owner's token without ${route.without === 'scores' ? 'a scores scope' : 'a profile scope'}`);
    t.match(refused.json(), { code: 'FORBIDDEN', message: /needs one of the scopes/ });
    t.equal((await route.call(owner, fixture)).status, route.owner, `${route.name}: the owner`);
  }
});

t.test('a token with scores.readonly reads but does not write', async (t) => {
  const dataDir = await tempDir(t, 'scores-authz-ro-');
  const env = await scoreServiceEnv(dataDir);
  const service = await startService(t, { env });
  const owner = scoreApiClient(service.baseUrl, await issueToken(env, 'owner', 'scores'));
  const reader = scoreApiClient(service.baseUrl, await issueToken(env, 'owner', 'scores.readonly'));
  const score = ((await owner.call('POST', '/v2/scores', json)).json() as { id: string }).id;
  const track = ((await owner.call('POST', `/v2/scores/${score}/tracks`, { url: 'https://youtu.be/abc' })).json() as { id: string }).id;
  for (const route of ROUTES.filter((r) => r.without === 'scores')) {
    const status = (await route.call(reader, { score, track })).status;
    const writes = !route.name.startsWith('GET');
    t.equal(status, writes ? 403 : route.owner, `${route.name}: ${writes ? 'refused' : 'allowed'}`);
  }
});
