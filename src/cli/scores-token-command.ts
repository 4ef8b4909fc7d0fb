/**
 * `npm run --silent scores:token -- …`: personal access tokens of the score API, on the same
 * database as the service (DATA_DIR, DATA_SYNC, SCORES_DATABASE_URL), so it works while the
 * service runs.
 * - `--user NAME --scopes A,B [--expires-in DURATION]` issues a token for NAME (creating the user
 *   when there is none), valid SCORES_TOKEN_TTL or DURATION, and prints the token alone on stdout;
 * - `--list --user NAME` prints NAME's tokens, one per line, without their secrets;
 * - `--revoke ID_OR_TOKEN` revokes a token, named by its id or by the token itself.
 * Errors go to stderr with exit 2 (usage) or 1.
 */
import { parseArgs } from 'node:util';
import { openAccountStore } from '../app/apis/scores.js';
import { isValidUsername, looksLikeToken, parseScopes, SCOPES, tokenId, tokenState, USERNAME_RULE, type AccountStore, type Scope, type TokenInfo } from '../scores/index.js';
import { loadSettings, parseDurationMs, type Settings } from '../settings/index.js';
import type { CliIo } from './io.js';

const USAGE = `usage: npm run --silent scores:token -- --user NAME --scopes SCOPE[,SCOPE...] [--expires-in DURATION]
       npm run --silent scores:token -- --list --user NAME
       npm run --silent scores:token -- --revoke ID_OR_TOKEN

Prints a new personal access token for the score API, valid SCORES_TOKEN_TTL (default 2160h) or
DURATION (a Go duration: 720h, 90m); lists a user's tokens (id, state, dates, scopes; never the
secret); or revokes a token by its id or by the token itself.
Scopes: ${SCOPES.join(', ')}.
The database is the service's own, under DATA_DIR (default data/).
`;

interface Values {
  user?: string;
  scopes?: string;
  'expires-in'?: string;
  list?: boolean;
  revoke?: string;
  help?: boolean;
}

/** What the command line asks for, or the usage error (exit 2). */
type Action =
  | { kind: 'help' }
  | { kind: 'issue'; user: string; scopes: Scope[]; lifetimeMs: number | undefined }
  | { kind: 'list'; user: string }
  | { kind: 'revoke'; id: string };

/** A refused command line: the reason, and whether the usage helps (options missing or clashing). */
interface Refusal {
  reason: string;
  usage: boolean;
}

function actionOf(values: Values): Action | Refusal {
  if (values.help === true) return { kind: 'help' };
  const modes = [values.list === true, values.revoke !== undefined, values.scopes !== undefined].filter(Boolean).length;
  if (modes > 1) return { reason: '--scopes, --list and --revoke do not go together', usage: true };
  if (values.revoke !== undefined) return { kind: 'revoke', id: looksLikeToken(values.revoke) ? tokenId(values.revoke) : values.revoke };
  if (values.user === undefined) return { reason: values.list === true ? '--list needs --user' : '--user and --scopes are required', usage: true };
  if (values.scopes === undefined && values.list !== true) return { reason: '--user and --scopes are required', usage: true };
  if (!isValidUsername(values.user)) return { reason: `invalid user name ${JSON.stringify(values.user)}: ${USERNAME_RULE}`, usage: false };
  if (values.list === true) return { kind: 'list', user: values.user };
  const scopes = parseScopes(values.scopes ?? '');
  if (!scopes.ok) return { reason: `unknown scope ${JSON.stringify(scopes.unknown)}; scopes: ${SCOPES.join(', ')}`, usage: false };
  const raw = values['expires-in'];
  const lifetimeMs = raw === undefined ? undefined : (parseDurationMs(raw) ?? 0);
  if (lifetimeMs !== undefined && lifetimeMs < 1000) return { reason: `invalid --expires-in ${JSON.stringify(raw)}: a duration of at least 1s, such as 720h`, usage: false };
  return { kind: 'issue', user: values.user, scopes: scopes.scopes, lifetimeMs };
}

const iso = (ms: number | null) => (ms === null ? 'never' : new Date(ms).toISOString());

function tokenLine(token: TokenInfo, now: number): string {
  return [token.id, tokenState(token, now), iso(token.creationDate), iso(token.expirationDate), token.scopes.join(',')].join('\t');
}

async function run(action: Exclude<Action, { kind: 'help' }>, accounts: AccountStore, settings: Settings, io: CliIo, now: number): Promise<number> {
  switch (action.kind) {
    case 'issue': {
      const user = await accounts.ensureUser(action.user, now);
      io.stdout(`${await accounts.createToken(user.id, action.scopes, now, now + (action.lifetimeMs ?? settings.scoresTokenTtlMs))}\n`);
      return 0;
    }
    case 'list': {
      const user = await accounts.userByName(action.user);
      if (user === undefined) {
        io.stderr(`no user ${JSON.stringify(action.user)}\n`);
        return 1;
      }
      io.stdout(['id\tstate\tcreated\texpires\tscopes', ...(await accounts.listTokens(user.id)).map((token) => tokenLine(token, now))].join('\n') + '\n');
      return 0;
    }
    case 'revoke': {
      const revoked = await accounts.revokeToken(action.id, now);
      if (revoked === undefined) {
        io.stderr(`no token ${JSON.stringify(action.id)}\n`);
        return 1;
      }
      io.stdout(`revoked ${revoked.id} of ${revoked.username}\n`);
      return 0;
    }
  }
}

export async function runScoresToken(argv: readonly string[], env: Readonly<Record<string, string | undefined>>, io: CliIo, now: () => number = Date.now): Promise<number> {
  let values: Values;
  try {
    values = parseArgs({
      args: [...argv],
      options: { user: { type: 'string' }, scopes: { type: 'string' }, 'expires-in': { type: 'string' }, list: { type: 'boolean' }, revoke: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
    }).values;
  } catch (error) {
    io.stderr(`${(error as Error).message}\n${USAGE}`);
    return 2;
  }
  const action = actionOf(values);
  if ('reason' in action) {
    io.stderr(`${action.reason}\n${action.usage ? USAGE : ''}`);
    return 2;
  }
  if (action.kind === 'help') {
    io.stdout(USAGE);
    return 0;
  }
  let settings: Settings;
  let accounts: AccountStore;
  try {
    settings = loadSettings(env);
    accounts = await openAccountStore(settings);
  } catch (error) {
    io.stderr(`cannot open the score database: ${(error as Error).message}\n`);
    return 1;
  }
  try {
    return await run(action, accounts, settings, io, now());
  } catch (error) {
    io.stderr(`cannot ${action.kind === 'issue' ? 'issue a token' : action.kind === 'list' ? 'list tokens' : 'revoke the token'}: ${(error as Error).message}\n`);
    return 1;
  } finally {
    await accounts.close();
  }
}
