/** Talking to a running service's score API in tests: tokens from the CLI command, and a small client. */
import { runScoresToken } from '../../src/cli/scores-token-command.js';
import { bufferIo } from '../../src/cli/io.js';

/** A personal access token, issued as `npm run scores:token` issues it, on the service's data. */
export async function issueToken(dataDir: string, user: string, scopes: string): Promise<string> {
  const io = bufferIo();
  if ((await runScoresToken(['--user', user, '--scopes', scopes], { DATA_DIR: dataDir }, io)) !== 0) throw new Error(io.err);
  return io.out.trim();
}

export interface Fetched {
  status: number;
  type: string | null;
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
      return { status: response.status, type: response.headers.get('content-type'), bytes, text, json: () => JSON.parse(text) as unknown };
    },
  };
}
