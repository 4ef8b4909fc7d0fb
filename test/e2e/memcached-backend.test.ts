/**
 * The object cache (memcached) backend against real memcached processes: upstream's integration
 * tests (per-second limit, minute limit exhausted, two descriptors, stop-increment (the flag is
 * ignored, as upstream) and CACHE_KEY_PREFIX) on one node and on two, with the answers
 * checked exactly and the keys, values and TTLs read back with the meta protocol. With two nodes
 * each key must be on node crc32(key) % 2 (gomemcache's choice, as upstream). Keys memcached cannot
 * hold (over 250 bytes, whitespace) are refused before anything is sent. The same scenarios run
 * over TLS against a memcached that demands a client certificate.
 */
import { crc32 } from 'node:zlib';
import t from 'tap';
import { generateCerts } from '../support/certs.js';
import { expectBadRequest, expectCounters, memcachedInspector, memcachedKeys, runStoreScenarios, storeService } from '../support/backend-scenarios.js';
import { D } from '../support/service-inputs.js';
import { startMemcached } from '../support/store-servers.js';
import { ok, response } from './expect.js';

const SERVICE_ERROR = 'ratelimit.service.call.should_rate_limit.service_error';
const STORE_ERROR = 'ratelimit.service.call.should_rate_limit.redis_error';

/** memjs's own default server choice (utils.hashCode), which the service must not use. */
function memjsHash(key: string): number {
  let h = 0;
  for (let i = 0; i < key.length; i++) h = (31 * h + key.charCodeAt(i)) << 0;
  return Math.abs(h);
}

t.test('one node', async (t) => {
  const node = await startMemcached(t);
  await runStoreScenarios(t, {
    store: memcachedInspector([node]),
    env: { BACKEND_TYPE: 'objcache', OBJCACHE_HOST_PORT: node.url },
    tag: 'one',
  });
});

t.test('over TLS with a client certificate: OBJCACHE_TLS, OBJCACHE_TLS_CACERT, OBJCACHE_TLS_CLIENT_CERT/_KEY', async (t) => {
  const certs = await generateCerts(t);
  // This memcached refuses a client without a certificate signed by the test CA.
  const node = await startMemcached(t, { tls: { certFile: certs.server.certFile, keyFile: certs.server.keyFile, clientCaFile: certs.ca.certFile } });
  await runStoreScenarios(t, {
    store: memcachedInspector([node]),
    env: {
      BACKEND_TYPE: 'objcache',
      OBJCACHE_HOST_PORT: node.url,
      OBJCACHE_TLS: 'true',
      OBJCACHE_TLS_CACERT: certs.ca.certFile,
      OBJCACHE_TLS_CLIENT_CERT: certs.clientEnvoy.certFile,
      OBJCACHE_TLS_CLIENT_KEY: certs.clientEnvoy.keyFile,
    },
    tag: 'tls',
  });
});

