import t from 'tap';
import { loadServiceSettings } from '../../../src/app/service-settings.js';
import { loadSettings, parseDurationMs, SettingsError } from '../../../src/settings/index.js';

t.test('defaults match upstream settings.go, except the in-memory backend and the loopback debug port', async (t) => {
  const s = loadServiceSettings({});
  t.match(s, {
    host: '0.0.0.0',
    port: 8080,
    debugHost: '127.0.0.1',
    debugPort: 6070,
    debugToken: '',
    webConfigFile: '',
    webConfigReloadIntervalMs: 1000,
    logLevel: 'warn',
    logFormat: 'text',
    configType: 'FILE',
    forceStartWithoutInitialConfig: false,
    runtimeRoot: '/srv/runtime_data/current',
    runtimeSubdirectory: '',
    runtimeAppDirectory: 'config',
    runtimeIgnoreDotFiles: false,
    runtimeWatchRoot: true,
    mergeDomainConfig: false,
    healthyWithAtLeastOneConfigLoaded: false,
    nearLimitRatio: 0.8,
    shadowMode: false,
    cacheKeyPrefix: '',
    limitResponseHeadersEnabled: false,
    limitLimitHeader: 'RateLimit-Limit',
    limitRemainingHeader: 'RateLimit-Remaining',
    limitResetHeader: 'RateLimit-Reset',
    backendType: 'memory',
  });
});

t.test('values are parsed and typed', async (t) => {
  const s = loadServiceSettings({
    PORT: '9000',
    LOG_LEVEL: 'DEBUG',
    LOG_FORMAT: 'json',
    RUNTIME_WATCH_ROOT: 'false',
    NEAR_LIMIT_RATIO: '0.5',
    SHADOW_MODE: 'True',
    RUNTIME_WATCH_POLL_INTERVAL: '1m30s',
    BACKEND_TYPE: 'redis',
  });
  t.equal(s.port, 9000);
  t.equal(s.logLevel, 'debug');
  t.equal(s.logFormat, 'json');
  t.equal(s.runtimeWatchRoot, false);
  t.equal(s.nearLimitRatio, 0.5);
  t.equal(s.shadowMode, true);
  t.equal(s.runtimeWatchPollMs, 90_000);
  t.equal(s.backendType, 'kvstore', 'upstream backend names are accepted');
  t.equal(loadServiceSettings({ KVSTORE_URL: 'localhost:6379' }).backendType, 'kvstore', 'a store URL selects the key-value store');
  t.equal(loadServiceSettings({ REDIS_URL: 'localhost:6379' }).backendType, 'kvstore', 'the upstream name too');
  t.equal(loadSettings({ LOG_LEVEL: 'warning' }).logLevel, 'warn', 'logrus spelling');
});

const bad: Array<[string, string, string]> = [
  ['PORT', 'abc', 'invalid value for PORT: "abc" (expected an integer from 0 to 65535)'],
  ['PORT', '70000', 'invalid value for PORT: "70000" (expected an integer from 0 to 65535)'],
  ['DEBUG_PORT', '1.5', 'invalid value for DEBUG_PORT: "1.5" (expected an integer from 0 to 65535)'],
  ['CONFIG_TYPE', 'bogus', 'invalid value for CONFIG_TYPE: "bogus" (expected one of FILE, GRPC_XDS_SOTW)'],
  ['NEAR_LIMIT_RATIO', '2', 'invalid value for NEAR_LIMIT_RATIO: "2" (expected a number from 0 to 1)'],
  ['NEAR_LIMIT_RATIO', 'x', 'invalid value for NEAR_LIMIT_RATIO: "x" (expected a number from 0 to 1)'],
  ['SHADOW_MODE', 'yes', 'invalid value for SHADOW_MODE: "yes" (expected true or false)'],
  ['RUNTIME_WATCH_POLL_INTERVAL', '10', 'invalid value for RUNTIME_WATCH_POLL_INTERVAL: "10" (expected a duration such as 10s, 1m30s or 250ms)'],
  ['LOG_LEVEL', 'loud', 'invalid value for LOG_LEVEL: "loud" (expected one of debug, info, warn, error)'],
  ['LOG_FORMAT', 'xml', 'invalid value for LOG_FORMAT: "xml" (expected one of text, json)'],
  ['BACKEND_TYPE', 'mongo', 'invalid value for BACKEND_TYPE: "mongo" (expected one of memory, kvstore, objcache)'],
];
for (const [name, value, message] of bad) {
  t.test(`${name}=${value} is refused with one clear line`, async (t) => {
    t.throws(() => loadServiceSettings({ [name]: value }), new SettingsError(message));
  });
}

