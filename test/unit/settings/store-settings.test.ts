import t from 'tap';
import { loadServiceSettings } from '../../../src/app/service-settings.js';

t.test('key-value store defaults follow upstream, with the socket type taken from the URL', async (t) => {
  const s = loadServiceSettings({ BACKEND_TYPE: 'kvstore' });
  t.equal(s.kvstore.main.url, '/var/run/nutcracker/ratelimit.sock', "upstream's default socket");
  t.equal(s.kvstore.main.socketType, 'unix');
  t.equal(s.kvstore.main.type, 'single');
  t.equal(s.kvstore.main.connections, 10);
  t.equal(s.kvstore.main.timeoutMs, 500, 'a short timeout: a sidecar must answer fast');
  t.equal(s.kvstore.perSecond, undefined);
  t.equal(s.kvstore.expirationJitterMaxSeconds, 300);
  t.equal(s.localCacheSizeBytes, 0);
  t.equal(s.stopCacheKeyIncrementWhenOverlimit, false);
  t.equal(loadServiceSettings({ KVSTORE_URL: 'redis.internal:6379' }).kvstore.main.socketType, 'tcp', 'host:port means TCP');
});

t.test('every knob is read, our KVSTORE_* names first and upstream REDIS_* names as aliases', async (t) => {
  const s = loadServiceSettings({
    KVSTORE_URL: 'm,127.0.0.1:1,127.0.0.1:2',
    KVSTORE_TYPE: 'SENTINEL',
    KVSTORE_AUTH: 'alice:secret',
    KVSTORE_SENTINEL_AUTH: 'sentinel-pass',
    KVSTORE_POOL_SIZE: '4',
    KVSTORE_TLS: 'true',
    KVSTORE_TLS_CACERT: '/ca.pem',
    KVSTORE_TLS_CLIENT_CERT: '/c.pem',
    KVSTORE_TLS_CLIENT_KEY: '/k.pem',
    KVSTORE_TLS_SKIP_HOSTNAME_VERIFICATION: 'true',
    KVSTORE_PIPELINE_WINDOW: '150us',
    KVSTORE_PIPELINE_LIMIT: '8',
    KVSTORE_TIMEOUT: '2s',
    REDIS_PERSECOND: 'true',
    REDIS_PERSECOND_URL: '127.0.0.1:3',
    KVSTORE_PERSECOND_TYPE: 'single',
    EXPIRATION_JITTER_MAX_SECONDS: '0',
    LocalCacheSizeInBytes: '1048576',
    STOP_CACHE_KEY_INCREMENT_WHEN_OVERLIMIT: 'true',
    KVSTORE_HEALTH_CHECK_ACTIVE_CONNECTION: 'true',
  });
  const main = s.kvstore.main;
  t.equal(s.backendType, 'kvstore');
  t.match(main, { type: 'sentinel', socketType: 'tcp', auth: 'alice:secret', sentinelAuth: 'sentinel-pass', connections: 4, pipelineLimit: 8, timeoutMs: 2000 });
  t.equal(main.pipelineWindowMs, 0.15);
  t.same(main.tls, { clientCertFile: '/c.pem', clientKeyFile: '/k.pem', caCertFile: '/ca.pem', skipHostnameVerification: true });
  t.match(s.kvstore.perSecond, { type: 'single', url: '127.0.0.1:3', tls: undefined });
  t.equal(s.kvstore.expirationJitterMaxSeconds, 0);
  t.equal(s.localCacheSizeBytes, 1048576, 'our primary spelling LocalCacheSizeInBytes');
  t.equal(loadServiceSettings({ LOCAL_CACHE_SIZE_IN_BYTES: '5' }).localCacheSizeBytes, 5, "and upstream's");
  t.equal(s.stopCacheKeyIncrementWhenOverlimit, true);
  t.equal(s.kvstoreHealthCheckActiveConnection, true);
  t.equal(loadServiceSettings({ REDIS_URL: '127.0.0.1:9', REDIS_TYPE: 'cluster' }).kvstore.main.type, 'cluster');
});

