/**
 * One key under heavy concurrency, against real servers and the real process (two HTTP threads
 * plus gRPC on the main thread, each with its own store connections): Redis counts atomically,
 * so exactly the limit is allowed; memcached reads then increments asynchronously, so it may
 * allow more, by at most the number of requests in flight (the documented bound).
 */
import * as grpc from '@grpc/grpc-js';
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import { performance } from 'node:perf_hooks';
import t from 'tap';
import { countByStatus, slowest, timedGrpc, timedPost, type TimedAnswer } from '../support/load-client.js';
import { runtimeRoot, startProcess, type ServiceProcess } from '../support/process-harness.js';
import { D } from '../support/service-inputs.js';
import { waitFor } from '../support/wait-for.js';
import { startMemcached, startRedis } from '../support/store-servers.js';
import type { Teardown } from '../support/teardown.js';

const LIMIT = 1000;
const CLIENTS = 50;
const GRPC_CLIENTS = 10;
/** Twice the limit in all: the race is over the limit's last hits; the rest are answered over it. */
const PER_CLIENT = 40;
const TOTAL = CLIENTS * PER_CLIENT;
const HOUR = 3600;

const config = `domain: conc
descriptors:
  - key: k
    rate_limit: { unit: hour, requests_per_unit: ${LIMIT} }
`;

interface CommentingTeardown extends Teardown {
  comment(...message: unknown[]): void;
}

/**
 * The run must stay in one hour window (else its hits split over two counters): if the hour
 * ends within `marginMs`, wait for the next one to begin. Rare (the last seconds of an hour).
 */
async function awayFromHourEnd(marginMs = 30_000): Promise<void> {
  const left = HOUR * 1000 - (Date.now() % (HOUR * 1000));
  if (left < marginMs) await new Promise((resolve) => setTimeout(resolve, left + 100));
}

/** 40 HTTP clients (keep-alive, spread over both HTTP threads) and 10 gRPC clients, PER_CLIENT requests each, one key. */
async function hammer(t: CommentingTeardown, proc: ServiceProcess, run: string): Promise<TimedAnswer[]> {
  const body = { domain: 'conc', descriptors: [D('k', run)] };
  const agent = new http.Agent({ keepAlive: true, maxSockets: CLIENTS });
  // Several channels, so gRPC calls do not all share one HTTP/2 connection.
  const clients = Array.from({ length: GRPC_CLIENTS }, () => new grpc.Client(proc.grpcAddress, grpc.credentials.createInsecure()));
  t.teardown(() => {
    agent.destroy();
    for (const client of clients) client.close();
  });
  // Each client sends its PER_CLIENT requests one after the other; clients below GRPC_CLIENTS use gRPC.
  const started = performance.now();
  const lanes = await Promise.all(
    Array.from({ length: CLIENTS }, async (_, lane) => {
      const answers: TimedAnswer[] = [];
      for (let i = 0; i < PER_CLIENT; i++) {
        answers.push(await (lane < GRPC_CLIENTS ? timedGrpc(clients[lane] as grpc.Client, body) : timedPost(agent, proc.httpPort!, body)));
      }
      return answers;
    }),
  );
  t.comment(`${TOTAL} requests in ${Math.round(performance.now() - started)} ms`);
  return lanes.flat();
}

async function service(t: Teardown, env: Record<string, string>): Promise<ServiceProcess> {
  const { root } = await runtimeRoot(t, { 'conc.yaml': config });
  return startProcess(t, { RUNTIME_ROOT: root, HTTP_WORKERS: '2', ...env });
}

t.test(`Redis: ${CLIENTS} clients x ${PER_CLIENT} requests on one key with limit ${LIMIT}: exactly ${LIMIT} OK`, async (t) => {
  const redis = await startRedis(t);
  const proc = await service(t, { KVSTORE_URL: redis.url });
  const run = randomUUID();
  await awayFromHourEnd();
  const answers = await hammer(t, proc, run);
  const counts = countByStatus(answers);
  t.comment(`answers: ${JSON.stringify(counts)}; slowest: ${JSON.stringify(slowest(answers, 3))}`);
  t.same(counts, { 200: LIMIT, 429: TOTAL - LIMIT }, `exactly ${LIMIT} OK and ${TOTAL - LIMIT} OVER_LIMIT, no error`);
  const keys = await redis.keys(`conc_k_${run}_*`);
  t.equal(keys.length, 1, 'one counter');
  t.equal(await redis.cli('GET', keys[0] ?? ''), String(TOTAL), `the key in Redis holds ${TOTAL}: every hit counted once`);
  t.equal(await proc.stat('ratelimit.service.rate_limit.conc.k.total_hits'), TOTAL);
  t.equal(await proc.stat('ratelimit.service.rate_limit.conc.k.over_limit'), TOTAL - LIMIT);
});

t.test(`memcached: ${CLIENTS} clients x ${PER_CLIENT} requests: at least ${LIMIT} OK, at most ${LIMIT} + ${CLIENTS} in flight`, async (t) => {
  const memcached = await startMemcached(t);
  const proc = await service(t, { BACKEND_TYPE: 'objcache', OBJCACHE_HOST_PORT: memcached.url });
  const run = randomUUID();
  await awayFromHourEnd();
  const answers = await hammer(t, proc, run);
  const counts = countByStatus(answers);
  t.comment(`answers: ${JSON.stringify(counts)}; slowest: ${JSON.stringify(slowest(answers, 3))}`);
  t.same(Object.keys(counts).sort(), ['200', '429'], 'only OK and OVER_LIMIT, no error');
  const ok = counts[200] ?? 0;
  t.ok(ok >= LIMIT, `${ok} OK >= the limit ${LIMIT} (never fewer: every hit is eventually counted)`);
  t.ok(ok <= LIMIT + CLIENTS, `${ok} OK <= ${LIMIT} + ${CLIENTS} (README: over by at most the requests in flight for the key)`);
  // The increments are not waited for: they land shortly after the answers.
  const window = Math.floor(Date.now() / 1000 / HOUR) * HOUR;
  const key = `conc_k_${run}_${window}`;
  const stored = await waitFor(`${key} to reach ${TOTAL}`, async () => ((await memcached.get(key)) === String(TOTAL) ? TOTAL : undefined), 5000).catch(
    async (error: Error) => `${error.message}; holds ${await memcached.get(key)}`,
  );
  t.equal(stored, TOTAL, `memcached holds ${TOTAL}: every hit counted once`);
  t.equal(await proc.stat('ratelimit.memcache.increment.__code=error'), 0, 'no increment failed');
  t.equal(await proc.stat('ratelimit.memcache.increment.__code=success'), TOTAL);
});
