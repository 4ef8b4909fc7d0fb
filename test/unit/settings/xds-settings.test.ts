/** The xDS client's settings: upstream's defaults, parsed lists, and a clear refusal naming the variable. */
import t from 'tap';
import { loadSettings } from '../../../src/settings/index.js';

const XDS = { CONFIG_TYPE: 'GRPC_XDS_SOTW' };

t.test("defaults are upstream's", async (t) => {
  t.match(loadSettings(XDS), {
    xdsNodeId: 'default',
    xdsNodeMetadata: [],
    xdsServerUrl: 'localhost:18000',
    xdsServerConnectRetryIntervalMs: 3000,
    xdsClientAdditionalHeaders: [],
    xdsServerUseTls: false,
    xdsClientTlsCert: '',
    xdsClientTlsKey: '',
    xdsServerTlsCacert: '',
    xdsServerTlsSan: '',
    xdsBackoffInitialMs: 10_000,
    xdsBackoffMaxMs: 60_000,
    xdsBackoffFactor: 0.5,
    xdsBackoffJitter: true,
    xdsMaxMessageBytes: 0,
  });
});

t.test('values as set', async (t) => {
  const settings = loadSettings({
    ...XDS,
    CONFIG_GRPC_XDS_NODE_ID: 'ratelimit-7',
    CONFIG_GRPC_XDS_NODE_METADATA: 'zone=eu-west-1a, role = edge,url=http://x/?a=b',
    CONFIG_GRPC_XDS_SERVER_URL: 'xds.internal:18001',
    CONFIG_GRPC_XDS_SERVER_CONNECT_RETRY_INTERVAL: '250ms',
    CONFIG_GRPC_XDS_CLIENT_ADDITIONAL_HEADERS: 'X-Tenant:blue,authorization:Bearer a:b',
    CONFIG_GRPC_XDS_SERVER_USE_TLS: 'true',
    CONFIG_GRPC_XDS_CLIENT_TLS_CERT: '/tls/client.pem',
    CONFIG_GRPC_XDS_CLIENT_TLS_KEY: '/tls/client.key',
    CONFIG_GRPC_XDS_SERVER_TLS_CACERT: '/tls/ca.pem',
    CONFIG_GRPC_XDS_SERVER_TLS_SAN: 'xds.example.com',
    XDS_CLIENT_BACKOFF_INITIAL_INTERVAL: '100ms',
    XDS_CLIENT_BACKOFF_MAX_INTERVAL: '2s',
    XDS_CLIENT_BACKOFF_RANDOM_FACTOR: '2',
    XDS_CLIENT_BACKOFF_JITTER: 'false',
    XDS_CLIENT_MAX_MSG_SIZE_IN_BYTES: '65536',
  });
  t.match(settings, {
    xdsNodeId: 'ratelimit-7',
    xdsServerUrl: 'xds.internal:18001',
    xdsServerConnectRetryIntervalMs: 250,
    xdsServerUseTls: true,
    xdsClientTlsCert: '/tls/client.pem',
    xdsClientTlsKey: '/tls/client.key',
    xdsServerTlsCacert: '/tls/ca.pem',
    xdsServerTlsSan: 'xds.example.com',
    xdsBackoffInitialMs: 100,
    xdsBackoffMaxMs: 2000,
    xdsBackoffFactor: 2,
    xdsBackoffJitter: false,
    xdsMaxMessageBytes: 65536,
  });
  // Split on commas, then on the first separator only, so a value may hold the separator.
  t.same(settings.xdsNodeMetadata, [['zone', 'eu-west-1a'], ['role', 'edge'], ['url', 'http://x/?a=b']]);
  t.same(settings.xdsClientAdditionalHeaders, [['x-tenant', 'blue'], ['authorization', 'Bearer a:b']]);
});

