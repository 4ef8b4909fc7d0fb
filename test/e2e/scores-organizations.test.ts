/**
 * An organization's admin manages it through the running service: its accounts (listing with
 * filters, sort and cursor pages, counting, creation, update, removal), its invitations (one to
 * a member's e-mail changes their role at once; another waits for the account created with its
 * e-mail) and its LTI 1.x credentials (the secret shown once, stored hashed). Accounts and their
 * organizations come from the admin routes (SCORES_ADMIN_TOKEN). Bodies are checked against the
 * Flat API 2.13.0 schemas.
 */
import { createHash } from 'node:crypto';
import Database from 'better-sqlite3';
import { join } from 'node:path';
import t from 'tap';
import { flatSchemaErrors } from '../support/flat-schema.js';
import { generatedScore } from '../support/generated-score.js';
import { issueToken, scoreApiClient, scoreServiceEnv, type ScoreApiClient } from '../support/score-api-client.js';
import { startService } from '../support/service-harness.js';
import { tempDir } from '../support/temp-dir.js';

const ADMIN = 'admin-secret-of-at-least-32-characters';
const SCOPES = 'edu.admin,edu.classes,edu.assignments';

interface UserJson {
  id: string;
  username: string;
  firstname: string;
  lastname: string;
  email?: string;
  organization?: string;
  organizationRole?: string;
}

/** A service with organization `school` (admin `principal`, teacher `ms.lee`, user `kid`) and `other` (admin `rival`). */
async function organizations(t: Tap) {
  const dataDir = await tempDir(t, 'orgs-');
  const env = await scoreServiceEnv(dataDir);
  const service = await startService(t, { env: { ...env, SCORES_ADMIN_TOKEN: ADMIN } });
  const admin = scoreApiClient(service.baseUrl, ADMIN);
  const ids: Record<string, string> = {};
  const people = [
    ['principal', 'school', 'admin'],
    ['ms.lee', 'school', 'teacher'],
    ['kid', 'school', 'user'],
    ['rival', 'other', 'admin'],
  ] as const;
  for (const [name, organization, organizationRole] of people) {
    ids[name] = ((await admin.call('PUT', `/v2/admin/users/${name}`, { email: `${name}@${organization}.test`, organization, organizationRole })).json() as { id: string }).id;
  }
  const client = async (name: string, scopes = SCOPES): Promise<ScoreApiClient> => scoreApiClient(service.baseUrl, await issueToken(env, name, scopes));
  return { service, env, dataDir, ids, client, principal: await client('principal'), rival: await client('rival') };
}
type Tap = Parameters<Parameters<typeof t.test>[0]>[0];

function schemaOk(t: Tap, schema: string, body: unknown): void {
  t.same(flatSchemaErrors(schema, body), [], `${schema} as the schema says`);
}

