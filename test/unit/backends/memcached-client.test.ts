/**
 * The object cache's binary-protocol client against real memcached processes (plain and TLS):
 * multi-get over several nodes, increments that create their key with its TTL, delete, many
 * calls pipelined on the kept connections, answers split anywhere, a refused command, a server
 * that never answers, and TLS with every OBJCACHE_TLS_* choice.
 */
import { connect, createServer, Socket, type AddressInfo } from 'node:net';
import { setImmediate as nextTurn } from 'node:timers/promises';
import t from 'tap';
import { Status } from '../../../src/backends/memcached/binary-protocol.js';
import { MemcachedClient, pickServer, type MemcachedClientOptions } from '../../../src/backends/memcached/memcached-client.js';
import { storeTlsOptions, type StoreTlsFiles } from '../../../src/backends/store-tls.js';
import { generateCerts } from '../../support/certs.js';
import { waitFor } from '../../support/wait-for.js';
import { startSilentServer } from '../../support/silent-server.js';
import { startMemcached, type MemcachedServer } from '../../support/store-servers.js';
import type { Teardown } from '../../support/teardown.js';

function client(t: Teardown, servers: string[], options: Partial<MemcachedClientOptions> = {}): MemcachedClient {
  const c = new MemcachedClient({ servers, connectionsPerServer: 1, timeoutMs: 2000, tls: undefined, ...options });
  t.teardown(() => c.close());
  return c;
}

