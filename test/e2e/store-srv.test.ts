/**
 * OBJCACHE_SRV against a real DNS answer (a UDP responder in the test, OBJCACHE_SRV_RESOLVER)
 * and real memcached servers: counters go to the servers the SRV record names, and with
 * OBJCACHE_SRV_REFRESH a changed answer moves new keys to the new servers without a restart.
 */
import { randomUUID } from 'node:crypto';
import { crc32 } from 'node:zlib';
import t from 'tap';
import { RlsClient } from '../support/grpc-client.js';
import { startDnsResponder } from '../support/dns-responder.js';
import { timedPost, timeUntil } from '../support/load-client.js';
import { runtimeRoot, startProcess, type ServiceProcess } from '../support/process-harness.js';
import { D } from '../support/service-inputs.js';
import { waitFor } from '../support/wait-for.js';
import { startMemcached, type MemcachedServer } from '../support/store-servers.js';

const SRV = '_memcache._tcp.test.local';
const HOUR = 3600;
const config = `domain: srv
descriptors:
  - key: k
    rate_limit: { unit: hour, requests_per_unit: 1000000 }
`;

const counterKey = (value: string) => `srv_k_${value}_${Math.floor(Date.now() / 1000 / HOUR) * HOUR}`;

/** The service on the object cache, its nodes found through OBJCACHE_SRV at `resolver`. */
async function startSrvService(t: Parameters<typeof runtimeRoot>[0], resolver: string, env: Record<string, string> = {}): Promise<ServiceProcess> {
  const { root } = await runtimeRoot(t, { 'srv.yaml': config });
  return startProcess(t, {
    RUNTIME_ROOT: root,
    HTTP_WORKERS: '1',
    BACKEND_TYPE: 'objcache',
    OBJCACHE_SRV: SRV,
    OBJCACHE_SRV_RESOLVER: resolver,
    ...env,
  });
}

/** Which of `servers` holds `key` once its (asynchronous) increment has landed. */
async function whereIs(key: string, servers: Record<string, MemcachedServer>): Promise<string> {
  return waitFor(
    `${key} in one of ${Object.keys(servers).join(', ')}`,
    async () => {
      const holders: string[] = [];
      for (const [name, server] of Object.entries(servers)) if ((await server.get(key)) !== undefined) holders.push(name);
      return holders.length === 0 ? undefined : holders.join('+');
    },
    3000,
  );
}

/** One request for a new key, over HTTP (a fresh connection: any HTTP thread) or gRPC (the main thread). */
async function countNewKey(proc: ServiceProcess, grpc: RlsClient, overGrpc: boolean): Promise<{ key: string; ok: boolean; detail: unknown }> {
  const value = randomUUID();
  const request = { domain: 'srv', descriptors: [D('k', value)] };
  if (overGrpc) {
    const r = await grpc.call(request);
    return { key: counterKey(value), ok: r.ok && r.response['overallCode'] === 'OK', detail: r };
  }
  const a = await timedPost(false, proc.httpPort!, request);
  return { key: counterKey(value), ok: a.status === 200, detail: { status: a.status, error: a.error } };
}