t.test('an admin lists, counts, creates, updates and removes the accounts of their organization', async (t) => {
  const { ids, principal, rival, client, dataDir } = await organizations(t);
  const listed = await principal.call('GET', '/v2/organizations/users');
  t.equal(listed.status, 200);
  const users = listed.json() as UserJson[];
  t.same(users.map((u) => u.username), ['principal', 'ms.lee', 'kid'], "the organization's accounts, oldest first; not another organization's");
  for (const user of users) schemaOk(t, 'UserDetailsAdmin', user);
  t.match(users[1], { id: ids['ms.lee'], email: 'ms.lee@school.test', organization: 'school', organizationRole: 'teacher' });
  t.equal((await principal.call('GET', '/v2/organizations/users/count')).json(), 3);
  t.equal((await principal.call('GET', '/v2/organizations/users/count?role=teacher&role=admin')).json(), 2, 'role filters, repeated');
  t.equal((await principal.call('GET', '/v2/organizations/users/count?q=LEE')).json(), 1, 'q searches names and e-mails, any case');

  const created = await principal.call('POST', '/v2/organizations/users', { username: 'newbie', password: 'secret123', firstname: 'Ada', lastname: 'Byron', email: 'Ada@School.test', locale: 'en' });
  t.equal(created.status, 200, created.text);
  const newbie = created.json() as UserJson;
  schemaOk(t, 'UserDetailsAdmin', newbie);
  t.match(newbie, { username: 'newbie', firstname: 'Ada', lastname: 'Byron', name: 'Ada Byron', email: 'ada@school.test', organization: 'school', organizationRole: 'user' });
  t.notOk('password' in newbie, 'no password in the answer');
  t.equal((await principal.call('POST', '/v2/organizations/users', { username: 'newbie', password: 'secret123' })).status, 409, 'a taken username');
  t.match((await principal.call('POST', '/v2/organizations/users', { username: 'other', password: 'secret123', email: 'ada@school.test' })).json(), { code: 'CONFLICT', param: 'email' });

  const updated = await principal.call('PUT', `/v2/organizations/users/${newbie.id}`, { organizationRole: 'teacher', username: 'ada', lastname: 'Lovelace' });
  t.equal(updated.status, 200, updated.text);
  t.match(updated.json(), { id: newbie.id, username: 'ada', firstname: 'Ada', lastname: 'Lovelace', organizationRole: 'teacher' });
  t.match((await principal.call('PUT', `/v2/organizations/users/${newbie.id}`, { username: 'kid' })).json(), { code: 'CONFLICT', param: 'username' }, "another account's name");
  t.equal((await principal.call('PUT', `/v2/organizations/users/${ids['rival']}`, { firstname: 'X' })).status, 404, "another organization's account is not found");
  t.equal((await rival.call('PUT', `/v2/organizations/users/${newbie.id}`, { firstname: 'X' })).status, 404, "nor is this one to the other organization's admin");

  // The account the admin created is closed: its token stops working, its scores and collections are deleted.
  const adaToken = await client('ada', 'edu.classes,scores,collections');
  const reader = await client('ms.lee', 'scores');
  const publicScore = async (owner: ScoreApiClient) => ((await owner.call('POST', '/v2/scores', { privacy: 'public', data: generatedScore({ title: 'Mine', measures: 1, parts: 1 }) })).json() as { id: string }).id;
  const adasScore = await publicScore(adaToken);
  t.equal((await adaToken.call('POST', '/v2/collections', { title: 'Homework', privacy: 'private' })).status, 200);
  t.equal((await reader.call('GET', `/v2/scores/${adasScore}`)).status, 200, 'her public score, before');
  t.equal((await principal.call('DELETE', `/v2/organizations/users/${newbie.id}`)).status, 204);
  t.equal((await adaToken.call('GET', '/v2/classes')).status, 401, 'a removed account is closed');
  t.equal((await reader.call('GET', `/v2/scores/${adasScore}`)).status, 404, 'and its scores are deleted');
  if (process.env['SCORES_TEST_STORE'] !== 'postgres') {
    const db = new Database(join(dataDir, 'scores', 'scores.sqlite'), { readonly: true });
    t.teardown(() => db.close());
    const count = (sql: string) => (db.prepare(sql).get(newbie.id) as { n: number }).n;
    t.equal(count('SELECT COUNT(*) AS n FROM scores WHERE owner_id = ?'), 0, 'no score row left');
    t.equal(count('SELECT COUNT(*) AS n FROM revisions WHERE user_id = ?'), 0, 'no revision left');
    t.equal(count('SELECT COUNT(*) AS n FROM collections WHERE owner_id = ?'), 0, 'no collection left');
  }
  t.equal((await principal.call('GET', '/v2/organizations/users/count')).json(), 3);
  // Converted to an individual account, it keeps working outside the organization, with its scores.
  const kidToken = await client('kid', 'edu.classes,scores');
  const kidsScore = await publicScore(kidToken);
  t.equal((await principal.call('DELETE', `/v2/organizations/users/${ids['kid']}?convertToIndividual=true`)).status, 204);
  t.equal((await kidToken.call('GET', '/v2/classes')).status, 200, 'converted: still an account');
  t.equal((await reader.call('GET', `/v2/scores/${kidsScore}`)).status, 200, 'converted: its scores stay');
  t.same(((await principal.call('GET', '/v2/organizations/users')).json() as UserJson[]).map((u) => u.username), ['principal', 'ms.lee']);
});

