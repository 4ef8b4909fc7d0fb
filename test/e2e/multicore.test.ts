/**
 * The service across threads: HTTP fronts in worker threads (HTTP_WORKERS=2), gRPC on the main
 * thread, decisions inline or in a piscina pool, counters in one shared-memory store.
 */
import * as grpc from '@grpc/grpc-js';
import { randomUUID } from 'node:crypto';
import { mkdir, rename, writeFile } from 'node:fs/promises';
import http from 'node:http';
import { join } from 'node:path';
import t from 'tap';
import { decodeRateLimitResponse, encodeRateLimitRequest, SHOULD_RATE_LIMIT_PATH } from '../../src/ratelimit/grpc/index.js';
import { startProcess, type ServiceProcess } from '../support/process-harness.js';
import { waitFor } from '../support/wait-for.js';
import type { Teardown } from '../support/teardown.js';
import { tempDir } from '../support/temp-dir.js';

interface Answer {
  status: number;
  body: string;
}

/** POSTs /json over a keep-alive agent; resolves with the answer or the socket error's code. */
function postJson(agent: http.Agent, port: number, body: unknown): Promise<Answer | { error: string }> {
  return new Promise((resolve) => {
    const data = JSON.stringify(body);
    const req = http.request(
      { host: '127.0.0.1', port, path: '/json', method: 'POST', agent, headers: { 'content-length': Buffer.byteLength(data) } },
      (res) => {
        let text = '';
        res.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
        res.on('error', (error: NodeJS.ErrnoException) => resolve({ error: error.code ?? error.message }));
      },
    );
    req.on('error', (error: NodeJS.ErrnoException) => resolve({ error: error.code ?? error.message }));
    req.end(data);
  });
}

function grpcCall(client: grpc.Client, request: unknown): Promise<Record<string, unknown> | { error: number }> {
  return new Promise((resolve) => {
    client.makeUnaryRequest(SHOULD_RATE_LIMIT_PATH, encodeRateLimitRequest, decodeRateLimitResponse, request, (error, response) =>
      resolve(error !== null ? { error: error.code } : (response as Record<string, unknown>)),
    );
  });
}

async function configDir(t: Teardown, yaml: string): Promise<{ root: string; file: string }> {
  const root = join(await tempDir(t, 'multicore-'), 'root');
  await mkdir(join(root, 'config'), { recursive: true });
  const file = join(root, 'config', 'multicore.yaml');
  await writeFile(file, yaml);
  return { root, file };
}

const EXACT_LIMIT = 300;
const exactConfig = `domain: multicore
descriptors:
  - key: exact
    rate_limit: { unit: day, requests_per_unit: ${EXACT_LIMIT} }
`;

for (const mode of ['inline', 'pool'] as const) {
  t.test(`${mode}: ${EXACT_LIMIT} of 900 parallel requests over two HTTP threads and gRPC are OK, exactly`, async (t) => {
    const { root } = await configDir(t, exactConfig);
    const proc = await startProcess(t, { RUNTIME_ROOT: root, HTTP_WORKERS: '2', DECISION_MODE: mode, POOL_THREADS: '2' });
    const key = randomUUID();
    const body = { domain: 'multicore', descriptors: [{ entries: [{ key: 'exact', value: key }] }] };
    // Many connections, so the kernel spreads them over both HTTP threads.
    const agent = new http.Agent({ keepAlive: true, maxSockets: 48 });
    const client = new grpc.Client(proc.grpcAddress, grpc.credentials.createInsecure());
    t.teardown(() => {
      agent.destroy();
      client.close();
    });
    const answers = await Promise.all([
      ...Array.from({ length: 600 }, () => postJson(agent, proc.httpPort!, body)),
      ...Array.from({ length: 300 }, () => grpcCall(client, body)),
    ]);
    let ok = 0;
    let over = 0;
    const other: unknown[] = [];
    for (const answer of answers) {
      if ('status' in answer) {
        if (answer.status === 200) ok++;
        else if (answer.status === 429) over++;
        else other.push(answer);
      } else if ('overallCode' in answer) {
        if (answer['overallCode'] === 'OK') ok++;
        else if (answer['overallCode'] === 'OVER_LIMIT') over++;
        else other.push(answer);
      } else other.push(answer);
    }
    t.same(other, [], 'every answer is OK or OVER_LIMIT');
    t.equal(ok, EXACT_LIMIT, 'exactly the limit is allowed');
    t.equal(over, 900 - EXACT_LIMIT);
    t.equal(await proc.stat('ratelimit.service.rate_limit.multicore.exact.total_hits'), 900, 'every thread reported its hits');
    t.equal(await proc.stat('ratelimit.service.rate_limit.multicore.exact.over_limit'), 900 - EXACT_LIMIT);
  });
}

