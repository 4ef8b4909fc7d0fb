/**
 * respCli answers what redis-cli prints, for the replies tests read: each command goes to the
 * same server through both, and the outputs must be equal.
 */
import t from 'tap';
import { generateCerts } from '../../support/certs.js';
import { respCli } from '../../support/resp-cli.js';
import { redisCli, startRedis, startRedisCluster } from '../../support/store-servers.js';

const TIMEOUT_MS = 10_000;

/**
 * Both answers to `args`, or both errors' texts. A `{who}` in an argument becomes `ours` or
 * `theirs`, so that a command that changes a key changes one of each.
 */
async function both(flags: string[], password: string | undefined, args: string[]): Promise<{ ours: string; theirs: string }> {
  const settle = (answer: Promise<string>) => answer.then((text) => `answer: ${text}`, (error: Error) => `error: ${error.message}`);
  const argsOf = (who: string) => args.map((arg) => arg.replaceAll('{who}', who));
  const ours = await settle(respCli(flags, password, argsOf('ours'), TIMEOUT_MS));
  const theirs = await settle(redisCli({ flags, ...(password === undefined ? {} : { password }) }, argsOf('theirs')));
  return { ours, theirs };
}

t.test('replies of every kind print as redis-cli prints them', async (t) => {
  const redis = await startRedis(t);
  const flags = ['-h', '127.0.0.1', '-p', String(redis.port)];
  await redis.cli('RPUSH', 'list', 'a', 'b', 'c d', 'é');
  await redis.cli('HSET', 'hash', 'f1', 'v1', 'f2', '');
  await redis.cli('SET', 'multi', 'line one\nline two');
  const commands: string[][] = [
    ['PING'],
    ['SET', 'k', 'v', 'EX', '1000'],
    ['GET', 'k'],
    ['GET', 'missing'],
    ['INCR', 'counter-{who}'],
    ['INCRBY', 'counter-{who}', '-5'],
    ['LRANGE', 'list', '0', '-1'],
    ['LRANGE', 'missing', '0', '-1'],
    ['HGETALL', 'hash'],
    ['GET', 'multi'],
    ['EVAL', "return {1, 'two', {3, 'four'}, redis.call('GET', 'missing')}", '0'],
    ['EVAL', 'return redis.status_reply("FINE")', '0'],
    // Negative integers; the TTL of a key that expires would move between the two reads.
    ['TTL', 'multi'],
    ['TTL', 'missing'],
    ['EXISTS', 'k', 'missing'],
    ['CONFIG', 'GET', 'maxmemory-policy'],
  ];
  for (const args of commands) {
    const { ours, theirs } = await both(flags, undefined, args);
    t.equal(ours.replace(/^error: redis-cli [^:]*: /, 'error: '), theirs.replace(/^error: redis-cli [^:]*: /, 'error: '), args.join(' '));
  }
  // The average TTL moves between two reads.
  const info = await both(flags, undefined, ['INFO', 'keyspace']);
  const steady = (text: string) => text.replace(/avg_ttl=\d+/, 'avg_ttl=N');
  t.equal(steady(info.ours), steady(info.theirs), 'INFO keyspace, its lines ending in \\r\\n as Redis sends them');
  t.match(info.ours, /^answer: # Keyspace\r\ndb0:keys=\d+/);
});

t.test('an error reply rejects with its text; a server that is down rejects with "Connection refused"', async (t) => {
  const redis = await startRedis(t);
  const flags = ['-h', '127.0.0.1', '-p', String(redis.port)];
  await redis.cli('SET', 'text', 'abc');
  await t.rejects(respCli(flags, undefined, ['INCR', 'text'], TIMEOUT_MS), /ERR value is not an integer or out of range/);
  await t.rejects(respCli(flags, undefined, ['NOSUCHCOMMAND'], TIMEOUT_MS), /ERR unknown command/);
  await t.rejects(redisCli({ flags }, ['INCR', 'text']), /not an integer/, 'redis-cli too');
  await redis.stop();
  await t.rejects(respCli(flags, undefined, ['PING'], TIMEOUT_MS), /Could not connect to Redis at 127\.0\.0\.1:\d+: Connection refused/);
});

t.test('--scan --pattern lists every matching key, past one SCAN page', async (t) => {
  const redis = await startRedis(t);
  const flags = ['-h', '127.0.0.1', '-p', String(redis.port)];
  await redis.cli('EVAL', "for i = 1, 250 do redis.call('SET', 'k:' .. i, i) end redis.call('SET', 'other', 1)", '0');
  const ours = (await respCli(flags, undefined, ['--scan', '--pattern', 'k:*'], TIMEOUT_MS)).split('\n').sort();
  const theirs = (await redisCli({ flags }, ['--scan', '--pattern', 'k:*'])).split('\n').sort();
  t.equal(ours.length, 250);
  t.same(ours, theirs);
});

t.test('passwords, ACL users, unix sockets and TLS with client certificates', async (t) => {
  const certs = await generateCerts(t);
  const tls = { certFile: certs.server.certFile, keyFile: certs.server.keyFile, caFile: certs.ca.certFile, authClients: 'yes' as const };
  const redis = await startRedis(t, {
    unixSocket: true,
    aclUser: { user: 'limiter', password: 'pw' },
    tls: { ...tls, clientCertFile: certs.clientEnvoy.certFile, clientKeyFile: certs.clientEnvoy.keyFile },
  });
  const tlsFlags = ['-h', '127.0.0.1', '-p', String(redis.port), '--tls', '--cacert', certs.ca.certFile, '--cert', certs.clientEnvoy.certFile, '--key', certs.clientEnvoy.keyFile];
  const overTls = await both([...tlsFlags, '--user', 'limiter'], 'pw', ['ACL', 'WHOAMI']);
  t.same(overTls, { ours: 'answer: limiter', theirs: 'answer: limiter' }, 'TLS with a client certificate, as the ACL user');
  const overSocket = await both(['-s', redis.socketPath as string, '--user', 'limiter'], 'pw', ['ACL', 'WHOAMI']);
  t.same(overSocket, { ours: 'answer: limiter', theirs: 'answer: limiter' }, 'the unix socket, as the ACL user');
  await t.rejects(respCli(['-s', redis.socketPath as string, '--user', 'limiter'], 'wrong', ['PING'], TIMEOUT_MS), /AUTH failed: WRONGPASS/);
  await t.rejects(respCli(['-s', redis.socketPath as string], undefined, ['GET', 'k'], TIMEOUT_MS), /NOAUTH/);
  const noCert = ['-h', '127.0.0.1', '-p', String(redis.port), '--tls', '--cacert', certs.ca.certFile];
  await t.rejects(respCli(noCert, 'pw', ['PING'], TIMEOUT_MS), /./, 'no client certificate: refused');
  await t.rejects(respCli(['-h', '127.0.0.1', '-p', String(redis.port), '--tls', '--cacert', certs.foreignCa.certFile], 'pw', ['PING'], TIMEOUT_MS), /./, 'a CA that did not sign the server: refused');
});

t.test('-c follows the cluster to the node that holds each key', async (t) => {
  const cluster = await startRedisCluster(t);
  const first = cluster.nodes[0];
  t.ok(first !== undefined);
  const flags = ['-h', '127.0.0.1', '-p', String(first?.port)];
  const keys = Array.from({ length: 20 }, (_, i) => `key-${i}`);
  for (const key of keys) t.equal(await respCli(flags, undefined, ['-c', 'SET', key, key.toUpperCase()], TIMEOUT_MS), 'OK');
  for (const key of keys) t.equal(await redisCli({ flags }, ['-c', 'GET', key]), key.toUpperCase(), `${key} as redis-cli reads it`);
  t.same(await cluster.keys('key-*'), [...keys].sort(), 'spread over the nodes, each key once');
  const moved = await respCli(flags, undefined, ['GET', 'key-0'], TIMEOUT_MS).then(() => 'answered', (error: Error) => error.message);
  const movedByRedisCli = await redisCli({ flags }, ['GET', 'key-0']).then(() => 'answered', (error: Error) => error.message);
  t.equal(moved.includes('MOVED'), movedByRedisCli.includes('MOVED'), 'without -c a key elsewhere is a MOVED error for both');
});

t.test('modes it does not speak are refused, not guessed', async (t) => {
  await t.rejects(respCli(['-h', '127.0.0.1', '-p', '1'], undefined, ['--cluster', 'create', 'a:1'], TIMEOUT_MS), /--cluster is not spoken here/);
  await t.rejects(respCli(['-h', '127.0.0.1', '-p', '1', '--tls'], undefined, ['PING'], TIMEOUT_MS), /--tls needs --cacert/);
});
