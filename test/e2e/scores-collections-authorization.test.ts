/**
 * Who may call what, for every collection and user route: the owner, another user with every
 * scope, no token, a token never issued, the owner's token without the scopes the operation
 * takes, and read-only tokens. Each route runs on a collection and a score of its own, the owner
 * last, so a refused call that wrongly went through would show as a changed outcome for the owner.
 */
import t from 'tap';
import { scoresApi, type ScoresApiParts } from '../../src/scores/index.js';
import { generatedScore } from '../support/generated-score.js';
import { issueToken, scoreApiClient, scoreServiceEnv, type Fetched, type ScoreApiClient } from '../support/score-api-client.js';
import { startService } from '../support/service-harness.js';
import { tempDir } from '../support/temp-dir.js';

const XML = generatedScore({ title: 'Matrix', measures: 1, parts: 1 });
const ALL = 'scores,collections,account.public_profile';

interface Fixture {
  collection: string;
  score: string;
  user: string;
}

interface RouteCase {
  /** The route's method and pattern, as the API registers it. */
  route: string;
  call(client: ScoreApiClient, f: Fixture): Promise<Fetched>;
  owner: number;
  /** Another user with every scope: collections are private to their owner; profiles are public. */
  other: number;
  /** The scopes of the owner's token that lacks what the route takes. */
  without: string;
  /** Read-only (or narrower) scopes and what the owner gets with them. */
  narrower: Array<[scopes: string, status: number]>;
}

const READ_ONLY: Array<[string, number]> = [['collections.readonly', 200]];
const WRITES: Array<[string, number]> = [['collections.readonly', 403]];
const collection = (f: Fixture) => `/v2/collections/${f.collection}`;

const ROUTES: RouteCase[] = [
  { route: 'GET /v2/collections', call: (c) => c.call('GET', '/v2/collections'), owner: 200, other: 200, without: 'scores,account.public_profile', narrower: READ_ONLY },
  { route: 'POST /v2/collections', call: (c) => c.call('POST', '/v2/collections', { title: 'New', privacy: 'private' }), owner: 200, other: 200, without: 'scores,collections.readonly', narrower: WRITES },
  { route: 'GET /v2/collections/:collection', call: (c, f) => c.call('GET', collection(f)), owner: 200, other: 403, without: 'scores,account.public_profile', narrower: READ_ONLY },
  { route: 'PUT /v2/collections/:collection', call: (c, f) => c.call('PUT', collection(f), { title: 'Renamed' }), owner: 200, other: 403, without: 'scores,collections.add_scores', narrower: WRITES },
  { route: 'DELETE /v2/collections/:collection', call: (c, f) => c.call('DELETE', collection(f)), owner: 204, other: 403, without: 'scores,collections.add_scores', narrower: WRITES },
  { route: 'POST /v2/collections/:collection/untrash', call: (c, f) => c.call('POST', `${collection(f)}/untrash`), owner: 204, other: 403, without: 'scores,collections.add_scores', narrower: WRITES },
  // Listing a collection's scores takes `collections` alone in 2.13.0.
  { route: 'GET /v2/collections/:collection/scores', call: (c, f) => c.call('GET', `${collection(f)}/scores`), owner: 200, other: 403, without: 'scores,collections.add_scores', narrower: [['collections.readonly', 403]] },
  {
    route: 'PUT /v2/collections/:collection/scores/:score',
    call: (c, f) => c.call('PUT', `${collection(f)}/scores/${f.score}`),
    owner: 200,
    other: 403,
    without: 'scores,account.public_profile',
    narrower: [['collections.readonly', 403], ['collections.add_scores', 200]],
  },
  { route: 'DELETE /v2/collections/:collection/scores/:score', call: (c, f) => c.call('DELETE', `${collection(f)}/scores/${f.score}`), owner: 204, other: 403, without: 'scores,collections.add_scores', narrower: WRITES },
  { route: 'GET /v2/users/:user', call: (c, f) => c.call('GET', `/v2/users/${f.user}`), owner: 200, other: 200, without: 'scores,collections', narrower: [['account.education_profile', 200]] },
  { route: 'GET /v2/users/:user/likes', call: (c, f) => c.call('GET', `/v2/users/${f.user}/likes`), owner: 200, other: 200, without: 'scores,collections,account.education_profile', narrower: [] },
  { route: 'GET /v2/users/:user/scores', call: (c, f) => c.call('GET', `/v2/users/${f.user}/scores`), owner: 200, other: 200, without: 'collections,account.public_profile', narrower: [['scores.readonly', 200]] },
];

t.test('the matrix covers every collection and user route', async (t) => {
  // Routing only: no route handler runs, so the API's parts are never used.
  const api = scoresApi({ adminToken: '' } as ScoresApiParts);
  const routes = api.routes.filter((r) => r.path.startsWith('/v2/collections') || r.path.startsWith('/v2/users/')).map((r) => `${r.method} ${r.path}`);
  t.same(new Set(ROUTES.map((r) => r.route)), new Set(routes));
});

t.test('every collection and user route: owner, another user, no token, a bad token, a missing scope, narrower scopes', async (t) => {
  const env = await scoreServiceEnv(await tempDir(t, 'scores-collections-authz-'));
  const service = await startService(t, { env });
  const as = async (user: string, scopes: string) => scoreApiClient(service.baseUrl, await issueToken(env, user, scopes));
  const owner = await as('owner', ALL);
  const user = ((await owner.call('GET', '/v2/me')).json() as { id: string }).id;
  const identities: Array<[string, ScoreApiClient, (route: RouteCase) => number]> = [
    ['another user', await as('other', `${ALL},account.education_profile`), (r) => r.other],
    ['no token', scoreApiClient(service.baseUrl, undefined), () => 401],
    ['a token never issued', scoreApiClient(service.baseUrl, 'flatpat_neverissued'), () => 401],
  ];

  for (const route of ROUTES) {
    const score = ((await owner.call('POST', '/v2/scores', { privacy: 'private', data: XML })).json() as { id: string }).id;
    const folder = ((await owner.call('POST', '/v2/collections', { title: 'Fixture', privacy: 'private' })).json() as { id: string }).id;
    if (route.route.endsWith('untrash')) await owner.call('DELETE', `/v2/collections/${folder}`);
    if (route.route.startsWith('DELETE /v2/collections/:collection/scores')) await owner.call('PUT', `/v2/collections/${folder}/scores/${score}`);
    const fixture = { collection: folder, score, user };
    for (const [who, client, expected] of identities) {
      const answer = await route.call(client, fixture);
      t.equal(answer.status, expected(route), `${route.route}: ${who}`);
      if (answer.status >= 400) t.match(answer.json(), { code: String, message: String }, `${route.route}: ${who} gets an error body`);
    }
    const refused = await route.call(await as('owner', route.without), fixture);
    t.equal(refused.status, 403, `${route.route}: the owner's token with ${route.without} only`);
    t.match(refused.json(), { code: 'FORBIDDEN', message: /needs one of the scopes/ });
    for (const [scopes, status] of route.narrower) t.equal((await route.call(await as('owner', scopes), fixture)).status, status, `${route.route}: the owner's token with ${scopes}`);
    t.equal((await route.call(owner, fixture)).status, route.owner, `${route.route}: the owner`);
  }
});
