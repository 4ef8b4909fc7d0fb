/**
 * Timed requests for store fault tests: every /json POST and gRPC call is measured (start, end,
 * duration) and never rejects, so a test can count answers by kind, bound each one's duration
 * and order them against a fault (e.g. "started after the kill ended").
 *
 *   const agent = new http.Agent({ keepAlive: true, maxSockets: 50 });
 *   const answers = await runLoad(10_000, 50, () => timedPost(agent, proc.httpPort!, body));
 */
import * as grpc from '@grpc/grpc-js';
import http from 'node:http';
import { performance } from 'node:perf_hooks';
import { decodeRateLimitResponse, encodeRateLimitRequest, SHOULD_RATE_LIMIT_PATH } from '../../src/ratelimit/grpc/index.js';

export interface TimedAnswer {
  /** HTTP status; for gRPC 200 (OK), 429 (OVER_LIMIT), 400 (an error status), 500 (UNKNOWN). */
  status: number;
  /** X-Ratelimit-Error (HTTP) or the status details (gRPC); undefined when absent. */
  error: string | undefined;
  /** gRPC status code of a failed call. */
  grpcCode?: number;
  /** Socket-level failure (ECONNRESET...), with status 0. */
  transportError?: string;
  body: string;
  /** performance.now() when the request was sent and when its answer was complete. */
  startedAt: number;
  endedAt: number;
  ms: number;
}

/** POST /json over `agent`; resolves with the answer or, as status 0, the socket error. */
export function timedPost(agent: http.Agent | false, port: number, body: unknown, timeoutMs = 10_000): Promise<TimedAnswer> {
  const data = JSON.stringify(body);
  const startedAt = performance.now();
  return new Promise((resolve) => {
    const done = (fields: Omit<TimedAnswer, 'startedAt' | 'endedAt' | 'ms'>) => {
      const endedAt = performance.now();
      resolve({ ...fields, startedAt, endedAt, ms: endedAt - startedAt });
    };
    const req = http.request(
      { host: '127.0.0.1', port, path: '/json', method: 'POST', agent, headers: { 'content-length': Buffer.byteLength(data) } },
      (res) => {
        let text = '';
        res.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
        res.on('end', () => {
          const header = res.headers['x-ratelimit-error'];
          done({ status: res.statusCode ?? 0, error: Array.isArray(header) ? header.join(',') : header, body: text });
        });
        res.on('error', (error: NodeJS.ErrnoException) => done({ status: 0, error: undefined, body: '', transportError: error.code ?? error.message }));
      },
    );
    // A hung request must still end (and be counted as one): the service never answering is a failure to report.
    req.setTimeout(timeoutMs, () => req.destroy(Object.assign(new Error('no answer'), { code: 'TIMEOUT' })));
    req.on('error', (error: NodeJS.ErrnoException) => done({ status: 0, error: undefined, body: '', transportError: error.code ?? error.message }));
    req.end(data);
  });
}

const GRPC_STATUS: Record<string, number> = { OK: 200, OVER_LIMIT: 429, UNKNOWN: 500 };

/** ShouldRateLimit over `client`, mapped to the HTTP-like shape of TimedAnswer. */
export function timedGrpc(client: grpc.Client, request: unknown, timeoutMs = 10_000): Promise<TimedAnswer> {
  const startedAt = performance.now();
  return new Promise((resolve) => {
    client.makeUnaryRequest(
      SHOULD_RATE_LIMIT_PATH,
      encodeRateLimitRequest,
      decodeRateLimitResponse,
      request,
      new grpc.Metadata(),
      { deadline: Date.now() + timeoutMs },
      (error, response) => {
        const endedAt = performance.now();
        const timing = { startedAt, endedAt, ms: endedAt - startedAt };
        if (error !== null) {
          resolve({ status: 400, error: error.details, grpcCode: error.code, body: '', ...timing });
          return;
        }
        const decoded = response as Record<string, unknown>;
        const code = String(decoded['overallCode'] ?? 'UNKNOWN');
        resolve({ status: GRPC_STATUS[code] ?? 500, error: undefined, body: JSON.stringify(decoded), ...timing });
      },
    );
  });
}

/**
 * Sends `total` requests with at most `concurrency` in flight (each of `concurrency` lanes sends
 * its next one when the previous answered); answers in the order they were started.
 * `onAnswer` sees each answer as it arrives (e.g. to trigger a fault after N of them).
 */
export async function runLoad(
  total: number,
  concurrency: number,
  send: (index: number, lane: number) => Promise<TimedAnswer>,
  onAnswer: (answer: TimedAnswer, done: number) => void = () => {},
): Promise<TimedAnswer[]> {
  const answers: TimedAnswer[] = new Array(total);
  let next = 0;
  let done = 0;
  const lane = async (id: number) => {
    while (next < total) {
      const index = next++;
      const answer = await send(index, id);
      answers[index] = answer;
      done++;
      onAnswer(answer, done);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, (_, id) => lane(id)));
  return answers;
}

/** Answers grouped by status (0 = transport error), for messages and counts. */
export function countByStatus(answers: readonly TimedAnswer[]): Record<number, number> {
  const counts: Record<number, number> = {};
  for (const answer of answers) counts[answer.status] = (counts[answer.status] ?? 0) + 1;
  return counts;
}

/** The slowest answers, for a failure message. */
export function slowest(answers: readonly TimedAnswer[], n = 5): Array<{ status: number; ms: number; error: string | undefined }> {
  return [...answers]
    .sort((a, b) => b.ms - a.ms)
    .slice(0, n)
    .map((a) => ({ status: a.status, ms: Math.round(a.ms), error: a.error ?? a.transportError }));
}

/**
 * Sends `attempt` every `intervalMs` until it returns true; resolves with the ms from the call
 * to the first success, or rejects after `timeoutMs` with the last answer seen.
 */
export async function timeUntil(what: string, attempt: () => Promise<{ ok: boolean; detail: unknown }>, timeoutMs: number, intervalMs = 20): Promise<number> {
  const start = performance.now();
  let last: unknown;
  for (;;) {
    const { ok, detail } = await attempt();
    if (ok) return performance.now() - start;
    last = detail;
    if (performance.now() - start > timeoutMs) throw new Error(`${what}: not within ${timeoutMs} ms; last: ${JSON.stringify(last)}`);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}
