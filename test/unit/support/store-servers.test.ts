import { stat } from 'node:fs/promises';
import t from 'tap';
import { generateCerts } from '../../support/certs.js';
import { redisCli, startMemcached, startRedis, startRedisCluster, startSentinelGroup } from '../../support/store-servers.js';

/** redis-cli against a port with no credentials and no TLS, to see what a careless client gets. */
function anonymousCli(port: number, ...args: string[]): Promise<string> {
  return redisCli({ flags: ['-h', '127.0.0.1', '-p', String(port)] }, args);
}

t.test('redis: SET/GET through the cli, error replies reject', async (t) => {
  const redis = await startRedis(t);
  t.equal(redis.url, `127.0.0.1:${redis.port}`);
  t.equal(await redis.cli('SET', 'k', 'v', 'EX', '100'), 'OK');
  t.equal(await redis.cli('GET', 'k'), 'v');
  t.same(await redis.keys('k*'), ['k']);
  t.equal((await redis.info('replication'))['role'], 'master');
  await t.rejects(redis.cli('INCR', 'k'), /not an integer/);
});

t.test('redis: a server that cannot start fails fast with its output', async (t) => {
  const started = Date.now();
  await t.rejects(startRedis(t, { args: ['--no-such-directive', 'x'] }), /exited[\s\S]*no-such-directive/);
  t.ok(Date.now() - started < 5000, 'did not wait for the readiness deadline');
});

t.test('redis: password', async (t) => {
  const redis = await startRedis(t, { password: 's3cret' });
  t.equal(await redis.cli('SET', 'k', '1'), 'OK');
  await t.rejects(anonymousCli(redis.port, 'GET', 'k'), /NOAUTH/);
  t.equal(await anonymousCli(redis.port, 'AUTH', 's3cret'), 'OK');
});

t.test('redis: ACL user; the default user is off', async (t) => {
  const redis = await startRedis(t, { aclUser: { user: 'limiter', password: 'pw' } });
  t.equal(await redis.cli('SET', 'k', '1'), 'OK');
  t.equal(await redis.cli('ACL', 'WHOAMI'), 'limiter');
  t.equal(await anonymousCli(redis.port, 'AUTH', 'limiter', 'pw'), 'OK');
  await t.rejects(anonymousCli(redis.port, 'AUTH', 'limiter', 'wrong'), /WRONGPASS/);
  await t.rejects(anonymousCli(redis.port, 'GET', 'k'), /NOAUTH/);
});

t.test('redis: unix socket with permissions 700', async (t) => {
  const redis = await startRedis(t, { unixSocket: true, password: 'pw' });
  const socketPath = redis.socketPath as string;
  t.ok(socketPath.startsWith(redis.dir));
  t.equal((await stat(socketPath)).mode & 0o777, 0o700);
  t.equal(await redis.cliOverSocket('SET', 'k', 'via-socket'), 'OK');
  t.equal(await redis.cli('GET', 'k'), 'via-socket');
});

t.test('redis: TLS only', async (t) => {
  const certs = await generateCerts(t);
  const redis = await startRedis(t, { tls: { certFile: certs.server.certFile, keyFile: certs.server.keyFile, caFile: certs.ca.certFile } });
  t.equal(await redis.cli('SET', 'k', 'secure'), 'OK');
  t.equal(await redis.cli('GET', 'k'), 'secure');
  await t.rejects(anonymousCli(redis.port, 'PING'), 'plain text to the TLS port fails');
  const foreignCa = { flags: ['-h', '127.0.0.1', '-p', String(redis.port), '--tls', '--cacert', certs.foreignCa.certFile] };
  await t.rejects(redisCli(foreignCa, ['PING']), 'a client that does not trust the CA fails');
});

