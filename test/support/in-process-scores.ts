/**
 * The score and education API opened in the test's own thread, on a real store (SQLite under
 * DATA_DIR, or PostgreSQL with SCORES_DATABASE_URL), with a clock the test sets. Requests go
 * through the API's own router as the API thread would route them. Closing and opening again on
 * the same environment is a restart of everything the API keeps.
 */
import { readFileSync } from 'node:fs';
import { openScores, type ScoresRuntime } from '../../src/app/apis/scores.js';
import { renderHttpError, ServiceError } from '../../src/errors/index.js';
import { loadSettings } from '../../src/settings/index.js';
import { ApiRouter, ApiThreadServer } from '../../src/transports/http/handoff/index.js';

export interface InProcessAnswer {
  status: number;
  json(): unknown;
  /** A response header by name (any case), or undefined. */
  header(name: string): string | undefined;
}

const headerOf = (headers: ReadonlyArray<readonly [string, string]> | undefined) => (name: string) => headers?.find(([n]) => n.toLowerCase() === name.toLowerCase())?.[1];

export interface InProcessScores {
  call(bearer: string | undefined, method: string, path: string, body?: unknown): Promise<InProcessAnswer>;
  close(): Promise<void>;
}

export async function openInProcessScores(env: Record<string, string>, now: () => number): Promise<InProcessScores> {
  const runtime: ScoresRuntime = await openScores(loadSettings(env), now);
  const server = new ApiThreadServer(new ApiRouter().add(runtime.api), {
    // A handler that fails is a defect: it fails the test instead of becoming a 500.
    error: (msg, fields) => {
      throw new Error(`${msg} ${JSON.stringify(fields)}`);
    },
  });
  let nextId = 1;
  return {
    call: async (bearer, method, path, body) => {
      const [url = '', query = ''] = path.split('?');
      const headers: Array<[string, string]> = [['host', 'scores.test']];
      if (bearer !== undefined) headers.push(['authorization', `Bearer ${bearer}`]);
      const bytes = body === undefined ? new Uint8Array(0) : new TextEncoder().encode(JSON.stringify(body));
      const outcome = await server.dispatch({ id: nextId++, api: 'scores', method, url, query, headers, body: bytes.buffer as ArrayBuffer });
      if (outcome instanceof ServiceError) {
        const rendered = renderHttpError(outcome);
        return { status: rendered.status, json: () => JSON.parse(String(rendered.body)) as unknown, header: headerOf(rendered.headers) };
      }
      const reply = outcome.body ?? '';
      const text = typeof reply === 'string' ? reply : reply instanceof Uint8Array ? Buffer.from(reply).toString('utf8') : readFileSync(reply.file, 'utf8');
      return { status: outcome.status, json: () => JSON.parse(text) as unknown, header: headerOf(outcome.headers) };
    },
    close: () => runtime.close(),
  };
}