t.test('the accounts list pages with Link cursors, sorts, and answers ids only; bad parameters are named', async (t) => {
  const { principal, service, env } = await organizations(t);
  for (const [username, firstname] of [['u1', 'Zoe'], ['u2', 'Abe'], ['u3', 'Mia']] as const) {
    t.equal((await principal.call('POST', '/v2/organizations/users', { username, firstname, password: 'secret123' })).status, 200);
  }
  const token = await issueToken(env, 'principal', 'edu.admin.users.readonly');
  const get = (url: string) => fetch(url.startsWith('http') ? url : `${service.baseUrl}${url}`, { headers: { authorization: `Bearer ${token}` } });
  const firstPage = await get('/v2/organizations/users?limit=2&sort=firstname&direction=desc&role=user');
  t.same(((await firstPage.json()) as UserJson[]).map((u) => u.firstname), ['Zoe', 'Mia']);
  const next = /<([^>]+)>; rel="next"/.exec(firstPage.headers.get('link') ?? '')?.[1];
  t.ok(next, 'a next link');
  const secondPage = await get(next ?? '');
  t.same(((await secondPage.json()) as UserJson[]).map((u) => u.username), ['u2', 'kid'], 'the next page keeps the filters and the sort (kid has no first name)');
  t.notMatch(secondPage.headers.get('link') ?? '', /rel="next"/, 'the last page has no next');
  const previous = /<([^>]+)>; rel="previous"/.exec(secondPage.headers.get('link') ?? '')?.[1];
  t.same(((await (await get(previous ?? '')).json()) as UserJson[]).map((u) => u.firstname), ['Zoe', 'Mia'], 'previous goes back');
  const ids = (await (await get('/v2/organizations/users?onlyIds=true&limit=1')).json()) as Array<Record<string, unknown>>;
  t.same(Object.keys(ids[0] ?? {}), ['id'], 'onlyIds');

  const refused: Array<[string, string]> = [
    ['/v2/organizations/users?limit=0', 'limit'],
    ['/v2/organizations/users?limit=1001', 'limit'],
    ['/v2/organizations/users?next=garbage', 'next'],
    ['/v2/organizations/users?sort=age', 'sort'],
    ['/v2/organizations/users?direction=up', 'direction'],
    ['/v2/organizations/users?role=billing', 'role'],
    ['/v2/organizations/users?group=nosuchgroup', 'group'],
    ['/v2/organizations/users/count?noActiveLicense=maybe', 'noActiveLicense'],
  ];
  for (const [path, param] of refused) {
    const answer = await principal.call('GET', path);
    t.equal(answer.status, 400, path);
    t.match(answer.json(), { code: 'BAD_REQUEST', param }, `${path} names ${param}`);
  }
  const bodies: Array<[unknown, string]> = [
    [{ password: 'secret123' }, 'username'],
    [{ username: 'has space', password: 'secret123' }, 'username'],
    [{ username: 'a'.repeat(31), password: 'secret123' }, 'username'],
    [{ username: 'nopass' }, 'password'],
    [{ username: 'short', password: '12345' }, 'password'],
    [{ username: 'mail', password: 'secret123', email: 'not-an-address' }, 'email'],
    [{ username: 'named', password: 'secret123', firstname: 'x'.repeat(61) }, 'firstname'],
    [{ username: 'locale', password: 'secret123', locale: 'xx' }, 'locale'],
  ];
  for (const [body, param] of bodies) t.match((await principal.call('POST', '/v2/organizations/users', body)).json(), { code: 'BAD_REQUEST', param }, `POST names ${param}`);
  t.match((await principal.call('PUT', '/v2/organizations/users/whoever', { organizationRole: 'king' })).json(), { code: 'BAD_REQUEST', param: 'organizationRole' });
});

t.test('the group filter keeps the members of a class group of the organization', async (t) => {
  const { ids, principal, client } = await organizations(t);
  const teacher = await client('ms.lee');
  const created = (await teacher.call('POST', '/v2/classes', { name: 'Strings' })).json() as { id: string; enrollmentCode: string; teachersGroup: { id: string }; studentsGroup: { id: string } };
  t.equal((await (await client('kid')).call('POST', `/v2/classes/enroll/${created.enrollmentCode}`)).status, 200);
  const members = async (group: string) => ((await principal.call('GET', `/v2/organizations/users?group=${group}`)).json() as UserJson[]).map((u) => u.id);
  t.same(await members(created.teachersGroup.id), [ids['ms.lee']]);
  t.same(await members(created.studentsGroup.id), [ids['kid']]);
});

