import t from 'tap';
import { dumpConfig, loadConfig } from '../../../src/config/index.js';
import { loadXdsConfig } from '../../../src/config/xds/xds-resources.js';
import { RATE_LIMIT_CONFIG_TYPE_URL, xdsTypes } from '../../../src/config/xds/xds-protos.js';

const NO_MERGE = { mergeDomainConfigs: false };

function load(text: string) {
  return loadConfig([{ name: 'q.yaml', text }], NO_MERGE);
}

t.test('quota_mode is read per descriptor and shown by /rlconfig', async (t) => {
  const result = load('domain: d\ndescriptors:\n  - key: s\n    quota_mode: true\n    rate_limit: {unit: minute, requests_per_unit: 2}\n  - key: p\n    rate_limit: {unit: hour, requests_per_unit: 1}\n');
  if (!result.ok) throw new Error(result.error.message);
  t.equal(result.value.domains[0]?.descriptors[0]?.quotaMode, true);
  t.equal(dumpConfig(result.value), 'd.s: unit=MINUTE requests_per_unit=2, shadow_mode: false, quota_mode: true\nd.p: unit=HOUR requests_per_unit=1, shadow_mode: false, quota_mode: false\n');
});

t.test('metadata: nested maps and lists load; what a Struct cannot hold is an error naming it', async (t) => {
  const good = load('domain: d\ndescriptors:\n  - key: k\n    metadata:\n      service_with_quota: {name: service_2, weight: 3, enabled: true, none: ~, list: [a, 1.5]}\n');
  if (!good.ok) throw new Error(good.error.message);
  t.same(good.value.domains[0]?.descriptors[0]?.metadata, { service_with_quota: { name: 'service_2', weight: 3, enabled: true, none: null, list: ['a', 1.5] } });
  const boolKey = load('domain: d\ndescriptors:\n  - key: k\n    metadata: {on: 1}\n');
  t.same(boolKey.ok ? undefined : boolKey.error.message, 'q.yaml: error parsing metadata: line 4: key true is not a string', 'YAML 1.1: an unquoted on is a boolean');
  const intKey = load('domain: d\ndescriptors:\n  - key: k\n    metadata:\n      inner: {1: one}\n');
  t.same(intKey.ok ? undefined : intKey.error.message, 'q.yaml: error parsing metadata: line 5: key 1 is not a string');
  const infinite = load('domain: d\ndescriptors:\n  - key: k\n    metadata: {x: .inf}\n');
  t.same(infinite.ok ? undefined : infinite.error.message, 'q.yaml: error parsing metadata: line 4: .inf is not a finite number');
  const notMap = load('domain: d\ndescriptors:\n  - key: k\n    metadata: [a]\n');
  t.same(notMap.ok ? undefined : notMap.error.message, 'q.yaml: error loading config file: yaml: unmarshal errors:\n  line 4: cannot unmarshal !!seq into map[string]interface {}');
});

t.test('xDS: quota_mode is field 7 and metadata (a Struct) field 8', async (t) => {
  const { rateLimitConfig } = xdsTypes();
  const message = rateLimitConfig.fromObject({
    name: 'res',
    domain: 'x',
    descriptors: [
      {
        key: 'k',
        quotaMode: true,
        rateLimit: { unit: 2, requestsPerUnit: 4 },
        metadata: { fields: { name: { stringValue: 'svc' }, n: { numberValue: 2 }, s: { structValue: { fields: { l: { listValue: { values: [{ boolValue: true }, { nullValue: 0 }] } } } } } } },
      },
    ],
  });
  const result = loadXdsConfig([{ typeUrl: RATE_LIMIT_CONFIG_TYPE_URL, value: rateLimitConfig.encode(message).finish() }], NO_MERGE);
  if (!result.ok) throw new Error(result.error.message);
  const rule = result.value.domains[0]?.descriptors[0];
  t.equal(rule?.quotaMode, true);
  t.same(rule?.metadata, { name: 'svc', n: 2, s: { l: [true, null] } });
});