t.test('score API settings: quotas, the enrolment limit, token lifetime, and an admin token of 32 characters or more', async (t) => {
  t.match(loadSettings({}), {
    scoresAccountMaxBytes: 1024 * 1024 * 1024,
    scoresAccountMaxUploads: 1000,
    scoresMaxRevisionsPerScore: 1000,
    scoresMaxCommentsPerScore: 1000,
    scoresAccountMaxCollections: 1000,
    scoresEnrollFailuresPerMinute: 10,
    scoresTokenTtlMs: 90 * 24 * 3_600_000,
    scoresAdminToken: '',
  });
  t.equal(loadSettings({ SCORES_ADMIN_TOKEN: 'x'.repeat(32) }).scoresAdminToken, 'x'.repeat(32));
  t.throws(
    () => loadSettings({ SCORES_ADMIN_TOKEN: 'x'.repeat(31) }),
    new SettingsError('SCORES_ADMIN_TOKEN must be at least 32 characters (it has 31); use a long random value such as `openssl rand -hex 32`'),
  );
  t.throws(() => loadSettings({ SCORES_TOKEN_TTL: '0s' }), new SettingsError('invalid value for SCORES_TOKEN_TTL: "0s" (expected a duration of at least 1s, such as 2160h)'));
  t.throws(() => loadSettings({ SCORES_ACCOUNT_MAX_BYTES: '100' }), new SettingsError('invalid value for SCORES_ACCOUNT_MAX_BYTES: "100" (expected an integer from 1024 to 1125899906842624)'));
  t.throws(() => loadSettings({ SCORES_MAX_COMMENTS_PER_SCORE: '0' }), new SettingsError('invalid value for SCORES_MAX_COMMENTS_PER_SCORE: "0" (expected an integer from 1 to 1000000)'));
  t.throws(() => loadSettings({ SCORES_ENROLL_FAILURES_PER_MINUTE: '0' }), SettingsError);
  t.throws(() => loadSettings({ SCORES_ACCOUNT_MAX_COLLECTIONS: '0' }), new SettingsError('invalid value for SCORES_ACCOUNT_MAX_COLLECTIONS: "0" (expected an integer from 1 to 100000000)'));
});

t.test('Go durations', async (t) => {
  t.equal(parseDurationMs('10s'), 10_000);
  t.equal(parseDurationMs('1h2m3s'), 3_723_000);
  t.equal(parseDurationMs('250ms'), 250);
  t.equal(parseDurationMs('1.5h'), 5_400_000);
  t.equal(parseDurationMs('300us'), 0.3);
  t.equal(parseDurationMs('0'), 0);
  t.equal(parseDurationMs('-1s'), -1000);
  t.equal(parseDurationMs(''), undefined);
  t.equal(parseDurationMs('10'), undefined);
  t.equal(parseDurationMs('1d'), undefined);
  t.equal(parseDurationMs('s'), undefined);
});