/** A proxy that passes memcached's answers on one byte per event-loop turn, so they arrive in pieces. */
async function dribblingProxy(t: Teardown, upstreamPort: number): Promise<{ url: string; chunks: () => number }> {
  let chunks = 0;
  const sockets: Socket[] = [];
  const server = createServer((downstream) => {
    downstream.setNoDelay(true);
    const upstream = connect(upstreamPort, '127.0.0.1');
    sockets.push(downstream, upstream);
    downstream.pipe(upstream);
    let sending = Promise.resolve();
    upstream.on('data', (data: Buffer) => {
      sending = sending.then(async () => {
        for (const byte of data) {
          downstream.write(Buffer.of(byte));
          chunks++;
          await nextTurn();
        }
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => {
    for (const socket of sockets) socket.destroy();
    server.close();
  });
  return { url: `127.0.0.1:${(server.address() as AddressInfo).port}`, chunks: () => chunks };
}

async function totalConnections(server: MemcachedServer): Promise<number> {
  return Number((await server.stats())['total_connections']);
}

t.test('a multi-get over two nodes: values in the order asked, misses undefined, text that is not a count read as 0', async (t) => {
  const [a, b] = await Promise.all([startMemcached(t), startMemcached(t)]);
  const nodes = [a, b];
  const keys = Array.from({ length: 40 }, (_, i) => `multi_${i}`);
  t.ok(new Set(keys.map((key) => pickServer(2, key))).size === 2, 'the keys are on both nodes');
  // Every even key is stored, on the node the client will ask.
  for (const [i, key] of keys.entries()) if (i % 2 === 0) await (nodes[pickServer(2, key)] as MemcachedServer).set(key, String(i * 1000));
  await (nodes[pickServer(2, 'not_a_count')] as MemcachedServer).set('not_a_count', 'abc');
  const c = client(t, [a.url, b.url]);
  const values = await c.getMulti([...keys, 'not_a_count']);
  t.same(values, [...keys.map((_, i) => (i % 2 === 0 ? i * 1000 : undefined)), 0]);
  t.same(await c.getMulti([]), [], 'no keys, no exchange');
});

t.test('increments create their key at the delta with its expiration, then add to it; delete removes it', async (t) => {
  const memcached = await startMemcached(t);
  const c = client(t, [memcached.url]);
  t.same(await c.increment([{ key: 'k1', delta: 3, expiration: 60 }, { key: 'k2', delta: 1, expiration: 3600 }]), [Status.Ok, Status.Ok]);
  t.same(await memcached.getWithTtl('k1'), { value: '3', ttl: 60 }, 'created at the delta, with its TTL');
  t.same(await memcached.getWithTtl('k2'), { value: '1', ttl: 3600 });
  t.same(await c.increment([{ key: 'k1', delta: 4, expiration: 999 }]), [Status.Ok]);
  t.same(await memcached.getWithTtl('k1'), { value: '7', ttl: 60 }, 'added to; the TTL is the one it was created with');
  t.same(await c.getMulti(['k1', 'k2']), [7, 1]);
  t.equal(await c.delete('k1'), true, 'deleted');
  t.equal(await c.delete('k1'), false, 'not there the second time');
  t.equal(await memcached.get('k1'), undefined);
});

t.test('a refused increment fails only its own key, and the connection stays in step', async (t) => {
  const memcached = await startMemcached(t);
  await memcached.set('text', 'abc');
  const c = client(t, [memcached.url]);
  const statuses = await c.increment([
    { key: 'before', delta: 1, expiration: 60 },
    { key: 'text', delta: 1, expiration: 60 },
    { key: 'after', delta: 2, expiration: 60 },
  ]);
  t.same(statuses, [Status.Ok, 0x06, Status.Ok], 'incr on a non-numeric value is refused, its neighbours counted');
  t.same(await c.getMulti(['before', 'text', 'after']), [1, 0, 2], 'the next exchange on the same connection reads correctly');
});

t.test('many calls at once are pipelined on the kept connections, and no increment is lost', async (t) => {
  const memcached = await startMemcached(t);
  const c = client(t, [memcached.url], { connectionsPerServer: 2 });
  await c.getMulti(['warm']);
  await c.getMulti(['warm']);
  const before = await totalConnections(memcached);
  const calls = 500;
  const results = await Promise.all(
    Array.from({ length: calls }, (_, i) =>
      Promise.all([c.getMulti([`p_${i % 7}`, 'shared']), c.increment([{ key: 'shared', delta: 1, expiration: 60 }, { key: `p_${i % 7}`, delta: 1, expiration: 60 }])]),
    ),
  );
  t.equal(results.length, calls);
  t.ok(results.every(([, statuses]) => statuses.every((status) => status === Status.Ok)), 'every increment answered OK');
  t.equal(await memcached.get('shared'), String(calls), 'the shared counter got every increment');
  // Each of the test's own requests (the get, this stats) is a connection of its own.
  t.equal(await totalConnections(memcached), before + 2, 'the client opened no connection beyond its two');
});

t.test("one event-loop turn's exchanges go out in one write", async (t) => {
  const silent = await startSilentServer(t);
  const c = client(t, [`127.0.0.1:${silent.port}`]);
  const warm = c.getMulti(['warm']);
  await waitFor('the first exchange to arrive', async () => silent.chunks.length === 1, 2000);
  // Counted where they leave the client: in one process the server reads any number of writes as one chunk.
  const write = Socket.prototype.write;
  let writes = 0;
  Socket.prototype.write = function (this: Socket, ...args: unknown[]) {
    if (this.remotePort === silent.port) writes++;
    return (write as (...a: unknown[]) => boolean).apply(this, args);
  } as typeof write;
  t.teardown(() => void (Socket.prototype.write = write));
  const calls = Array.from({ length: 50 }, (_, i) => c.getMulti([`turn_${i}`]));
  // Each multi-get of one key is a GETKQ (24 bytes + key) and a NOOP (24 bytes).
  const expectedBytes = calls.reduce((sum, _, i) => sum + 48 + `turn_${i}`.length, 48 + 'warm'.length);
  await waitFor('every exchange to arrive', async () => Buffer.concat(silent.chunks).length === expectedBytes, 2000);
  t.equal(writes, 1, 'the 50 exchanges went out in one write');
  c.close();
  t.ok((await Promise.allSettled([warm, ...calls])).every((outcome) => outcome.status === 'rejected'), 'closing fails the unanswered exchanges');
});

t.test('answers that arrive a byte at a time are read whole', async (t) => {
  const memcached = await startMemcached(t);
  await memcached.set('seeded', '41');
  const proxy = await dribblingProxy(t, memcached.port);
  const c = client(t, [proxy.url]);
  t.same(await c.increment([{ key: 'made', delta: 5, expiration: 60 }, { key: 'seeded', delta: 1, expiration: 60 }]), [Status.Ok, Status.Ok]);
  t.same(await c.getMulti(['seeded', 'absent', 'made']), [42, undefined, 5]);
  t.equal(await c.delete('made'), true);
  t.ok(proxy.chunks() > 100, `the answers came in ${proxy.chunks()} pieces`);
});

t.test('a server that never answers: calls fail within the timeout and the next call opens a new connection', async (t) => {
  const silent = await startSilentServer(t);
  const c = client(t, [`127.0.0.1:${silent.port}`], { timeoutMs: 100 });
  const startedAt = performance.now();
  const outcomes = await Promise.allSettled([c.getMulti(['a']), c.increment([{ key: 'a', delta: 1, expiration: 60 }]), c.delete('a')]);
  const ms = performance.now() - startedAt;
  t.same(
    outcomes.map((outcome) => (outcome.status === 'rejected' ? (outcome.reason as Error).message : 'answered')),
    ['no answer within 100 ms', 'no answer within 100 ms', 'no answer within 100 ms'],
  );
  // The sweep runs every timeout/8, so a call fails at most that late (plus a busy machine's slack).
  t.ok(ms >= 100 && ms < 400, `failed after ${Math.round(ms)} ms`);
  t.equal(silent.accepted(), 1, 'one connection for the three calls');
  await t.rejects(c.getMulti(['a']), /no answer within 100 ms/);
  t.equal(silent.accepted(), 2, 'the silent connection was replaced');
});

t.test('TLS: OBJCACHE_TLS_CACERT, OBJCACHE_TLS_SKIP_HOSTNAME_VERIFICATION and a client certificate', async (t) => {
  const certs = await generateCerts(t);
  const [plainTls, elsewhere, mutual] = await Promise.all([
    startMemcached(t, { tls: { certFile: certs.server.certFile, keyFile: certs.server.keyFile } }),
    startMemcached(t, { tls: { certFile: certs.serverElsewhere.certFile, keyFile: certs.serverElsewhere.keyFile } }),
    startMemcached(t, { tls: { certFile: certs.server.certFile, keyFile: certs.server.keyFile, clientCaFile: certs.ca.certFile } }),
  ]);
  const files = (overrides: Partial<StoreTlsFiles>): StoreTlsFiles => ({ clientCertFile: '', clientKeyFile: '', caCertFile: certs.ca.certFile, skipHostnameVerification: false, ...overrides });
  const overTls = (server: MemcachedServer, tls: StoreTlsFiles) => client(t, [server.url], { tls: storeTlsOptions(tls), timeoutMs: 3000 });
  const counts = async (server: MemcachedServer, tls: StoreTlsFiles, key: string) => {
    const c = overTls(server, tls);
    t.same(await c.increment([{ key, delta: 2, expiration: 60 }]), [Status.Ok]);
    t.same(await c.getMulti([key]), [2]);
    t.equal(await server.get(key), '2', `${key}: stored, as read on the plain port`);
  };

  await counts(plainTls, files({}), 'trusted_by_ca');
  await t.rejects(overTls(plainTls, files({ caCertFile: '' })).getMulti(['x']), /self.signed|unable to (verify|get local issuer)/, "the system's CAs do not know the test CA");
  await t.rejects(overTls(plainTls, files({ caCertFile: certs.foreignCa.certFile })).getMulti(['x']), /self.signed|unable to (verify|get local issuer)/, 'another CA');
  await t.rejects(overTls(elsewhere, files({})).getMulti(['x']), /does not match|not in the cert's list/, 'a certificate for another host name');
  await counts(elsewhere, files({ skipHostnameVerification: true }), 'other_name_skipped');
  await t.rejects(
    overTls(elsewhere, files({ skipHostnameVerification: true, caCertFile: certs.foreignCa.certFile })).getMulti(['x']),
    /self.signed|unable to (verify|get local issuer)/,
    'skipping the host name still checks the chain',
  );
  await t.rejects(overTls(mutual, files({})).getMulti(['x']), /./, 'a server that demands a client certificate refuses a client without one');
  await counts(mutual, files({ clientCertFile: certs.clientEnvoy.certFile, clientKeyFile: certs.clientEnvoy.keyFile }), 'with_client_cert');
});
