/**
 * Personal access tokens expire and can be revoked: the default lifetime SCORES_TOKEN_TTL or one
 * of their own (`--expires-in`, `expirationDate`), revocation by `scores:token --revoke` and by
 * `DELETE /v2/admin/tokens/{id}`, listings without secrets, and 401 in the score API's error form
 * for an expired or revoked token; a database of the release before (SQLite or PostgreSQL) is
 * migrated in place and its tokens keep working. The API runs on a clock the test sets.
 */
import Database from 'better-sqlite3';
import { createHash } from 'node:crypto';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import pg from 'pg';
import t from 'tap';
import { runScoresToken } from '../../src/cli/scores-token-command.js';
import { bufferIo } from '../../src/cli/io.js';
import { tokenId } from '../../src/scores/index.js';
import { generatedScore } from '../support/generated-score.js';
import { openInProcessScores, type InProcessScores } from '../support/in-process-scores.js';
import { spawnProcess } from '../support/process-harness.js';
import { scoreServiceEnv } from '../support/score-api-client.js';
import type { Teardown } from '../support/teardown.js';
import { tempDir } from '../support/temp-dir.js';

const ADMIN = 'an-administrator-token-of-forty-characters';
const T0 = Date.parse('2026-09-01T08:00:00.000Z');
const MINUTE = 60_000;

interface Cli {
  code: number;
  out: string;
  err: string;
}

/** `npm run scores:token -- ARGS` at the test's time, on the service's store. */
async function cli(env: Record<string, string>, args: string[], now: number): Promise<Cli> {
  const io = bufferIo();
  const code = await runScoresToken(args, env, io, () => now);
  return { code, out: io.out, err: io.err };
}

interface Harness {
  env: Record<string, string>;
  api: InProcessScores;
  setClock(ms: number): void;
}

async function harness(t: Teardown, extra: Record<string, string>): Promise<Harness> {
  const env = { ...(await scoreServiceEnv(join(await tempDir(t, 'scores-tokens-'), 'data'))), SCORES_ADMIN_TOKEN: ADMIN, ...extra };
  let clock = T0;
  const api = await openInProcessScores(env, () => clock);
  t.teardown(() => api.close());
  return { env, api, setClock: (ms) => (clock = ms) };
}

const meStatus = async (api: InProcessScores, token: string) => (await api.call(token, 'GET', '/v2/me?onlyId=true')).status;

t.test('a token lives SCORES_TOKEN_TTL or its own lifetime, then answers 401 in the Flat form', async (t) => {
  const { env, api, setClock } = await harness(t, { SCORES_TOKEN_TTL: '1h' });
  const byDefault = (await cli(env, ['--user', 'alice', '--scopes', 'account.public_profile'], T0)).out.trim();
  const short = await cli(env, ['--user', 'alice', '--scopes', 'account.public_profile', '--expires-in', '10m'], T0);
  t.equal(short.code, 0, short.err);
  const issued = await api.call(ADMIN, 'POST', '/v2/admin/tokens', { username: 'alice', scopes: ['account.public_profile'], expirationDate: '2026-09-01T08:30:00Z' });
  t.match(issued.json(), { token: /^flatpat_/, id: /^[0-9a-f]{24}$/, user: { username: 'alice' }, scopes: ['account.public_profile'], state: 'active', creationDate: '2026-09-01T08:00:00.000Z', expirationDate: '2026-09-01T08:30:00.000Z', revocationDate: null });
  const adminDefault = await api.call(ADMIN, 'POST', '/v2/admin/tokens', { username: 'alice', scopes: ['account.public_profile'] });
  t.match(adminDefault.json(), { expirationDate: '2026-09-01T09:00:00.000Z' }, 'the admin route applies SCORES_TOKEN_TTL too');
  const tokens = { byDefault, short: short.out.trim(), own: (issued.json() as { token: string }).token, adminDefault: (adminDefault.json() as { token: string }).token };

  const statuses = async () => Object.fromEntries(await Promise.all(Object.entries(tokens).map(async ([name, token]) => [name, await meStatus(api, token)])));
  setClock(T0 + 10 * MINUTE - 1);
  t.same(await statuses(), { byDefault: 200, short: 200, own: 200, adminDefault: 200 }, 'a millisecond before the shortest expires, all work');
  setClock(T0 + 10 * MINUTE);
  t.same(await statuses(), { byDefault: 200, short: 401, own: 200, adminDefault: 200 }, 'at its expiration date, the 10-minute token stops');
  t.same((await api.call(tokens.short, 'GET', '/v2/me')).json(), { code: 'UNAUTHORIZED', message: 'This access token expired at 2026-09-01T08:10:00.000Z' });
  setClock(T0 + 30 * MINUTE);
  t.same(await statuses(), { byDefault: 200, short: 401, own: 401, adminDefault: 200 }, 'then the one with its own date');
  setClock(T0 + 60 * MINUTE);
  t.same(await statuses(), { byDefault: 401, short: 401, own: 401, adminDefault: 401 }, 'then those of the default lifetime');

  const past = await api.call(ADMIN, 'POST', '/v2/admin/tokens', { username: 'alice', scopes: ['scores'], expirationDate: '2026-09-01T08:59:59Z' });
  t.same([past.status, past.json()], [400, { code: 'BAD_REQUEST', message: 'expirationDate must be in the future', param: 'expirationDate' }]);
  const notADate = await api.call(ADMIN, 'POST', '/v2/admin/tokens', { username: 'alice', scopes: ['scores'], expirationDate: 'tomorrow' });
  t.match(notADate.json(), { code: 'BAD_REQUEST', param: 'expirationDate' });
  const badLifetime = await cli(env, ['--user', 'alice', '--scopes', 'scores', '--expires-in', '30d'], T0);
  t.same([badLifetime.code, badLifetime.out, badLifetime.err], [2, '', 'invalid --expires-in "30d": a duration of at least 1s, such as 720h\n']);
});

