/**
 * Who may call what, for every organization route: an admin of the organization, one of its
 * teachers, one of its users, the admin of another organization, no token, a token never
 * issued, a token without the operation's scopes, and one with its read-only scope only. Every
 * call runs on accounts, invitations and credentials of its own, so what one identity did cannot
 * change what the next one gets.
 */
import t from 'tap';
import { scoresApi, type ScoresApiParts } from '../../src/scores/index.js';
import { issueToken, scoreApiClient, scoreServiceEnv, type Fetched, type ScoreApiClient } from '../support/score-api-client.js';
import { startService } from '../support/service-harness.js';
import { tempDir } from '../support/temp-dir.js';

const ADMIN = 'admin-secret-of-at-least-32-characters';

interface Fixture {
  member: string;
  invitation: string;
  credentials: string;
  /** A name no account has yet. */
  fresh: string;
}

/** Expected statuses for: the organization's admin, its teacher, its user, another organization's admin, a read-only token of the admin. */
type Statuses = [admin: number, teacher: number, user: number, otherAdmin: number, readOnly: number];

interface RouteCase {
  route: string;
  /** The read-only scope of the operation's family. */
  readOnlyScope: 'edu.admin.users.readonly' | 'edu.admin.lti.readonly';
  call(client: ScoreApiClient, f: Fixture): Promise<Fetched>;
  expected: Statuses;
}

const USERS_RO = 'edu.admin.users.readonly';
const LTI_RO = 'edu.admin.lti.readonly';
// Another organization's admin reads and creates in their own organization; what names this one's is not found.
const LIST: Statuses = [200, 403, 403, 200, 200];
const CREATE: Statuses = [200, 403, 403, 200, 403];
const CHANGE: Statuses = [200, 403, 403, 404, 403];
const REMOVE: Statuses = [204, 403, 403, 404, 403];

const ROUTES: RouteCase[] = [
  { route: 'GET /v2/organizations/users', readOnlyScope: USERS_RO, call: (c) => c.call('GET', '/v2/organizations/users'), expected: LIST },
  { route: 'POST /v2/organizations/users', readOnlyScope: USERS_RO, call: (c, f) => c.call('POST', '/v2/organizations/users', { username: f.fresh, password: 'secret123' }), expected: CREATE },
  { route: 'GET /v2/organizations/users/count', readOnlyScope: USERS_RO, call: (c) => c.call('GET', '/v2/organizations/users/count'), expected: LIST },
  { route: 'PUT /v2/organizations/users/:user', readOnlyScope: USERS_RO, call: (c, f) => c.call('PUT', `/v2/organizations/users/${f.member}`, { firstname: 'Renamed' }), expected: CHANGE },
  { route: 'DELETE /v2/organizations/users/:user', readOnlyScope: USERS_RO, call: (c, f) => c.call('DELETE', `/v2/organizations/users/${f.member}`), expected: REMOVE },
  { route: 'GET /v2/organizations/invitations', readOnlyScope: USERS_RO, call: (c) => c.call('GET', '/v2/organizations/invitations'), expected: LIST },
  { route: 'POST /v2/organizations/invitations', readOnlyScope: USERS_RO, call: (c, f) => c.call('POST', '/v2/organizations/invitations', { email: `${f.fresh}@school.test` }), expected: CREATE },
  { route: 'DELETE /v2/organizations/invitations/:invitation', readOnlyScope: USERS_RO, call: (c, f) => c.call('DELETE', `/v2/organizations/invitations/${f.invitation}`), expected: REMOVE },
  { route: 'GET /v2/organizations/lti/credentials', readOnlyScope: LTI_RO, call: (c) => c.call('GET', '/v2/organizations/lti/credentials'), expected: LIST },
  { route: 'POST /v2/organizations/lti/credentials', readOnlyScope: LTI_RO, call: (c) => c.call('POST', '/v2/organizations/lti/credentials', { name: 'Canvas', lms: 'canvas' }), expected: CREATE },
  { route: 'DELETE /v2/organizations/lti/credentials/:credentials', readOnlyScope: LTI_RO, call: (c, f) => c.call('DELETE', `/v2/organizations/lti/credentials/${f.credentials}`), expected: REMOVE },
];

