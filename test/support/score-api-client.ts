/** Talking to a running service's score API in tests: tokens from the CLI command, and a small client. */
import { runScoresToken } from '../../src/cli/scores-token-command.js';
import { bufferIo } from '../../src/cli/io.js';
import { startPostgres } from './postgres-server.js';
import type { Teardown } from './teardown.js';

/** A personal access token, issued as `npm run scores:token` issues it, on the service's store (`env` as scoreServiceEnv gives it). */
export async function issueToken(env: Record<string, string>, user: string, scopes: string): Promise<string> {
  const io = bufferIo();
  if ((await runScoresToken(['--user', user, '--scopes', scopes], env, io)) !== 0) throw new Error(io.err);
  return io.out.trim();
}

export interface Fetched {
  status: number;
  type: string | null;
  headers: Headers;
  bytes: Uint8Array;
  text: string;
  json(): unknown;
}

export interface ScoreApiClient {
  /** A JSON body for objects; bytes and FormData are sent as they are. */
  call(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<Fetched>;
}

/** Requests to `baseUrl` (absolute URLs pass through) with the bearer token, when there is one. */
export function scoreApiClient(baseUrl: string, bearer: string | undefined): ScoreApiClient {
  return {
    call: async (method, path, body, headers = {}) => {
      const raw = body instanceof FormData || body instanceof Uint8Array;
      const response = await fetch(path.startsWith('http') ? path : `${baseUrl}${path}`, {
        method,
        headers: { ...(bearer === undefined ? {} : { authorization: `Bearer ${bearer}` }), ...(body === undefined || raw ? {} : { 'content-type': 'application/json' }), ...headers },
        ...(body === undefined ? {} : { body: raw ? (body as FormData | Uint8Array) : JSON.stringify(body) }),
      });
      const bytes = new Uint8Array(await response.arrayBuffer());
      const text = Buffer.from(bytes).toString('utf8');
      return { status: response.status, type: response.headers.get('content-type'), headers: response.headers, bytes, text, json: () => JSON.parse(text) as unknown };
    },
  };
}

/**
 * The environment of a score service under test on `dataDir`, serving the score API alone: the
 * embedded store, or with SCORES_TEST_STORE=postgres (the test run's second pass) a fresh
 * database on the test file's PostgreSQL server.
 */
export async function scoreServiceEnv(dataDir: string): Promise<Record<string, string>> {
  if (process.env['SCORES_TEST_STORE'] !== 'postgres') return { APIS: 'scores', DATA_DIR: dataDir };
  const server = await startPostgres();
  return { APIS: 'scores', DATA_DIR: dataDir, SCORES_DATABASE_URL: server.url };
}
