import t from 'tap';
import { loadSettings } from '../../../src/settings/index.js';

const CONFLICT = /^Error: unable to use more than one stats sink at the same time\. Set one of USE_DOG_STATSD, USE_STATSD, USE_PROMETHEUS\./;

t.test('defaults: the metrics daemon over TCP on localhost:8125, flushed every 10 s; tracing off', async (t) => {
  const s = loadSettings({});
  t.match(s, {
    statsSink: 'metricsd',
    statsFlushIntervalMs: 10_000,
    extraTags: [],
    metricsdHost: 'localhost',
    metricsdPort: 8125,
    metricsdProtocol: 'tcp',
    mogrifiers: [],
    prometheusAddr: ':9090',
    prometheusPath: '/metrics',
    prometheusMapperYaml: '',
    prometheusResponseTimeAsMilliseconds: false,
    tracingEnabled: false,
    tracingExporterProtocol: 'http',
    tracingServiceName: 'RateLimit',
    tracingServiceNamespace: '',
    tracingSamplingRate: 1,
  });
  t.match(s.tracingServiceInstanceId, /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/, 'a random v4 UUID');
  t.not(loadSettings({}).tracingServiceInstanceId, s.tracingServiceInstanceId, 'a new one per process');
});

t.test("sink precedence is upstream's: DISABLE_STATS, tagged, plain, Prometheus, standard output", async (t) => {
  const sink = (env: Record<string, string>) => loadSettings(env).statsSink;
  t.equal(sink({ DISABLE_STATS: 'true', USE_TAGGED_METRICSD: 'true', USE_PROMETHEUS: 'true' }), 'disabled', 'DISABLE_STATS wins over everything');
  t.equal(sink({ USE_TAGGED_METRICSD: 'true', USE_METRICSD: 'false' }), 'tagged-metricsd');
  t.equal(sink({ USE_DOG_STATSD: 'true', USE_STATSD: 'false' }), 'tagged-metricsd', "upstream's names");
  t.equal(sink({}), 'metricsd');
  t.equal(sink({ USE_PROMETHEUS: 'true', USE_METRICSD: 'false' }), 'prometheus');
  t.equal(sink({ USE_METRICSD: 'false' }), 'stdout');
  t.equal(sink({ USE_STATSD: 'false' }), 'stdout');
  for (const env of [{ USE_TAGGED_METRICSD: 'true' }, { USE_PROMETHEUS: 'true' }, { USE_TAGGED_METRICSD: 'true', USE_METRICSD: 'false', USE_PROMETHEUS: 'true' }]) {
    t.throws(() => loadSettings(env), CONFLICT, JSON.stringify(env));
  }
});

t.test('the tagged daemon defaults to UDP; host, port and protocol under either name', async (t) => {
  t.equal(loadSettings({ USE_TAGGED_METRICSD: 'true', USE_METRICSD: 'false' }).metricsdProtocol, 'udp');
  t.match(loadSettings({ STATSD_HOST: 'statsd', STATSD_PORT: '9125', METRICSD_PROTOCOL: 'UDP' }), { metricsdHost: 'statsd', metricsdPort: 9125, metricsdProtocol: 'udp' });
  t.match(loadSettings({ METRICSD_HOST: 'a', STATSD_HOST: 'b' }), { metricsdHost: 'a' }, 'our name first');
  t.throws(() => loadSettings({ METRICSD_PROTOCOL: 'uds' }), /METRICSD_PROTOCOL/);
});