t.test('a configuration reload under load never gives an error or a mixed answer', async (t) => {
  const variant = (limit: number) => `domain: multicore
descriptors:
  - key: first
    rate_limit: { unit: hour, requests_per_unit: ${limit} }
  - key: second
    rate_limit: { unit: hour, requests_per_unit: ${limit} }
`;
  const { root, file } = await configDir(t, variant(111111111));
  const proc = await startProcess(t, { RUNTIME_ROOT: root, RUNTIME_WATCH_ROOT: 'false', HTTP_WORKERS: '2' });
  const agent = new http.Agent({ keepAlive: true, maxSockets: 16 });
  const client = new grpc.Client(proc.grpcAddress, grpc.credentials.createInsecure());
  t.teardown(() => {
    agent.destroy();
    client.close();
  });
  const body = {
    domain: 'multicore',
    descriptors: [{ entries: [{ key: 'first', value: 'a' }] }, { entries: [{ key: 'second', value: 'b' }] }],
  };
  const seen = new Set<string>();
  const problems: unknown[] = [];
  let running = true;
  const limitsOf = (statuses: unknown): string =>
    (statuses as Array<{ currentLimit?: { requestsPerUnit?: number } }>).map((s) => s.currentLimit?.requestsPerUnit).join('/');
  const httpLoop = async () => {
    while (running) {
      const answer = await postJson(agent, proc.httpPort!, body);
      if (!('status' in answer) || answer.status !== 200) problems.push(answer);
      else seen.add(limitsOf((JSON.parse(answer.body) as { statuses: unknown }).statuses));
    }
  };
  const grpcLoop = async () => {
    while (running) {
      const answer = await grpcCall(client, body);
      if (!('statuses' in answer)) problems.push(answer);
      else seen.add(limitsOf(answer['statuses']));
    }
  };
  const loops = [...Array.from({ length: 8 }, httpLoop), ...Array.from({ length: 4 }, grpcLoop)];
  for (let swap = 1; swap <= 10; swap++) {
    const next = join(root, `next-${swap}.yaml`);
    await writeFile(next, variant(swap % 2 === 1 ? 222222222 : 111111111));
    await rename(next, file);
    await waitFor('the reload', async () => ((await proc.stat('ratelimit.service.config_load_success')) ?? 0) >= swap + 1, 10_000).catch(
      (error: Error) => {
        throw new Error(`${error.message}; stderr: ${proc.stderr.slice(-2000)}`);
      },
    );
  }
  running = false;
  await Promise.all(loops);
  t.same(problems, [], 'no errors');
  t.same([...seen].sort(), ['111111111/111111111', '222222222/222222222'], 'both configurations served, never a mix');
});

t.test('SIGTERM under load: every accepted request is answered, then exit 0', async (t) => {
  const { root } = await configDir(t, exactConfig.replace(`${EXACT_LIMIT}`, '1000000000'));
  const proc: ServiceProcess = await startProcess(t, { RUNTIME_ROOT: root, HTTP_WORKERS: '2' });
  const agent = new http.Agent({ keepAlive: true, maxSockets: 32 });
  const client = new grpc.Client(proc.grpcAddress, grpc.credentials.createInsecure());
  t.teardown(() => {
    agent.destroy();
    client.close();
  });
  const body = { domain: 'multicore', descriptors: [{ entries: [{ key: 'exact', value: 'drain' }] }] };
  // Warm the connections so the requests below travel on accepted sockets.
  await Promise.all(Array.from({ length: 32 }, () => postJson(agent, proc.httpPort!, body)));
  await grpcCall(client, body);
  const inFlight = [
    ...Array.from({ length: 400 }, () => postJson(agent, proc.httpPort!, body)),
    ...Array.from({ length: 200 }, () => grpcCall(client, body)),
  ];
  proc.kill('SIGTERM');
  const answers = await Promise.all(inFlight);
  const failures = answers.filter((a) => !('status' in a ? a.status === 200 : 'overallCode' in a));
  t.same(
    failures.filter((a) => !('error' in a)),
    [],
    'every answer that came back is a decision (no 5xx, no broken response)',
  );
  // Refused: the request reached only a closed listener. Reset: HTTP/1.1's keep-alive close race,
  // a request written onto a connection in the same moment the draining server closed it (the
  // server answers everything it has read with `Connection: close`); at most one per connection.
  const resets = failures.filter((a) => 'error' in a && a.error !== 'ECONNREFUSED' && a.error !== grpc.status.UNAVAILABLE);
  t.ok(resets.length <= 32, `at most one request per connection lost to the close race (${resets.length})`);
  t.ok(resets.every((a) => 'error' in a && (a.error === 'ECONNRESET' || a.error === 'EPIPE')), 'only resets, no other failure');
  const exit = await proc.waitForExit(15_000);
  t.same(exit, { code: 0, signal: null }, 'exit code 0');
});