t.test('OBJCACHE_SRV: counters go to the SRV targets, and follow a changed answer (OBJCACHE_SRV_REFRESH)', async (t) => {
  const [first, second] = await Promise.all([startMemcached(t), startMemcached(t)]);
  const servers = { first: first!, second: second! };
  const dns = await startDnsResponder(t);
  dns.setSrv(SRV, [{ target: 'localhost', port: servers.first.port }]);
  const proc = await startSrvService(t, dns.address, { OBJCACHE_SRV_REFRESH: '200ms' });
  const grpc = new RlsClient(proc.grpcAddress);
  t.teardown(() => grpc.close());

  // The first lookup is not awaited before listening: allow it a moment.
  await timeUntil('a first OK', async () => countNewKey(proc, grpc, false), 5000);
  t.ok(dns.srvQuestions(SRV) >= 2, `the service asked the given resolver (${dns.srvQuestions(SRV)} SRV questions: one per thread at least)`);

  const value = randomUUID();
  const request = { domain: 'srv', descriptors: [D('k', value)] };
  for (let i = 1; i <= 3; i++) {
    const r = await proc.post(request);
    t.equal(r.status, 200);
    t.equal(r.json?.statuses?.[0]?.limitRemaining, 1000000 - i, `request ${i}: counted (remaining ${1000000 - i})`);
    await waitFor(`the count ${i} in the first memcached`, async () => (await servers.first.get(counterKey(value))) === String(i), 3000);
  }
  t.equal(await servers.second.get(counterKey(value)), undefined, 'nothing in the second memcached');
  for (const overGrpc of [false, true]) {
    const { key, ok } = await countNewKey(proc, grpc, overGrpc);
    t.ok(ok);
    t.equal(await whereIs(key, servers), 'first', `a new key over ${overGrpc ? 'gRPC' : 'HTTP'} lands in the first memcached`);
  }

  // Change the answer: every thread's next refresh (200 ms) moves new keys to the second server.
  dns.setSrv(SRV, [{ target: 'localhost', port: servers.second.port }]);
  const switchedMs = await timeUntil(
    '10 new keys in a row (HTTP and gRPC) in the second memcached',
    (() => {
      let streak = 0;
      return async () => {
        const { key, ok, detail } = await countNewKey(proc, grpc, streak % 2 === 1);
        const where = ok ? await whereIs(key, servers) : 'failed';
        streak = where === 'second' ? streak + 1 : 0;
        return { ok: streak >= 10, detail: { where, detail } };
      };
    })(),
    5000,
    0,
  );
  t.ok(switchedMs < 3000, `new keys moved to the second memcached within ${Math.round(switchedMs)} ms`);
  const again = await proc.post(request);
  t.equal(again.json?.statuses?.[0]?.limitRemaining, 1000000 - 1, 'the old key starts over on the new server (its count stayed on the first)');
  await waitFor('the old key on the second memcached', async () => (await servers.second.get(counterKey(value))) === '1', 3000);
  t.equal(await servers.first.get(counterKey(value)), '3', 'and the first memcached still holds the old count');

  // Two targets: each key on the server gomemcache would pick (CRC-32 of the key over the sorted list).
  const questionsBefore = dns.srvQuestions(SRV);
  dns.setSrv(SRV, [
    { target: 'localhost', port: servers.second.port },
    { target: 'localhost', port: servers.first.port },
  ]);
  const sorted = [`localhost:${servers.first.port}`, `localhost:${servers.second.port}`].sort();
  const expectedHolder = (key: string) => (sorted[crc32(key) % 2] === `localhost:${servers.first.port}` ? 'first' : 'second');
  await timeUntil(
    'a new key in the first memcached again (both are listed)',
    async () => {
      const { key, ok } = await countNewKey(proc, grpc, false);
      return { ok: ok && expectedHolder(key) === 'first' && (await whereIs(key, servers)) === 'first', detail: key };
    },
    5000,
    0,
  );
  const placed: Record<string, number> = { first: 0, second: 0 };
  const wrong: string[] = [];
  // Each of the two deciding threads asks every 200 ms: four questions after the change mean both
  // have had the new answer (a lucky key on the right server proves nothing about the other thread).
  await waitFor('both threads to look the name up again', async () => (dns.srvQuestions(SRV) >= questionsBefore + 4 ? true : undefined), 3000);
  for (let i = 0; i < 20; i++) {
    const { key, ok } = await countNewKey(proc, grpc, i % 2 === 1);
    t.ok(ok);
    const holder = await whereIs(key, servers);
    placed[holder] = (placed[holder] ?? 0) + 1;
    if (holder !== expectedHolder(key)) wrong.push(`${key} in ${holder}`);
  }
  t.same(wrong, [], `20 keys, each on the server CRC-32 picks (${JSON.stringify(placed)})`);
  t.ok(placed['first']! > 0 && placed['second']! > 0, 'both servers got keys');
});

t.test('an SRV name with no nodes yet at startup is looked up again until it has some, even without OBJCACHE_SRV_REFRESH', async (t) => {
  const memcached = await startMemcached(t);
  const dns = await startDnsResponder(t);
  dns.setSrv(SRV, []);
  const proc = await startSrvService(t, dns.address);
  const request = { domain: 'srv', descriptors: [D('k', randomUUID())] };
  const before = await proc.post(request);
  t.equal(before.status, 400, 'no nodes: the request fails as a store error');
  t.match(before.headers['x-ratelimit-error'] ?? '', /no servers found for _memcache\._tcp\.test\.local yet/);
  await waitFor('repeated SRV questions', async () => (dns.srvQuestions(SRV) >= 4 ? true : undefined), 5000);
  dns.setSrv(SRV, [{ target: 'localhost', port: memcached.port }]);
  const waited = await timeUntil('a first OK once the record exists', async () => {
    const r = await proc.post(request);
    return { ok: r.status === 200, detail: r.status };
  }, 10_000);
  t.ok(waited < 10_000, `counting began ${Math.round(waited)} ms after the record appeared`);
});