t.test('two nodes: OBJCACHE_HOST_PORT=a,b', async (t) => {
  const [a, b] = await Promise.all([startMemcached(t), startMemcached(t)]);
  const nodeOf = (key: string) => crc32(key) % 2;
  // A read finds each key on node crc32(key) % 2 only, or fails.
  const store = memcachedInspector([a, b], nodeOf);
  const env = { BACKEND_TYPE: 'objcache', OBJCACHE_HOST_PORT: `${a.url},${b.url}` };
  await runStoreScenarios(t, { store, env, tag: 'two' });

  await t.test('keys spread over both nodes, each on node crc32(key) % 2', async (t) => {
    const svc = await storeService(t, env);
    const values = Array.from({ length: 16 }, (_, i) => `spread${i}`);
    const keys = values.map((value) => `another_key2_${value}_999960`);
    t.ok(
      keys.some((key) => memjsHash(key) % 2 !== nodeOf(key)),
      'some of these keys would be on the other node with memjs default hash, so the check can tell',
    );
    const r = await svc.post({ domain: 'another', descriptors: values.map((value) => D('key2', value)) });
    t.same(r.json, response('OK', values.map(() => ok(20, 'MINUTE', 19, 20))));
    await expectCounters(t, store, Object.fromEntries(keys.map((key) => [key, { value: 1, ttl: 60 }])), 'after one request');
    // Each node asked for every key directly: a crawler listing can miss a key just written.
    const [readA, readB] = await Promise.all([memcachedInspector([a]).read(keys), memcachedInspector([b]).read(keys)]);
    const heldBy = (reads: ReadonlyArray<unknown>) => keys.filter((_, i) => reads[i] !== undefined).sort();
    t.same(heldBy(readA), keys.filter((key) => nodeOf(key) === 0).sort(), 'node a holds the keys with an even crc32');
    t.same(heldBy(readB), keys.filter((key) => nodeOf(key) === 1).sort(), 'node b holds the keys with an odd crc32');
    const [onA, onB] = await Promise.all([memcachedKeys(a), memcachedKeys(b)]);
    t.ok(onA.length > 0 && onB.length > 0, `both nodes hold counters (${onA.length} and ${onB.length})`);
    const all = [...onA, ...onB];
    t.same(onA.filter((key) => nodeOf(key) !== 0), [], 'every key on node a, from every scenario, belongs there');
    t.same(onB.filter((key) => nodeOf(key) !== 1), [], 'every key on node b, from every scenario, belongs there');
    t.equal(new Set(all).size, all.length, 'no key is on both nodes');
  });

  await t.test('keys memcached cannot hold: 400 naming the descriptor, nothing stored', async (t) => {
    const svc = await storeService(t, env);
    // another_key2_<value>_999960 is 20 bytes plus the value.
    const longest = 'L'.repeat(230);
    const tooLong = 'T'.repeat(231);
    const cases: Array<[string, ReturnType<typeof D>[], RegExp, string[]]> = [
      [
        'a 251-byte key',
        [D('key2', 'beside-long'), D('key2', tooLong)],
        /^descriptors\[1\]: cache key is 251 bytes; the object cache \(memcached\) allows at most 250$/,
        // (The 251-byte key itself cannot even be asked for; the key listing below covers it.)
        ['another_key2_beside-long_999960'],
      ],
      [
        'a key with a space',
        [D('key2', 'with space'), D('key2', 'beside-space')],
        /^descriptors\[0\]: cache key contains U\+0020 at 17; the object cache \(memcached\) takes no whitespace or control characters$/,
        ['another_key2_beside-space_999960'],
      ],
      ['a key with a newline', [D('key3', 'new\nline')], /^descriptors\[0\]: cache key contains U\+000a/, []],
      ['a key of 250 multi-byte UTF-8 bytes and one more', [D('key2', `${'é'.repeat(115)}x`)], /^descriptors\[0\]: cache key is 251 bytes/, []],
    ];
    for (const [what, descriptors, reason, absent] of cases) {
      const before = { service: svc.stat(SERVICE_ERROR), store: svc.stat(STORE_ERROR) };
      const r = await svc.post({ domain: 'another', descriptors });
      expectBadRequest(t, r, reason, what);
      t.equal(svc.stat(SERVICE_ERROR) - before.service, 1, `${what}: a service error`);
      t.equal(svc.stat(STORE_ERROR) - before.store, 0, `${what}: not a store error`);
      for (const key of absent) t.same(await store.read([key]), [undefined], `${what}: ${key.slice(0, 40)}... is not stored`);
    }
    // The longest key that fits works, on its crc32 node; a request after the refused ones shows
    // that nothing of theirs was counted late (memcached increments follow the answer).
    const key = `another_key2_${longest}_999960`;
    t.equal(Buffer.byteLength(key), 250);
    const r = await svc.post({ domain: 'another', descriptors: [D('key2', longest), D('key2', 'beside-long')] });
    t.same(r.json, response('OK', [ok(20, 'MINUTE', 19, 20), ok(20, 'MINUTE', 19, 20)]), 'a 250-byte key is accepted');
    await expectCounters(t, store, { [key]: { value: 1, ttl: 60 }, 'another_key2_beside-long_999960': { value: 1, ttl: 60 } }, '250 bytes');
    const everything = [...(await memcachedKeys(a)), ...(await memcachedKeys(b))];
    t.same(
      everything.filter((k) => /with space|beside-space|new|TTT|é/.test(k)),
      [],
      'none of the refused requests left a key',
    );
  });
});