t.test('gRPC settings: defaults, and TLS settings that only work together', async (t) => {
  t.match(loadSettings({}), {
    grpcHost: '0.0.0.0',
    grpcPort: 8081,
    grpcUds: '',
    grpcMaxConnectionAgeMs: 86_400_000,
    grpcMaxConnectionAgeGraceMs: 3_600_000,
    grpcServerUseTls: false,
    grpcTlsReloadIntervalMs: 1000,
  });
  t.throws(() => loadSettings({ GRPC_SERVER_USE_TLS: 'true' }), new SettingsError('GRPC_SERVER_USE_TLS is true but GRPC_SERVER_TLS_CERT is not set'));
  t.throws(
    () => loadSettings({ GRPC_SERVER_USE_TLS: 'true', GRPC_SERVER_TLS_CERT: 'c.pem' }),
    new SettingsError('GRPC_SERVER_USE_TLS is true but GRPC_SERVER_TLS_KEY is not set'),
  );
  t.throws(
    () => loadSettings({ GRPC_CLIENT_TLS_CACERT: 'ca.pem' }),
    new SettingsError('GRPC_CLIENT_TLS_CACERT and GRPC_CLIENT_TLS_SAN need GRPC_SERVER_USE_TLS=true (mutual TLS)'),
  );
  t.throws(
    () => loadSettings({ GRPC_SERVER_USE_TLS: 'true', GRPC_SERVER_TLS_CERT: 'c', GRPC_SERVER_TLS_KEY: 'k', GRPC_CLIENT_TLS_SAN: 'envoy' }),
    new SettingsError('GRPC_CLIENT_TLS_SAN needs GRPC_CLIENT_TLS_CACERT (client certificates are only checked under mutual TLS)'),
  );
  t.throws(() => loadSettings({ GRPC_MAX_CONNECTION_AGE: 'forever' }), SettingsError);
});

t.test('web configuration settings: the file and how often it is checked', async (t) => {
  const s = loadSettings({ WEB_CONFIG_FILE: '/etc/ratelimit/web.yml', WEB_CONFIG_RELOAD_INTERVAL: '250ms', DEBUG_TOKEN: 'secret' });
  t.equal(s.webConfigFile, '/etc/ratelimit/web.yml');
  t.equal(s.webConfigReloadIntervalMs, 250);
  t.equal(s.debugToken, 'secret');
  t.throws(
    () => loadSettings({ WEB_CONFIG_RELOAD_INTERVAL: '0' }),
    new SettingsError('WEB_CONFIG_RELOAD_INTERVAL must be at least 10ms (the files are polled that often)'),
  );
  t.throws(() => loadSettings({ WEB_CONFIG_RELOAD_INTERVAL: 'often' }), SettingsError);
});

t.test('APIS: both by default, either, or none; anything else stops startup', async (t) => {
  t.same(loadSettings({}).apis, ['alerts', 'scores']);
  t.same(loadSettings({ APIS: 'scores' }).apis, ['scores']);
  t.same(loadSettings({ APIS: ' scores , alerts ' }).apis, ['alerts', 'scores']);
  t.same(loadSettings({ APIS: 'none' }).apis, []);
  t.throws(() => loadSettings({ APIS: 'alerts,grafana' }), { message: 'invalid value for APIS: "alerts,grafana" (expected a comma-separated list of alerts, scores, or none)' });
});

t.test('API_PORT: unset serves the APIs on PORT; a port of their own otherwise, never PORT itself', async (t) => {
  t.equal(loadSettings({}).apiPort, undefined);
  t.equal(loadSettings({ API_PORT: '' }).apiPort, undefined, 'empty is unset');
  t.equal(loadSettings({ API_PORT: '9093' }).apiPort, 9093);
  t.equal(loadSettings({ API_PORT: '0' }).apiPort, 0, '0 picks a free port');
  t.equal(loadSettings({ API_PORT: '0', PORT: '0' }).apiPort, 0, 'both free ports: each gets its own');
  t.throws(() => loadSettings({ API_PORT: '70000' }), new SettingsError('invalid value for API_PORT: "70000" (expected an integer from 0 to 65535)'));
  t.throws(
    () => loadSettings({ API_PORT: '8080' }),
    new SettingsError('API_PORT (8080) is PORT: leave API_PORT unset to serve the APIs on PORT, or give them a port of their own'),
  );
  t.throws(() => loadSettings({ API_PORT: '9093', APIS: 'none' }), new SettingsError('API_PORT is set but APIS=none serves no API there'));
});
