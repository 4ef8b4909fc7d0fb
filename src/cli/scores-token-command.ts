/**
 * `npm run --silent scores:token -- --user NAME --scopes A,B`: issues a personal access token of
 * the score API for NAME (creating the user when there is none) with the listed scopes, and
 * prints the token alone on stdout. It writes to the same database as the service (DATA_DIR,
 * DATA_SYNC), so it works while the service runs. Errors go to stderr with exit 2 (usage) or 1.
 */
import { parseArgs } from 'node:util';
import { openAccountStore } from '../app/scores.js';
import { isValidUsername, parseScopes, SCOPES, USERNAME_RULE } from '../scores/index.js';
import { loadSettings } from '../settings/index.js';
import type { CliIo } from './io.js';

const USAGE = `usage: npm run --silent scores:token -- --user NAME --scopes SCOPE[,SCOPE...]

Prints a new personal access token for the score API. Scopes: ${SCOPES.join(', ')}.
The database is the service's own, under DATA_DIR (default data/).
`;

export async function runScoresToken(argv: readonly string[], env: Readonly<Record<string, string | undefined>>, io: CliIo, now: () => number = Date.now): Promise<number> {
  let values: { user?: string; scopes?: string; help?: boolean };
  try {
    values = parseArgs({ args: [...argv], options: { user: { type: 'string' }, scopes: { type: 'string' }, help: { type: 'boolean', short: 'h' } } }).values;
  } catch (error) {
    io.stderr(`${(error as Error).message}\n${USAGE}`);
    return 2;
  }
  if (values.help === true) {
    io.stdout(USAGE);
    return 0;
  }
  if (values.user === undefined || values.scopes === undefined) {
    io.stderr(`--user and --scopes are required\n${USAGE}`);
    return 2;
  }
  if (!isValidUsername(values.user)) {
    io.stderr(`invalid user name ${JSON.stringify(values.user)}: ${USERNAME_RULE}\n`);
    return 2;
  }
  const scopes = parseScopes(values.scopes);
  if (!scopes.ok) {
    io.stderr(`unknown scope ${JSON.stringify(scopes.unknown)}; scopes: ${SCOPES.join(', ')}\n`);
    return 2;
  }
  let accounts;
  try {
    accounts = await openAccountStore(loadSettings(env));
  } catch (error) {
    io.stderr(`cannot open the score database: ${(error as Error).message}\n`);
    return 1;
  }
  try {
    const user = await accounts.ensureUser(values.user, now());
    io.stdout(`${await accounts.createToken(user.id, scopes.scopes, now())}\n`);
    return 0;
  } catch (error) {
    io.stderr(`cannot issue a token: ${(error as Error).message}\n`);
    return 1;
  } finally {
    await accounts.close();
  }
}