t.test('invitations: to a member it changes their role at once; another waits for the account created with its e-mail', async (t) => {
  const { ids, principal, rival } = await organizations(t);
  const toMember = await principal.call('POST', '/v2/organizations/invitations', { email: 'kid@school.test', organizationRole: 'teacher' });
  t.equal(toMember.status, 200, toMember.text);
  schemaOk(t, 'OrganizationInvitation', toMember.json());
  t.match(toMember.json(), { organization: 'school', organizationRole: 'teacher', email: 'kid@school.test', invitedBy: ids['principal'], usedBy: ids['kid'], customCode: /^[0-9a-f]{16}$/ });
  const kid = ((await principal.call('GET', '/v2/organizations/users?q=kid')).json() as UserJson[])[0];
  t.equal(kid?.organizationRole, 'teacher', "the member's role changed");

  const pending = (await principal.call('POST', '/v2/organizations/invitations', { email: 'new.admin@school.test', organizationRole: 'admin' })).json() as { id: string; usedBy?: string };
  t.equal(pending.usedBy, undefined, 'waiting: not used');
  const byCode = (await principal.call('POST', '/v2/organizations/invitations')).json() as { id: string; organizationRole: string; email?: string };
  t.match(byCode, { organizationRole: 'teacher' }, 'without a body: a teacher invitation by code');
  t.equal(byCode.email, undefined);
  const joined = (await principal.call('POST', '/v2/organizations/users', { username: 'newadmin', password: 'secret123', email: 'new.admin@school.test' })).json() as UserJson;
  t.equal(joined.organizationRole, 'admin', 'the account created with the e-mail gets the invitation role');

  const all = (await principal.call('GET', '/v2/organizations/invitations')).json() as Array<{ id: string; usedBy?: string }>;
  t.same(all.map((i) => i.id), [(toMember.json() as { id: string }).id, pending.id, byCode.id]);
  t.equal(all[1]?.usedBy, joined.id, 'and the invitation is used by it');
  t.same(((await principal.call('GET', '/v2/organizations/invitations?role=admin')).json() as Array<{ id: string }>).map((i) => i.id), [pending.id]);
  t.same((await rival.call('GET', '/v2/organizations/invitations')).json(), [], "another organization's admin sees none of them");
  t.match((await principal.call('GET', '/v2/organizations/invitations?role=billing')).json(), { code: 'BAD_REQUEST', param: 'role' });
  t.match((await principal.call('POST', '/v2/organizations/invitations', { email: 'nope' })).json(), { code: 'BAD_REQUEST', param: 'email' });
  t.match((await principal.call('POST', '/v2/organizations/invitations', { organizationRole: 'queen' })).json(), { code: 'BAD_REQUEST', param: 'organizationRole' });

  t.equal((await rival.call('DELETE', `/v2/organizations/invitations/${byCode.id}`)).status, 404, "another organization's admin cannot remove it");
  t.equal((await principal.call('DELETE', `/v2/organizations/invitations/${byCode.id}`)).status, 204);
  t.match((await principal.call('DELETE', `/v2/organizations/invitations/${byCode.id}`)).json(), { code: 'NOT_FOUND', param: 'invitation' });
  t.equal(((await principal.call('GET', '/v2/organizations/invitations')).json() as unknown[]).length, 2);
});

t.test('LTI credentials: the secret is shown once and stored as its hash; revoked credentials are gone', async (t) => {
  const { ids, principal, rival, dataDir } = await organizations(t);
  const created = await principal.call('POST', '/v2/organizations/lti/credentials', { name: 'Moodle of the school', lms: 'moodle' });
  t.equal(created.status, 200, created.text);
  const credentials = created.json() as { id: string; consumerKey: string; consumerSecret: string };
  schemaOk(t, 'LtiCredentials', credentials);
  t.match(credentials, { name: 'Moodle of the school', lms: 'moodle', organization: 'school', creator: ids['principal'], consumerKey: /^[0-9a-f]{32}$/, consumerSecret: /^[A-Za-z0-9_-]{43}$/ });
  const listed = (await principal.call('GET', '/v2/organizations/lti/credentials')).json() as Array<Record<string, unknown>>;
  t.equal(listed.length, 1);
  t.notOk('consumerSecret' in (listed[0] ?? {}), 'listed without the secret');
  t.same((await rival.call('GET', '/v2/organizations/lti/credentials')).json(), [], "another organization's admin sees none");
  if (process.env['SCORES_TEST_STORE'] !== 'postgres') {
    const db = new Database(join(dataDir, 'scores', 'scores.sqlite'), { readonly: true });
    t.teardown(() => db.close());
    const stored = db.prepare('SELECT secret_hash, doc FROM lti_credentials').get() as { secret_hash: string; doc: string };
    t.equal(stored.secret_hash, createHash('sha256').update(credentials.consumerSecret).digest('hex'), 'the SHA-256 of the secret is stored');
    t.notOk(stored.doc.includes(credentials.consumerSecret), 'the secret itself is not');
  }
  for (const [body, param] of [[{ lms: 'moodle' }, 'name'], [{ name: 'x'.repeat(301), lms: 'moodle' }, 'name'], [{ name: 'x' }, 'lms'], [{ name: 'x', lms: 'blackbored' }, 'lms']] as const) {
    t.match((await principal.call('POST', '/v2/organizations/lti/credentials', body)).json(), { code: 'BAD_REQUEST', param });
  }
  t.equal((await rival.call('DELETE', `/v2/organizations/lti/credentials/${credentials.id}`)).status, 404);
  t.equal((await principal.call('DELETE', `/v2/organizations/lti/credentials/${credentials.id}`)).status, 204);
  t.match((await principal.call('DELETE', `/v2/organizations/lti/credentials/${credentials.id}`)).json(), { code: 'NOT_FOUND', param: 'credentials' });
  t.same((await principal.call('GET', '/v2/organizations/lti/credentials')).json(), []);
});
