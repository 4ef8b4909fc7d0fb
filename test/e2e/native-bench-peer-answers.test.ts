/**
 * native-bench's Node peer (fastify + rate-limiter-flexible, row p) must do the service's work
 * and write the service's answer, or comparing their speed means nothing: both run as the
 * benchmark runs them and get the same requests, and their answers must be the same, status and
 * body, under the limit and over it.
 */
import { fileURLToPath } from 'node:url';
import t, { type Test } from 'tap';
import { BENCH_BODY, BENCH_CONFIG_YAML, BENCH_DOMAIN, BENCH_LIMIT_PER_SECOND } from '../../bench/bench-request.js';
import { parseListeningPort } from '../../native-bench/bare-reply.js';
import { ManagedProcess } from '../support/managed-process.js';
import { runtimeRoot, startProcess } from '../support/process-harness.js';
import { httpRequest, type HttpResult } from '../support/http-request.js';

const PEER = fileURLToPath(new URL('../../native-bench/peer-fastify-server.js', import.meta.url));

async function startPeer(t: Test, args: string[] = []): Promise<string> {
  const peer = new ManagedProcess({ command: process.execPath, args: [PEER, ...args] });
  t.teardown(() => peer.stop());
  const port = await peer.waitFor('LISTENING <port>', parseListeningPort);
  return `http://127.0.0.1:${port}/json`;
}

async function startService(t: Test, yaml: string): Promise<string> {
  const { root } = await runtimeRoot(t, { 'bench.yaml': yaml });
  const service = await startProcess(t, { RUNTIME_ROOT: root, HTTP_WORKERS: '0' });
  return `${service.baseUrl}/json`;
}

const post = (url: string, body: string): Promise<HttpResult> => httpRequest(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body });

/** What a client reads of an answer: status, content type and body. */
const seen = (answer: HttpResult) => ({ status: answer.status, contentType: answer.headers['content-type']?.split(';')[0], body: answer.text });

t.test('the peer answers the benchmark request with the service’s status and JSON, limitRemaining aside', async (t) => {
  const [service, peer] = await Promise.all([startService(t, BENCH_CONFIG_YAML), startPeer(t)]);
  const fromService = await post(service, BENCH_BODY);
  const fromPeer = await post(peer, BENCH_BODY);
  t.equal(fromService.status, 200);
  const withoutRemaining = (answer: HttpResult) => ({ ...seen(answer), body: answer.text.replace(/"limitRemaining":\d+,/, '') });
  t.same(withoutRemaining(fromPeer), withoutRemaining(fromService));
  t.match(fromPeer.text, `"limitRemaining":${BENCH_LIMIT_PER_SECOND - 1},`, 'the peer counted the hit');
});

t.test('under and over a small limit the peer gives the service’s answers, one for one', async (t) => {
  const limit = 3;
  const [service, peer] = await Promise.all([
    startService(t, BENCH_CONFIG_YAML.replace(/requests_per_unit: \d+/, `requests_per_unit: ${limit}`)),
    startPeer(t, ['--limit', String(limit)]),
  ]);
  // The service's windows start on the clock's seconds, the peer's at a key's first hit: a run
  // that straddles a second is tried again, with a user (so a counter) of its own.
  for (let attempt = 1; ; attempt++) {
    const body = JSON.stringify({ domain: BENCH_DOMAIN, descriptors: [{ entries: [{ key: 'service', value: 'api' }, { key: 'user', value: `user-${attempt}` }] }] });
    const second = Math.floor(Date.now() / 1000);
    const pairs: { service: ReturnType<typeof seen>; peer: ReturnType<typeof seen> }[] = [];
    for (let hit = 0; hit <= limit; hit++) pairs.push({ service: seen(await post(service, body)), peer: seen(await post(peer, body)) });
    if (Math.floor(Date.now() / 1000) !== second && attempt < 5) continue;
    t.same(pairs.map((p) => p.service.status), [200, 200, 200, 429], 'the service counted to its limit');
    for (const [i, pair] of pairs.entries()) t.same(pair.peer, pair.service, `hit ${i + 1}`);
    return;
  }
});
