/**
 * Score API accounts through the real HTTP front and the API thread: personal access tokens
 * issued, listed and revoked by `npm run scores:token` while the service runs, bearer
 * authentication and scopes, and GET /v2/me validated against the Flat API 2.13.0 definition.
 */
import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import pg from 'pg';
import t from 'tap';
import { flatSchemaErrors } from '../support/flat-schema.js';
import { startService } from '../support/service-harness.js';
import { scoreServiceEnv } from '../support/score-api-client.js';
import { tempDir } from '../support/temp-dir.js';

const REPO = fileURLToPath(new URL('../../../', import.meta.url));
const run = promisify(execFile);
/** What `npm run scores:token` runs (package.json). */
const SCORES_TOKEN_SCRIPT = join(REPO, 'dist', 'src', 'cli', 'scores-token.js');

/**
 * The `scores:token` command with ARGS; its exit code, stdout and stderr. The first call of the
 * file goes through `npm run --silent scores:token --` as a user runs it; the others run the same
 * script directly, without npm's own start (most of each call).
 */
let throughNpm = true;
async function scoresToken(env: Record<string, string>, args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const [command, commandArgs] = throughNpm ? ['npm', ['run', '--silent', 'scores:token', '--', ...args]] : [process.execPath, [SCORES_TOKEN_SCRIPT, ...args]];
  throughNpm = false;
  try {
    const { stdout, stderr } = await run(command, commandArgs, { cwd: REPO, env: { ...process.env, ...env } });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

/** Everything the store holds of tokens: the database file, or PostgreSQL's tokens table. */
async function storedTokens(env: Record<string, string>): Promise<string> {
  const url = env['SCORES_DATABASE_URL'];
  if (url === undefined) return (await readFile(join(env['DATA_DIR'] as string, 'scores', 'scores.sqlite'))).toString('latin1');
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return JSON.stringify((await client.query('SELECT * FROM tokens')).rows);
  } finally {
    await client.end();
  }
}

const bearer = (token: string) => ({ headers: { authorization: `Bearer ${token}` } });

t.test('a token issued while the service runs opens GET /v2/me; scopes and bad tokens are refused', async (t) => {
  const dataDir = await tempDir(t, 'scores-accounts-');
  const env = await scoreServiceEnv(dataDir);
  const service = await startService(t, { env });

  const issued = await scoresToken(env, ['--user', 'alice', '--scopes', 'account.public_profile,scores']);
  t.equal(issued.code, 0, issued.stderr);
  t.match(issued.stdout, /^flatpat_[A-Za-z0-9_-]{43}\n$/, 'the token alone on stdout');
  t.equal(issued.stderr, '');
  const token = issued.stdout.trim();

  const me = await service.request('/v2/me', bearer(token));
  t.equal(me.status, 200);
  t.same(flatSchemaErrors('UserDetails', me.json), [], 'a UserDetails of the 2.13.0 definition');
  t.match(me.json, { id: /^[0-9a-f]{24}$/, type: 'user', username: 'alice', picture: null, pictureFile: null, coverPictureFile: null, locale: 'en' });
  const id = (me.json as { id: string }).id;

  const onlyId = await service.request('/v2/me?onlyId=true', bearer(token));
  t.same(onlyId.json, { id }, 'onlyId: the id alone');
  const badFlag = await service.request('/v2/me?onlyId=maybe', bearer(token));
  t.equal(badFlag.status, 400);
  t.same(badFlag.json, { code: 'BAD_REQUEST', message: 'onlyId must be true or false, not "maybe"', param: 'onlyId' });

  const second = await scoresToken(env, ['--user', 'alice', '--scopes', 'scores']);
  t.not(second.stdout.trim(), token, 'every token is new');
  const scoresOnly = await service.request('/v2/me', bearer(second.stdout.trim()));
  t.equal(scoresOnly.status, 403, 'a token without an account scope');
  t.match(scoresOnly.json, { code: 'FORBIDDEN', message: /account\.public_profile, account\.education_profile/ });

  for (const [what, headers] of [
    ['no token', {}],
    ['a token never issued', { authorization: 'Bearer flatpat_nope' }],
    ['another scheme', { authorization: `Basic ${token}` }],
  ] as const) {
    const refused = await service.request('/v2/me', { headers });
    t.equal(refused.status, 401, what);
    t.match(refused.json, { code: 'UNAUTHORIZED', message: String }, `${what}: the score API's error form`);
  }

  t.notOk((await storedTokens(env)).includes(token.slice('flatpat_'.length)), 'only a hash of the token is stored');

  await service.close();
  const restarted = await startService(t, { env });
  t.same((await restarted.request('/v2/me?onlyId=1', bearer(token))).json, { id }, 'the token and the user outlive a restart');
});

t.test('scores:token lists and revokes tokens while the service runs; a revoked token answers 401', async (t) => {
  const dataDir = await tempDir(t, 'scores-revoke-');
  const env = await scoreServiceEnv(dataDir);
  const service = await startService(t, { env });
  const token = (await scoresToken(env, ['--user', 'alice', '--scopes', 'account.public_profile', '--expires-in', '720h'])).stdout.trim();
  t.equal((await service.request('/v2/me', bearer(token))).status, 200);
  const listed = await scoresToken(env, ['--list', '--user', 'alice']);
  t.equal(listed.code, 0, listed.stderr);
  const [header, row] = listed.stdout.trimEnd().split('\n');
  t.equal(header, 'id\tstate\tcreated\texpires\tscopes');
  const [id, state, created, expires] = (row ?? '').split('\t');
  t.equal(state, 'active');
  t.equal(Date.parse(expires ?? '') - Date.parse(created ?? ''), 720 * 3_600_000, '--expires-in sets the lifetime');
  t.notOk(listed.stdout.includes(token.slice('flatpat_'.length)), 'the listing shows no secret');

  const revoked = await scoresToken(env, ['--revoke', id ?? '']);
  t.same([revoked.code, revoked.stdout, revoked.stderr], [0, `revoked ${id} of alice\n`, '']);
  const refused = await service.request('/v2/me', bearer(token));
  t.same([refused.status, refused.json], [401, { code: 'UNAUTHORIZED', message: 'This access token was revoked' }], 'the running service refuses it at once');
});

t.test('scores:token refuses what it cannot issue, with a usage and exit 2', async (t) => {
  const dataDir = await tempDir(t, 'scores-accounts-');
  const env = await scoreServiceEnv(dataDir);
  const unknown = await scoresToken(env, ['--user', 'bob', '--scopes', 'scores,everything']);
  t.same([unknown.code, unknown.stdout], [2, '']);
  t.match(unknown.stderr, /unknown scope "everything"; scopes: account\.public_profile, /);
  const missing = await scoresToken(env, ['--user', 'bob']);
  t.equal(missing.code, 2);
  t.match(missing.stderr, /--user and --scopes are required\nusage: npm run --silent scores:token/);
  const badName = await scoresToken(env, ['--user', 'bob smith', '--scopes', 'scores']);
  t.equal(badName.code, 2);
  t.match(badName.stderr, /invalid user name "bob smith"/);
  const clash = await scoresToken(env, ['--revoke', 'abc', '--list', '--user', 'bob']);
  t.equal(clash.code, 2);
  t.match(clash.stderr, /^--scopes, --list and --revoke do not go together\nusage: /);
  const help = await scoresToken(env, ['--help']);
  t.same([help.code, help.stderr], [0, '']);
  t.match(help.stdout, /^usage: /);
});

t.test('the admin route issues tokens for the holder of SCORES_ADMIN_TOKEN, and exists only with it', async (t) => {
  const dataDir = await tempDir(t, 'scores-admin-');
  const env = await scoreServiceEnv(dataDir);
  const admin = 'a'.repeat(40);
  const service = await startService(t, { env: { ...env, SCORES_ADMIN_TOKEN: admin } });
  const issue = (token: string, body: unknown) =>
    fetch(`${service.baseUrl}/v2/admin/tokens`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const issued = await issue(admin, { username: 'dora', scopes: ['account.public_profile', 'scores'] });
  t.equal(issued.status, 200);
  const answer = (await issued.json()) as { token: string; user: { id: string; username: string }; scopes: string[] };
  t.match(answer, { token: /^flatpat_/, user: { id: /^[0-9a-f]{24}$/, username: 'dora' }, scopes: ['account.public_profile', 'scores'] });
  const me = await fetch(`${service.baseUrl}/v2/me?onlyId=true`, bearer(answer.token));
  t.same(await me.json(), { id: answer.user.id }, 'the token works');
  t.equal((await issue(answer.token, { username: 'eve', scopes: ['scores'] })).status, 401, "a user's token is not the admin's");
  t.equal((await issue(`${admin}b`, { username: 'eve', scopes: ['scores'] })).status, 401);
  t.match(await (await issue(admin, { username: 'no spaces', scopes: ['scores'] })).json(), { code: 'BAD_REQUEST', param: 'username' });
  t.match(await (await issue(admin, { username: 'eve', scopes: ['root'] })).json(), { code: 'BAD_REQUEST', param: 'scopes' });
  await service.close();

  const without = await startService(t, { env });
  const absent = await fetch(`${without.baseUrl}/v2/admin/tokens`, { method: 'POST', headers: { authorization: `Bearer ${admin}` }, body: '{}' });
  t.equal(absent.status, 404, 'without the setting there is no such route');
});