t.test('tokens are revoked by id or by value, with the CLI or the admin route, and listed without secrets', async (t) => {
  const { env, api, setClock } = await harness(t, {});
  const fromCli = (await cli(env, ['--user', 'bob', '--scopes', 'account.public_profile,scores'], T0)).out.trim();
  const fromAdmin = (await api.call(ADMIN, 'POST', '/v2/admin/tokens', { username: 'bob', scopes: ['account.public_profile'] })).json() as { token: string; id: string };
  const other = (await cli(env, ['--user', 'carol', '--scopes', 'account.public_profile'], T0)).out.trim();

  const listed = await api.call(ADMIN, 'GET', '/v2/admin/tokens?username=bob');
  t.equal(listed.status, 200);
  const list = listed.json() as Array<{ id: string; state: string }>;
  const byId = (entries: typeof list, id: string) => entries.find((token) => token.id === id);
  t.same(list.map((token) => token.state), ['active', 'active'], "bob's two tokens");
  t.ok(byId(list, fromAdmin.id), 'listed by the id the issue answered');
  t.match(byId(list, tokenId(fromCli)), {
    id: tokenId(fromCli),
    user: { id: /^[0-9a-f]{24}$/, username: 'bob' },
    scopes: ['account.public_profile', 'scores'],
    state: 'active',
    creationDate: '2026-09-01T08:00:00.000Z',
    expirationDate: '2026-11-30T08:00:00.000Z',
    revocationDate: null,
  }, 'the id the token itself names; SCORES_TOKEN_TTL is 90 days by default');
  const text = JSON.stringify(list);
  t.notOk(text.includes(fromCli.slice(8)) || text.includes(fromAdmin.token.slice(8)) || text.includes('"token"'), 'no secret in the listing');

  setClock(T0 + MINUTE);
  t.equal((await api.call(ADMIN, 'DELETE', `/v2/admin/tokens/${fromAdmin.id}`)).status, 204);
  t.same((await api.call(fromAdmin.token, 'GET', '/v2/me')).json(), { code: 'UNAUTHORIZED', message: 'This access token was revoked' }, 'a revoked token answers 401');
  t.equal(await meStatus(api, fromCli), 200, "the user's other token still works");
  t.equal(await meStatus(api, other), 200, "and other users' tokens");
  setClock(T0 + 2 * MINUTE);
  t.equal((await api.call(ADMIN, 'DELETE', `/v2/admin/tokens/${fromAdmin.id}`)).status, 204, 'revoking again is no error');
  const missing = await api.call(ADMIN, 'DELETE', '/v2/admin/tokens/000000000000000000000000');
  t.same([missing.status, missing.json()], [404, { code: 'NOT_FOUND', message: 'no token "000000000000000000000000"', param: 'id' }]);

  const revoked = await cli(env, ['--revoke', fromCli], T0 + 3 * MINUTE);
  t.equal(revoked.code, 0, revoked.err);
  t.match(revoked.out, /^revoked [0-9a-f]{24} of bob\n$/, 'the CLI revokes a token given by its value');
  t.equal(await meStatus(api, fromCli), 401);
  const unknown = await cli(env, ['--revoke', 'ffffffffffffffffffffffff'], T0);
  t.same([unknown.code, unknown.err], [1, 'no token "ffffffffffffffffffffffff"\n']);

  const table = await cli(env, ['--list', '--user', 'bob'], T0 + 4 * MINUTE);
  t.equal(table.code, 0, table.err);
  const lines = table.out.trimEnd().split('\n');
  t.equal(lines[0], 'id\tstate\tcreated\texpires\tscopes');
  t.same(lines.slice(1).map((line) => line.split('\t').slice(1, 2)[0]), ['revoked', 'revoked'], 'both revoked');
  t.notOk(table.out.includes(fromCli.slice(8)), 'no secret in the CLI listing either');
  t.ok(lines.includes(`${tokenId(fromCli)}\trevoked\t2026-09-01T08:00:00.000Z\t2026-11-30T08:00:00.000Z\taccount.public_profile,scores`), table.out);
  const after = (await api.call(ADMIN, 'GET', '/v2/admin/tokens?username=bob')).json() as typeof list;
  t.match(byId(after, fromAdmin.id), { state: 'revoked', revocationDate: '2026-09-01T08:01:00.000Z' }, 'a token keeps the date of its first revocation');
  t.match(byId(after, tokenId(fromCli)), { state: 'revoked', revocationDate: '2026-09-01T08:03:00.000Z' });

  t.equal((await api.call(other, 'GET', '/v2/admin/tokens?username=bob')).status, 401, "a user's token is not the admin's");
  t.match((await api.call(ADMIN, 'GET', '/v2/admin/tokens?username=nobody')).json(), { code: 'NOT_FOUND', param: 'username' });
  t.match((await api.call(ADMIN, 'GET', '/v2/admin/tokens')).json(), { code: 'BAD_REQUEST', param: 'username' });
});