t.test('redis: TLS with client certificates', async (t) => {
  const certs = await generateCerts(t);
  const tls = { certFile: certs.server.certFile, keyFile: certs.server.keyFile, caFile: certs.ca.certFile, authClients: 'yes' as const };
  const redis = await startRedis(t, { tls: { ...tls, clientCertFile: certs.clientEnvoy.certFile, clientKeyFile: certs.clientEnvoy.keyFile } });
  t.equal(await redis.cli('PING'), 'PONG');
  const noCert = { flags: ['-h', '127.0.0.1', '-p', String(redis.port), '--tls', '--cacert', certs.ca.certFile] };
  await t.rejects(redisCli(noCert, ['PING']), 'a client without a certificate is refused');
});

t.test('redis: stop is a crash, restart comes back empty on the same port', async (t) => {
  const redis = await startRedis(t);
  await redis.cli('SET', 'k', 'v');
  const { port, pid } = redis;
  await redis.stop();
  t.equal(redis.running, false);
  t.equal(redis.pid, undefined);
  await t.rejects(redis.cli('PING'), /Connection refused/);
  await redis.restart();
  t.equal(redis.port, port);
  t.not(redis.pid, pid);
  t.equal(await redis.cli('PING'), 'PONG');
  t.equal(await redis.cli('EXISTS', 'k'), '0', 'nothing persisted');
});

t.test('sentinel: the group comes up and promotes the replica when the master dies', async (t) => {
  const group = await startSentinelGroup(t, { masterName: 'rlmaster' });
  t.equal(group.sentinelUrl, ['rlmaster', ...group.sentinels.map((s) => `127.0.0.1:${s.port}`)].join(','));
  t.equal(group.sentinels.length, 3);
  t.equal(await group.currentMasterPort(), group.master.port);
  await group.master.cli('SET', 'k', 'v');
  t.equal((await group.replica.info('replication'))['role'], 'slave');

  await group.master.stop();
  const newPort = await group.waitForFailover(group.master.port, 30_000);
  t.equal(newPort, group.replica.port);
  t.equal((await group.replica.info('replication'))['role'], 'master');
  t.equal(await group.replica.cli('SET', 'k2', 'v2'), 'OK', 'the promoted replica takes writes');
});

t.test('cluster: three masters share the keys', async (t) => {
  const cluster = await startRedisCluster(t, { masters: 3 });
  t.equal(cluster.url, cluster.nodes.map((n) => `127.0.0.1:${n.port}`).join(','));
  const keys = Array.from({ length: 30 }, (_, i) => `key:${i}`);
  for (const key of keys) await cluster.cli('SET', key, '1');
  t.same(await cluster.keys('key:*'), [...keys].sort());
  const perNode = await Promise.all(cluster.nodes.map(async (node) => Number(await node.cli('DBSIZE'))));
  t.ok(perNode.every((count) => count > 0), `keys on every node: ${perNode.join(', ')}`);
  t.equal(await cluster.cli('GET', 'key:7'), '1', '-c follows MOVED');
});

t.test('memcached: get/set, TTL through the meta protocol, stats, crash and restart', async (t) => {
  const memcached = await startMemcached(t);
  t.equal(memcached.url, `127.0.0.1:${memcached.port}`);
  t.match(await memcached.version(), /^1\.6\./);
  await memcached.set('with-ttl', 'abc', 100);
  await memcached.set('forever', '42');
  const item = await memcached.getWithTtl('with-ttl');
  t.equal(item?.value, 'abc');
  t.ok(item !== undefined && item.ttl > 95 && item.ttl <= 100, `ttl ${item?.ttl}`);
  t.same(await memcached.getWithTtl('forever'), { value: '42', ttl: -1 });
  t.equal(await memcached.get('absent'), undefined);
  t.equal((await memcached.stats())['curr_items'], '2');
  t.equal((await memcached.stats('settings'))['udpport'], '0');

  const { port } = memcached;
  await memcached.stop();
  await t.rejects(memcached.get('forever'), /ECONNREFUSED/);
  await memcached.restart();
  t.equal(memcached.port, port);
  t.equal(await memcached.get('forever'), undefined, 'a restart loses everything');
});