t.test('EXTRA_TAGS, STATS_FLUSH_INTERVAL and the Prometheus listener are checked', async (t) => {
  t.same(loadSettings({ EXTRA_TAGS: 'env:prod,team:rl' }).extraTags, [['env', 'prod'], ['team', 'rl']]);
  t.throws(() => loadSettings({ EXTRA_TAGS: 'env' }), /^invalid value for EXTRA_TAGS: invalid tag "env"/);
  t.equal(loadSettings({ STATS_FLUSH_INTERVAL: '250ms' }).statsFlushIntervalMs, 250);
  t.throws(() => loadSettings({ STATS_FLUSH_INTERVAL: '0s' }), /STATS_FLUSH_INTERVAL/);
  t.equal(loadSettings({ PROMETHEUS_ADDR: '127.0.0.1:9999' }).prometheusAddr, '127.0.0.1:9999');
  t.throws(() => loadSettings({ PROMETHEUS_ADDR: '9090' }), /PROMETHEUS_ADDR/);
  t.throws(() => loadSettings({ PROMETHEUS_PATH: 'metrics' }), /PROMETHEUS_PATH/);
});

t.test("mogrifiers: each listed name needs a pattern and a name, as upstream's", async (t) => {
  const base = { USE_TAGGED_METRICSD: 'true', USE_METRICSD: 'false', TAGGED_METRICSD_MOGRIFIERS: 'TAG' };
  const ok = loadSettings({
    ...base,
    TAGGED_METRICSD_MOGRIFIER_TAG_PATTERN: '^a\\.(.*)$',
    TAGGED_METRICSD_MOGRIFIER_TAG_NAME: 'a',
    TAGGED_METRICSD_MOGRIFIER_TAG_TAGS: 'rest:$1',
  });
  t.same(ok.mogrifiers, [{ name: 'TAG', pattern: '^a\\.(.*)$', nameTemplate: 'a', tags: [['rest', '$1']] }]);
  const dog = loadSettings({ USE_DOG_STATSD: 'true', USE_STATSD: 'false', USE_DOG_STATSD_MOGRIFIERS: 'X', DOG_STATSD_MOGRIFIER_X_PATTERN: 'x', DOG_STATSD_MOGRIFIER_X_NAME: 'y' });
  t.same(dog.mogrifiers, [{ name: 'X', pattern: 'x', nameTemplate: 'y', tags: [] }], "upstream's DOG_STATSD_MOGRIFIER_ names");
  t.throws(() => loadSettings(base), /^no PATTERN specified for mogrifier TAG \(TAGGED_METRICSD_MOGRIFIER_TAG_PATTERN\)$/);
  t.throws(() => loadSettings({ ...base, TAGGED_METRICSD_MOGRIFIER_TAG_PATTERN: 'x' }), /^no NAME specified for mogrifier TAG/);
  t.throws(() => loadSettings({ ...base, TAGGED_METRICSD_MOGRIFIER_TAG_PATTERN: '(', TAGGED_METRICSD_MOGRIFIER_TAG_NAME: 'n' }), /^failed to compile pattern for TAG: \(:/);
  t.throws(() => loadSettings({ ...base, TAGGED_METRICSD_MOGRIFIER_TAG_PATTERN: 'x', TAGGED_METRICSD_MOGRIFIER_TAG_NAME: 'n', TAGGED_METRICSD_MOGRIFIER_TAG_TAGS: 'domain:' }), /TAGGED_METRICSD_MOGRIFIER_TAG_TAGS: tag "domain" has no value/);
});

t.test('tracing settings', async (t) => {
  t.match(loadSettings({ TRACING_ENABLED: 'true', TRACING_EXPORTER_PROTOCOL: 'grpc', TRACING_SERVICE_NAME: 'rl', TRACING_SERVICE_NAMESPACE: 'edge', TRACING_SERVICE_INSTANCE_ID: 'pod-1', TRACING_SAMPLING_RATE: '0.01' }), {
    tracingEnabled: true,
    tracingExporterProtocol: 'grpc',
    tracingServiceName: 'rl',
    tracingServiceNamespace: 'edge',
    tracingServiceInstanceId: 'pod-1',
    tracingSamplingRate: 0.01,
  });
  t.throws(() => loadSettings({ TRACING_SAMPLING_RATE: '1.5' }), /TRACING_SAMPLING_RATE/);
  t.throws(() => loadSettings({ TRACING_EXPORTER_PROTOCOL: 'zipkin' }), /TRACING_EXPORTER_PROTOCOL/);
});