/** The tables of accounts, scores and tokens as the release before token expiry made them. */
function schemaBeforeExpiry(postgres: boolean): string {
  const [int, doc] = postgres ? ['BIGINT', 'JSONB'] : ['INTEGER', 'TEXT'];
  return `
CREATE TABLE users (id TEXT PRIMARY KEY, username TEXT NOT NULL UNIQUE, registration_date ${int} NOT NULL, picture_file TEXT, cover_picture_file TEXT);
CREATE TABLE scores (id TEXT PRIMARY KEY, owner_id TEXT NOT NULL REFERENCES users(id), doc ${doc} NOT NULL);
CREATE TABLE revisions (seq ${postgres ? 'BIGSERIAL' : 'INTEGER'} PRIMARY KEY, id TEXT NOT NULL UNIQUE, score_id TEXT NOT NULL REFERENCES scores(id), user_id TEXT NOT NULL,
  creation_date ${int} NOT NULL, description TEXT NOT NULL, autosave ${postgres ? 'BOOLEAN' : 'INTEGER'} NOT NULL, musicxml TEXT NOT NULL);
CREATE TABLE tokens (hash TEXT PRIMARY KEY, user_id TEXT NOT NULL REFERENCES users(id), scopes TEXT NOT NULL, created ${int} NOT NULL);
`;
}