t.test('object cache settings', async (t) => {
  const s = loadServiceSettings({ BACKEND_TYPE: 'objcache', OBJCACHE_HOST_PORT: '127.0.0.1:11211, 127.0.0.1:11212', OBJCACHE_MAX_IDLE_CONNS: '3' });
  t.same(s.objcache.servers, ['127.0.0.1:11211', '127.0.0.1:11212']);
  t.equal(s.objcache.connectionsPerServer, 3);
  const srv = loadServiceSettings({ BACKEND_TYPE: 'memcache', MEMCACHE_SRV: '_memcache._tcp.example', MEMCACHE_SRV_REFRESH: '30s' });
  t.equal(srv.backendType, 'objcache');
  t.equal(srv.objcache.srv, '_memcache._tcp.example');
  t.equal(srv.objcache.srvRefreshMs, 30_000);
  t.equal(srv.objcache.connectionsPerServer, 1, 'one pipelined connection per node and thread by default');
  t.equal(s.objcache.tls, undefined, 'plain TCP unless OBJCACHE_TLS');
  const tls = loadServiceSettings({
    BACKEND_TYPE: 'objcache',
    OBJCACHE_HOST_PORT: 'a:1',
    MEMCACHE_TLS: 'true',
    MEMCACHE_TLS_CLIENT_CERT: '/etc/hostname',
    OBJCACHE_TLS_CLIENT_KEY: '/etc/hostname',
    OBJCACHE_TLS_SKIP_HOSTNAME_VERIFICATION: 'true',
  });
  t.same(tls.objcache.tls, { clientCertFile: '/etc/hostname', clientKeyFile: '/etc/hostname', caCertFile: '', skipHostnameVerification: true }, "upstream's MEMCACHE_TLS* names too");
});

const refused: Array<[string, Record<string, string>, string]> = [
  ['sentinel without servers', { KVSTORE_URL: 'mymaster', KVSTORE_TYPE: 'sentinel' }, 'invalid value for KVSTORE_URL: "mymaster" (sentinel: expected master-name,host:port[,host:port...])'],
  ['single with a list', { KVSTORE_URL: '127.0.0.1:1,127.0.0.1:2' }, 'invalid value for KVSTORE_URL: "127.0.0.1:1,127.0.0.1:2" (single: expected host:port)'],
  ['cluster with a bad node', { KVSTORE_URL: '127.0.0.1:1,nope', KVSTORE_TYPE: 'cluster' }, 'invalid value for KVSTORE_URL: "127.0.0.1:1,nope" (cluster: expected host:port[,host:port...])'],
  ['unknown type', { KVSTORE_URL: 'a:1', KVSTORE_TYPE: 'ring' }, 'invalid value for KVSTORE_TYPE: "ring" (expected one of single, sentinel, cluster)'],
  ['unix socket for a cluster', { KVSTORE_URL: '/tmp/x.sock', KVSTORE_TYPE: 'cluster' }, 'invalid value for KVSTORE_URL: "/tmp/x.sock" (cluster: expected host:port[,host:port...])'],
  ['TLS over a unix socket', { KVSTORE_URL: '/tmp/x.sock', KVSTORE_TLS: 'true' }, 'KVSTORE_TLS needs KVSTORE_SOCKET_TYPE=tcp'],
  ['zero timeout', { KVSTORE_URL: 'a:1', KVSTORE_TIMEOUT: '0s' }, 'invalid value for KVSTORE_TIMEOUT: 0 (expected a duration above zero)'],
  ['bad per-second URL', { KVSTORE_URL: 'a:1', KVSTORE_PERSECOND: 'true', KVSTORE_PERSECOND_URL: 'x' }, 'invalid value for KVSTORE_PERSECOND_URL: "x" (single: expected host:port)'],
  ['both memcached sources', { BACKEND_TYPE: 'objcache', OBJCACHE_HOST_PORT: 'a:1', OBJCACHE_SRV: '_m._tcp.x' }, 'both OBJCACHE_HOST_PORT and OBJCACHE_SRV are set: use one of them'],
  ['no memcached source', { BACKEND_TYPE: 'objcache' }, 'BACKEND_TYPE=objcache needs OBJCACHE_HOST_PORT or OBJCACHE_SRV'],
  ['memcached server without port', { BACKEND_TYPE: 'objcache', OBJCACHE_HOST_PORT: 'localhost' }, 'invalid value for OBJCACHE_HOST_PORT: "localhost" (expected host:port)'],
  [
    'memcached TLS client certificate without its key',
    { BACKEND_TYPE: 'objcache', OBJCACHE_HOST_PORT: 'a:1', OBJCACHE_TLS: 'true', OBJCACHE_TLS_CLIENT_CERT: '/etc/hostname' },
    'OBJCACHE_TLS_CLIENT_CERT and OBJCACHE_TLS_CLIENT_KEY go together: set both or neither',
  ],
  [
    'memcached TLS CA file that cannot be read',
    { BACKEND_TYPE: 'objcache', OBJCACHE_HOST_PORT: 'a:1', MEMCACHE_TLS: 'true', MEMCACHE_TLS_CACERT: '/nonexistent/ca.pem' },
    'invalid value for OBJCACHE_TLS_CACERT: cannot read "/nonexistent/ca.pem" (ENOENT)',
  ],
];

t.test('combinations that cannot work stop startup with one clear line', async (t) => {
  for (const [what, env, message] of refused) t.throws(() => loadServiceSettings(env), { name: 'SettingsError', message }, what);
});

