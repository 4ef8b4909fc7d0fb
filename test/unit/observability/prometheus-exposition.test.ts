import t from 'tap';
import { StatsStore } from '../../../src/observability/index.js';
import { PrometheusExposition } from '../../../src/observability/prometheus/exposition.js';
import { DEFAULT_MAPPING_YAML, MappingError, StatsdMapping } from '../../../src/observability/prometheus/index.js';

function exposition(options: { yaml?: string; ms?: boolean; extraTags?: Array<[string, string]> } = {}): PrometheusExposition {
  return new PrometheusExposition({ mapping: new StatsdMapping(options.yaml ?? DEFAULT_MAPPING_YAML), timersInMilliseconds: options.ms ?? false, extraTags: options.extraTags ?? [] });
}

/** The lines of our families only (prom-client's process metrics follow them). */
async function lines(page: PrometheusExposition, store: StatsStore): Promise<string[]> {
  return (await page.render(store)).split('\n').filter((l) => l.startsWith('ratelimit') || l.startsWith('# TYPE ratelimit') || l.startsWith('custom'));
}

t.test("upstream's default mapping: rule statistics by domain and the first two key levels", async (t) => {
  const store = new StatsStore();
  store.counter('ratelimit_server.ShouldRateLimit.total_requests').value = 1;
  store.counter('ratelimit.service.rate_limit.domain1.key1_val1.over_limit').value = 1;
  store.counter('ratelimit.service.rate_limit.domain1.key1_val1.key2_val2.over_limit').value = 2;
  store.counter('ratelimit.service.rate_limit.domain1.key3_val3.key4_val4.over_limit').value = 1;
  store.counter('ratelimit.service.rate_limit.domain1.key3_val3.key4_val4.key5_val5.over_limit').value = 2;
  store.counter('ratelimit.service.call.should_rate_limit.redis_error').value = 4;
  store.counter('ratelimit.service.config_load_success').value = 1;
  store.gauge('ratelimit.service.rate_limit.domain1.key1.test_gauge').value = 1;
  const out = await lines(exposition(), store);
  t.same(
    out.filter((l) => l.startsWith('ratelimit_service_rate_limit_over_limit')),
    [
      'ratelimit_service_rate_limit_over_limit{domain="domain1",key1="key1_val1"} 1',
      'ratelimit_service_rate_limit_over_limit{domain="domain1",key1="key1_val1",key2="key2_val2"} 2',
      'ratelimit_service_rate_limit_over_limit{domain="domain1",key1="key3_val3",key2="key4_val4"} 3',
    ],
    'a deeper key adds up under its first two levels',
  );
  t.ok(out.includes('ratelimit_service_total_requests{grpc_method="ShouldRateLimit"} 1'));
  t.ok(out.includes('ratelimit_service_should_rate_limit_error{err_type="redis_error"} 4'));
  t.ok(out.includes('ratelimit_service_config_load_success 1'));
  t.ok(out.includes('# TYPE ratelimit_service_rate_limit_over_limit counter'));
  t.ok(out.includes('ratelimit_service_rate_limit_domain1_key1_test_gauge 1'), 'an unmapped gauge keeps its escaped name');
  t.notOk(out.some((l) => l.startsWith('ratelimit_service_rate_limit_test_gauge')));
});

t.test('response_time is a histogram in seconds; in milliseconds with the legacy setting', async (t) => {
  const store = new StatsStore();
  const timer = store.timer('ratelimit_server.ShouldRateLimit.response_time');
  timer.record(1000);
  const seconds = await lines(exposition(), store);
  t.ok(seconds.includes('# TYPE ratelimit_service_response_time_seconds histogram'));
  t.ok(seconds.includes('ratelimit_service_response_time_seconds_sum{grpc_method="ShouldRateLimit"} 1'));
  t.ok(seconds.includes('ratelimit_service_response_time_seconds_count{grpc_method="ShouldRateLimit"} 1'));
  t.ok(seconds.includes('ratelimit_service_response_time_seconds_bucket{grpc_method="ShouldRateLimit",le="0.5"} 0'));
  t.ok(seconds.includes('ratelimit_service_response_time_seconds_bucket{grpc_method="ShouldRateLimit",le="1"} 1'));
  t.ok(seconds.includes('ratelimit_service_response_time_seconds_bucket{grpc_method="ShouldRateLimit",le="+Inf"} 1'));
  const legacy = await lines(exposition({ ms: true }), store);
  t.ok(legacy.includes('ratelimit_service_response_time_seconds_sum{grpc_method="ShouldRateLimit"} 1000'));
  t.ok(legacy.includes('ratelimit_service_response_time_seconds_bucket{grpc_method="ShouldRateLimit",le="10"} 0'));
  timer.record(0);
  timer.record(0);
  const zeros = await lines(exposition(), store);
  t.ok(zeros.includes('ratelimit_service_response_time_seconds_bucket{grpc_method="ShouldRateLimit",le="0.005"} 2'), 'whole-millisecond zeros land in the first bucket');
});

t.test('EXTRA_TAGS and tags in the name become labels; the mapping`s labels win', async (t) => {
  const store = new StatsStore();
  store.counter('ratelimit.memcache.multiget.__code=success').value = 3;
  store.counter('ratelimit_server.ShouldRateLimit.total_requests').value = 1;
  const out = await lines(exposition({ extraTags: [['env', 'prod'], ['grpc_method', 'x']] }), store);
  t.ok(out.includes('ratelimit_memcache_multiget{env="prod",grpc_method="x",code="success"} 3'));
  t.ok(out.includes('ratelimit_service_total_requests{env="prod",grpc_method="ShouldRateLimit"} 1'));
});

t.test('a custom mapping: globs before regexes, match_metric_type, drop, buckets, help', async (t) => {
  const yaml = `
defaults:
  buckets: [0.001, 1]
mappings:
  - match: "custom\\\\.(.*)"
    match_type: regex
    name: "custom_regex"
    labels: {rest: "$1"}
  - match: "custom.*"
    name: "custom_glob_\${1}"
    help: "From a glob."
  - match: "ratelimit.node.*"
    action: drop
  - match: "timed.*"
    name: "custom_timed"
    match_metric_type: observer
    histogram_options: {buckets: [0.25]}
`;
  const store = new StatsStore();
  store.counter('custom.a').value = 1;
  store.counter('custom.a.b').value = 2;
  store.gauge('ratelimit.node.rss_bytes').value = 5;
  store.timer('timed.x').record(100);
  store.counter('timed.y').value = 1;
  const out = (await exposition({ yaml }).render(store)).split('\n');
  t.ok(out.includes('custom_glob_a 1'), 'the glob is tried first');
  t.ok(out.includes('# HELP custom_glob_a From a glob.'));
  t.ok(out.includes('custom_regex{rest="a.b"} 2'));
  t.notOk(out.some((l) => l.startsWith('ratelimit_node')), 'dropped');
  t.ok(out.includes('custom_timed_bucket{le="0.25"} 1'));
  t.ok(out.includes('timed_y 1'), 'match_metric_type keeps a counter out of the observer mapping');
  t.throws(() => new StatsdMapping('mappings: [{match: "a.*"}]'), MappingError, 'a name is required');
  t.throws(() => new StatsdMapping('mappings: [{match: "(", match_type: regex, name: x}]'), /mappings\[0\]\.match/);
  t.throws(() => new StatsdMapping('mappings: {}'), /expected a list/);
  t.throws(() => new StatsdMapping('mappings: [{match: "a", name: x, labels: {"bad-name": y}}]'), /not a label name/);
});
