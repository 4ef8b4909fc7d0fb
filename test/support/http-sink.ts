/**
 * An HTTP server that records what is sent to it, for tests of notifications: every request
 * with its time, path, headers and body, a way to wait for the n-th one (no sleeps), and the
 * status it answers, chosen per request.
 *
 *   const sink = await startHttpSink(t);
 *   sink.answerWith(() => 500);              // every request fails until told otherwise
 *   const first = await sink.nth(1);         // resolves when the first request has arrived
 *   first.json                               // the body parsed as JSON
 */
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Teardown } from './teardown.js';

export interface SunkRequest {
  at: number;
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  /** The body parsed as JSON, or undefined when it is not JSON. */
  json: unknown;
}

export interface HttpSink {
  /** `http://127.0.0.1:<port>` */
  readonly url: string;
  readonly requests: readonly SunkRequest[];
  /** Resolves with the n-th request (from 1) once it has arrived; rejects after `timeoutMs`. */
  nth(n: number, timeoutMs?: number): Promise<SunkRequest>;
  /** The status (or status and body) each following request is answered with (default 200), given the request's number. */
  answerWith(status: (n: number, request: SunkRequest) => number | SinkAnswer): void;
  close(): Promise<void>;
}

/** An answer with a body of the test's choosing; a bare status answers `sink answered N` for errors, nothing else. */
export interface SinkAnswer {
  status: number;
  body: string;
  contentType?: string;
}

function parsed(body: string): unknown {
  try {
    return JSON.parse(body) as unknown;
  } catch {
    return undefined;
  }
}

export async function startHttpSink(t: Teardown, now: () => number = Date.now): Promise<HttpSink> {
  const requests: SunkRequest[] = [];
  const waiters: Array<{ n: number; resolve: (request: SunkRequest) => void }> = [];
  let status: (n: number, request: SunkRequest) => number | SinkAnswer = () => 200;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const request: SunkRequest = { at: now(), method: req.method ?? '', path: req.url ?? '', headers: req.headers, body, json: parsed(body) };
      requests.push(request);
      const answer = status(requests.length, request);
      res.statusCode = typeof answer === 'number' ? answer : answer.status;
      if (typeof answer !== 'number' && answer.contentType !== undefined) res.setHeader('Content-Type', answer.contentType);
      res.end(typeof answer !== 'number' ? answer.body : res.statusCode >= 400 ? `sink answered ${res.statusCode}` : '');
      for (const waiter of waiters.filter((w) => w.n <= requests.length)) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve(requests[waiter.n - 1] as SunkRequest);
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const close = () => new Promise<void>((resolve) => server.close(() => resolve()));
  t.teardown(async () => {
    server.closeAllConnections();
    await close();
  });
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    nth(n, timeoutMs = 15_000) {
      if (requests.length >= n) return Promise.resolve(requests[n - 1] as SunkRequest);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`the sink got ${requests.length} requests, not ${n}, within ${timeoutMs} ms`)), timeoutMs);
        waiters.push({ n, resolve: (request) => (clearTimeout(timer), resolve(request)) });
      });
    },
    answerWith(next) {
      status = next;
    },
    async close() {
      server.closeAllConnections();
      await close();
    },
  };
}