t.test('settings of a backend that is not selected are not held against it', async (t) => {
  t.doesNotThrow(() => loadServiceSettings({ BACKEND_TYPE: 'memory', KVSTORE_URL: 'not a url', KVSTORE_TYPE: 'cluster', OBJCACHE_TLS: 'true' }));
});

t.test('KVSTORE_CLUSTER_PIPELINE_PARALLELISM: 1 serial, 0 the pool size, N at most the pool size', async (t) => {
  const cluster = { KVSTORE_TYPE: 'cluster', KVSTORE_URL: '127.0.0.1:7000', KVSTORE_POOL_SIZE: '4' };
  const parallelism = (env: Record<string, string>) => loadServiceSettings({ ...cluster, ...env }).kvstore.main.clusterPipelineParallelism;
  t.equal(parallelism({}), 4, 'unset: every node at once, up to the pool size');
  t.equal(parallelism({ REDIS_CLUSTER_PIPELINE_PARALLELISM: '1' }), 1, "upstream's name");
  t.equal(parallelism({ KVSTORE_CLUSTER_PIPELINE_PARALLELISM: '0' }), 4);
  t.equal(parallelism({ KVSTORE_CLUSTER_PIPELINE_PARALLELISM: '3' }), 3);
  t.equal(parallelism({ KVSTORE_CLUSTER_PIPELINE_PARALLELISM: '9' }), 4, 'capped at the pool size');
  const perSecond = loadServiceSettings({ ...cluster, KVSTORE_PERSECOND: 'true', KVSTORE_PERSECOND_URL: '127.0.0.1:7100', REDIS_PERSECOND_CLUSTER_PIPELINE_PARALLELISM: '2' });
  t.equal(perSecond.kvstore.perSecond?.clusterPipelineParallelism, 2, 'the per-second store has its own');
  t.throws(() => loadServiceSettings({ ...cluster, KVSTORE_CLUSTER_PIPELINE_PARALLELISM: '-1' }), { message: /KVSTORE_CLUSTER_PIPELINE_PARALLELISM: "-1"/ });
});

t.test('KVSTORE_POOL_ON_EMPTY_BEHAVIOR: WAIT (default) or ERROR; CREATE is refused with the reason', async (t) => {
  const single = { BACKEND_TYPE: 'kvstore', KVSTORE_URL: '127.0.0.1:6379' };
  t.equal(loadServiceSettings(single).kvstore.main.poolOnEmptyBehavior, 'WAIT');
  t.equal(loadServiceSettings({ ...single, REDIS_POOL_ON_EMPTY_BEHAVIOR: 'error' }).kvstore.main.poolOnEmptyBehavior, 'ERROR');
  t.throws(() => loadServiceSettings({ ...single, REDIS_POOL_ON_EMPTY_BEHAVIOR: 'CREATE' }), {
    name: 'SettingsError',
    message: /^REDIS_POOL_ON_EMPTY_BEHAVIOR=CREATE is not supported: connections are shared/,
  });
  t.throws(() => loadServiceSettings({ ...single, KVSTORE_POOL_ON_EMPTY_BEHAVIOR: 'sometimes' }), { message: /one of WAIT, CREATE, ERROR/ });
});

t.test('KVSTORE_STARTUP_*: the first connection retried at its own pace, and a deadline', async (t) => {
  const single = { BACKEND_TYPE: 'kvstore', KVSTORE_URL: '127.0.0.1:6379' };
  const defaults = loadServiceSettings(single).kvstore;
  t.match(defaults.main, { startupInitialIntervalMs: 50, startupMaxIntervalMs: 1000 });
  t.equal(defaults.startupMaxElapsedMs, 0, 'forever, as upstream');
  const set = loadServiceSettings({ ...single, REDIS_STARTUP_INITIAL_INTERVAL: '1s', REDIS_STARTUP_MAX_INTERVAL: '30s', REDIS_STARTUP_MAX_ELAPSED_TIME: '2m' }).kvstore;
  t.match(set.main, { startupInitialIntervalMs: 1000, startupMaxIntervalMs: 30_000 });
  t.equal(set.startupMaxElapsedMs, 120_000);
  t.throws(() => loadServiceSettings({ ...single, KVSTORE_STARTUP_INITIAL_INTERVAL: '2s', KVSTORE_STARTUP_MAX_INTERVAL: '1s' }), {
    message: /KVSTORE_STARTUP_MAX_INTERVAL \(1000 ms\) is shorter than KVSTORE_STARTUP_INITIAL_INTERVAL \(2000 ms\)/,
  });
  t.throws(() => loadServiceSettings({ ...single, KVSTORE_STARTUP_INITIAL_INTERVAL: '0s' }), { message: /KVSTORE_STARTUP_INITIAL_INTERVAL: 0/ });
});