t.test('a bad value names the variable and what it takes', async (t) => {
  t.throws(() => loadSettings({ CONFIG_GRPC_XDS_SERVER_CONNECT_RETRY_INTERVAL: '3' }), {
    message: 'invalid value for CONFIG_GRPC_XDS_SERVER_CONNECT_RETRY_INTERVAL: "3" (expected a duration such as 10s, 1m30s or 250ms)',
  });
  t.throws(() => loadSettings({ XDS_CLIENT_BACKOFF_INITIAL_INTERVAL: 'soon' }), { message: /^invalid value for XDS_CLIENT_BACKOFF_INITIAL_INTERVAL: "soon"/ });
  t.throws(() => loadSettings({ XDS_CLIENT_BACKOFF_MAX_INTERVAL: '-1s' }), { message: /^invalid value for XDS_CLIENT_BACKOFF_MAX_INTERVAL: "-1s"/ });
  t.throws(() => loadSettings({ XDS_CLIENT_BACKOFF_RANDOM_FACTOR: '0' }), {
    message: 'invalid value for XDS_CLIENT_BACKOFF_RANDOM_FACTOR: "0" (expected a number above 0, up to 100)',
  });
  t.throws(() => loadSettings({ XDS_CLIENT_BACKOFF_RANDOM_FACTOR: 'half' }), { message: /^invalid value for XDS_CLIENT_BACKOFF_RANDOM_FACTOR: "half"/ });
  t.throws(() => loadSettings({ XDS_CLIENT_BACKOFF_JITTER: 'yes' }), { message: 'invalid value for XDS_CLIENT_BACKOFF_JITTER: "yes" (expected true or false)' });
  t.throws(() => loadSettings({ CONFIG_GRPC_XDS_SERVER_USE_TLS: 'on' }), { message: /^invalid value for CONFIG_GRPC_XDS_SERVER_USE_TLS: "on"/ });
  t.throws(() => loadSettings({ XDS_CLIENT_MAX_MSG_SIZE_IN_BYTES: '4MiB' }), {
    message: 'invalid value for XDS_CLIENT_MAX_MSG_SIZE_IN_BYTES: "4MiB" (expected an integer from 0 to 2147483647)',
  });
  t.throws(() => loadSettings({ CONFIG_GRPC_XDS_NODE_METADATA: 'zone=a,edge' }), {
    message: 'invalid value for CONFIG_GRPC_XDS_NODE_METADATA: "zone=a,edge" (expected key=value pairs separated by commas; "edge" has no key)',
  });
  t.throws(() => loadSettings({ CONFIG_GRPC_XDS_CLIENT_ADDITIONAL_HEADERS: ':v' }), {
    message: 'invalid value for CONFIG_GRPC_XDS_CLIENT_ADDITIONAL_HEADERS: ":v" (expected key:value pairs separated by commas; ":v" has no key)',
  });
  t.throws(() => loadSettings({ CONFIG_GRPC_XDS_CLIENT_ADDITIONAL_HEADERS: 'x tenant:blue' }), {
    message: /^invalid value for CONFIG_GRPC_XDS_CLIENT_ADDITIONAL_HEADERS: header "x tenant" is not a text metadata name/,
  });
  t.throws(() => loadSettings({ CONFIG_GRPC_XDS_CLIENT_ADDITIONAL_HEADERS: 'trace-bin:AAE=' }), { message: /header "trace-bin" is not a text metadata name/ });
  t.throws(() => loadSettings({ CONFIG_GRPC_XDS_CLIENT_ADDITIONAL_HEADERS: 'grpc-timeout:1S' }), { message: /header "grpc-timeout" is not a text metadata name/ });
});

t.test('combinations are checked only when the rules come from xDS', async (t) => {
  const tlsFilesWithoutTls = { CONFIG_GRPC_XDS_SERVER_TLS_CACERT: '/tls/ca.pem' };
  t.doesNotThrow(() => loadSettings(tlsFilesWithoutTls), 'file mode ignores the xDS combination');
  t.throws(() => loadSettings({ ...XDS, ...tlsFilesWithoutTls }), { message: /need CONFIG_GRPC_XDS_SERVER_USE_TLS=true$/ });
  t.throws(() => loadSettings({ ...XDS, CONFIG_GRPC_XDS_SERVER_USE_TLS: 'true', CONFIG_GRPC_XDS_CLIENT_TLS_CERT: '/c.pem' }), {
    message: 'CONFIG_GRPC_XDS_CLIENT_TLS_CERT is set but CONFIG_GRPC_XDS_CLIENT_TLS_KEY is not',
  });
  t.throws(() => loadSettings({ ...XDS, CONFIG_GRPC_XDS_SERVER_USE_TLS: 'true', CONFIG_GRPC_XDS_CLIENT_TLS_KEY: '/c.key' }), {
    message: 'CONFIG_GRPC_XDS_CLIENT_TLS_KEY is set but CONFIG_GRPC_XDS_CLIENT_TLS_CERT is not',
  });
  t.throws(() => loadSettings({ ...XDS, CONFIG_GRPC_XDS_SERVER_URL: '  ' }), { message: /^CONFIG_GRPC_XDS_SERVER_URL is empty/ });
  t.throws(() => loadSettings({ ...XDS, XDS_CLIENT_BACKOFF_INITIAL_INTERVAL: '0' }), { message: /^XDS_CLIENT_BACKOFF_INITIAL_INTERVAL must be above 0/ });
  t.throws(() => loadSettings({ ...XDS, CONFIG_GRPC_XDS_SERVER_CONNECT_RETRY_INTERVAL: '0s' }), { message: /^CONFIG_GRPC_XDS_SERVER_CONNECT_RETRY_INTERVAL must be above 0/ });
  t.throws(() => loadSettings({ ...XDS, XDS_CLIENT_BACKOFF_INITIAL_INTERVAL: '2m' }), {
    message: 'XDS_CLIENT_BACKOFF_MAX_INTERVAL (60000ms) is shorter than XDS_CLIENT_BACKOFF_INITIAL_INTERVAL (120000ms)',
  });
});