t.test('the matrix covers every organization route', async (t) => {
  // Routing only: no route handler runs, so the API's parts are never used.
  const api = scoresApi({ adminToken: '' } as ScoresApiParts);
  const routes = api.routes.filter((r) => r.path.startsWith('/v2/organizations')).map((r) => `${r.method} ${r.path}`);
  t.same(new Set(ROUTES.map((r) => r.route)), new Set(routes));
  t.equal(ROUTES.length, new Set(ROUTES.map((r) => r.route)).size, 'each route once');
});

t.test('every organization route: admin, teacher, user, other admin, no token, bad token, missing scope, read-only scope', async (t) => {
  const dataDir = await tempDir(t, 'org-authz-');
  const env = await scoreServiceEnv(dataDir);
  const service = await startService(t, { env: { ...env, SCORES_ADMIN_TOKEN: ADMIN } });
  const operator = scoreApiClient(service.baseUrl, ADMIN);
  const account = async (name: string, organization: string, organizationRole: string) =>
    ((await operator.call('PUT', `/v2/admin/users/${name}`, { organization, organizationRole })).json() as { id: string }).id;
  for (const [name, organization, role] of [['principal', 'school', 'admin'], ['teacher', 'school', 'teacher'], ['pupil', 'school', 'user'], ['rival', 'other', 'admin']] as const) {
    await account(name, organization, role);
  }
  const client = async (name: string, scopes = 'edu.admin') => scoreApiClient(service.baseUrl, await issueToken(env, name, scopes));
  const principal = await client('principal');
  const members: Array<[string, ScoreApiClient]> = [
    ['the admin', principal],
    ['a teacher of the organization', await client('teacher')],
    ['a user of the organization', await client('pupil')],
    ["another organization's admin", await client('rival')],
  ];
  const refused: Array<[string, ScoreApiClient, number]> = [
    ['no token', scoreApiClient(service.baseUrl, undefined), 401],
    ['a token never issued', scoreApiClient(service.baseUrl, 'flatpat_neverissued'), 401],
    ['the admin without the admin scopes', await client('principal', 'edu.classes,scores'), 403],
  ];
  const readOnly = { [USERS_RO]: await client('principal', USERS_RO), [LTI_RO]: await client('principal', LTI_RO) };

  let n = 0;
  const fixture = async (): Promise<Fixture> => {
    n += 1;
    const member = await account(`member${n}`, 'school', 'user');
    const invitation = ((await principal.call('POST', '/v2/organizations/invitations', { email: `invited${n}@school.test` })).json() as { id: string }).id;
    const credentials = ((await principal.call('POST', '/v2/organizations/lti/credentials', { name: `LMS ${n}`, lms: 'other' })).json() as { id: string }).id;
    return { member, invitation, credentials, fresh: `fresh${n}` };
  };

  for (const route of ROUTES) {
    for (const [who, caller, status] of refused) {
      const answer = await route.call(caller, await fixture());
      t.equal(answer.status, status, `${route.route}: ${who}`);
      t.match(answer.json(), { code: String, message: String }, `${route.route}: ${who} gets an error body`);
    }
    const callers: Array<[string, ScoreApiClient]> = [...members, [`the admin with ${route.readOnlyScope} only`, readOnly[route.readOnlyScope]]];
    for (const [i, [who, caller]] of callers.entries()) {
      const answer = await route.call(caller, await fixture());
      t.equal(answer.status, route.expected[i], `${route.route}: ${who}`);
      if (answer.status >= 400) t.match(answer.json(), { code: String, message: String }, `${route.route}: ${who} gets an error body`);
    }
  }
});