/** Writes a database as the release before token expiry left it: one user, one token, one score with a revision of `xml`. */
async function storeBeforeExpiry(env: Record<string, string>, token: string, xml: string): Promise<{ userId: string; scoreId: string }> {
  const userId = 'a1'.repeat(12);
  const scoreId = 'b2'.repeat(12);
  const score = { id: scoreId, ownerId: userId, title: 'Old', subtitle: '', composer: '', lyricist: '', arranger: '', description: '', tags: [], creationType: 'original', license: 'copyright', licenseText: '', privacy: 'private', sharingKey: 'c'.repeat(128), numberMeasures: 1, creationDate: T0, modificationDate: T0, trashedAt: null };
  const rows: Array<[string, unknown[]]> = [
    ['INSERT INTO users (id, username, registration_date) VALUES (?, ?, ?)', [userId, 'olga', T0]],
    ['INSERT INTO tokens (hash, user_id, scopes, created) VALUES (?, ?, ?, ?)', [createHash('sha256').update(token).digest('hex'), userId, 'account.public_profile scores', T0]],
    ['INSERT INTO scores (id, owner_id, doc) VALUES (?, ?, ?)', [scoreId, userId, JSON.stringify(score)]],
    ['INSERT INTO revisions (id, score_id, user_id, creation_date, description, autosave, musicxml) VALUES (?, ?, ?, ?, ?, ?, ?)', ['d3'.repeat(12), scoreId, userId, T0, '', 0, xml]],
  ];
  const url = env['SCORES_DATABASE_URL'];
  if (url === undefined) {
    const dir = join(env['DATA_DIR'] as string, 'scores');
    await mkdir(dir, { recursive: true });
    const db = new Database(join(dir, 'scores.sqlite'));
    db.exec(schemaBeforeExpiry(false));
    for (const [sql, values] of rows) db.prepare(sql).run(...values);
    db.close();
  } else {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    await client.query(schemaBeforeExpiry(true));
    for (const [sql, values] of rows) {
      let n = 0;
      await client.query(sql.replace(/\?/g, () => `$${++n}`), values);
    }
    await client.end();
  }
  return { userId, scoreId };
}

t.test('tokens stored before tokens expired keep working: the database is migrated in place', async (t) => {
  const xml = generatedScore({ title: 'Old', measures: 2, parts: 1 });
  const size = Buffer.byteLength(xml);
  const env = { ...(await scoreServiceEnv(join(await tempDir(t, 'scores-migrate-'), 'data'))), SCORES_ADMIN_TOKEN: ADMIN, SCORES_ACCOUNT_MAX_BYTES: String(Math.floor(1.5 * size)) };
  const token = `flatpat_${'x'.repeat(43)}`;
  const { userId, scoreId } = await storeBeforeExpiry(env, token, xml);

  let api = await openInProcessScores(env, () => T0 + 365 * 24 * 60 * MINUTE);
  t.teardown(() => api.close());
  t.same((await api.call(token, 'GET', '/v2/me?onlyId=true')).json(), { id: userId }, 'the old token works, a year on: it never expires');
  t.match((await api.call(ADMIN, 'GET', '/v2/admin/tokens?username=olga')).json(), [
    { id: tokenId(token), scopes: ['account.public_profile', 'scores'], state: 'active', creationDate: '2026-09-01T08:00:00.000Z', expirationDate: null, revocationDate: null },
  ]);
  const revision = await api.call(token, 'POST', `/v2/scores/${scoreId}/revisions`, { data: xml });
  t.match(revision.json(), { code: 'QUOTA_EXCEEDED', message: new RegExp(`it stores ${size} of its`) }, 'the stored revision was measured for the quota');

  await api.close();
  api = await openInProcessScores(env, () => T0);
  t.equal(await meStatus(api, token), 200, 'opening a migrated database again changes nothing');
  const revoked = await cli(env, ['--revoke', token], T0);
  t.equal(revoked.code, 0, revoked.err);
  t.equal(await meStatus(api, token), 401, 'and the old token can be revoked');
});

t.test('a SCORES_ADMIN_TOKEN shorter than 32 characters stops startup with one line naming the setting, not the value', async (t) => {
  const short = 'admin-secret-31-characters-long';
  const proc = spawnProcess(t, { SCORES_ADMIN_TOKEN: short });
  t.same(await proc.waitForExit(), { code: 1, signal: null });
  t.same(proc.stderr.split('\n').filter((line) => line !== ''), [
    'ratelimit: SCORES_ADMIN_TOKEN must be at least 32 characters (it has 31); use a long random value such as `openssl rand -hex 32`',
  ]);
  t.notOk(proc.stderr.includes(short), 'the secret is not echoed to the log');
});
