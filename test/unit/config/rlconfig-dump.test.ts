import t from 'tap';
import { dumpConfig, loadConfig } from '../../../src/config/index.js';
import type { ConfigSource } from '../../../src/config/model.js';
import { fixture } from '../../fixtures/config/index.js';

function dump(sources: ConfigSource[], mergeDomainConfigs = false): string {
  const result = loadConfig(sources, { mergeDomainConfigs });
  if (!result.ok) throw new Error(result.error.message);
  return dumpConfig(result.value);
}

t.test('one line per rule with a limit, in config order, parents first', async (t) => {
  t.equal(
    dump([fixture('basic_config.yaml')]),
    [
      'test-domain.key1_value1.subkey1: unit=SECOND requests_per_unit=5, shadow_mode: false, quota_mode: false',
      'test-domain.key1_value1.subkey1_subvalue1: unit=SECOND requests_per_unit=10, shadow_mode: false, quota_mode: false',
      'test-domain.key2: unit=MINUTE requests_per_unit=20, shadow_mode: false, quota_mode: false',
      'test-domain.key2_value2: unit=MINUTE requests_per_unit=30, shadow_mode: false, quota_mode: false',
      'test-domain.key3: unit=HOUR requests_per_unit=1, shadow_mode: false, quota_mode: false',
      'test-domain.key4: unit=DAY requests_per_unit=1, shadow_mode: false, quota_mode: false',
      'test-domain.key5_value5: unit=DAY requests_per_unit=15, shadow_mode: false, quota_mode: false',
      'test-domain.key5_value5.subkey5_subvalue5: unit=DAY requests_per_unit=25, shadow_mode: false, quota_mode: false',
      'test-domain.key6: unit=UNKNOWN requests_per_unit=0, shadow_mode: false, quota_mode: false',
      'test-domain.key7: unit=MINUTE requests_per_unit=70, shadow_mode: false, quota_mode: false',
      '',
    ].join('\n'),
  );
});

t.test('shadow mode is shown per rule', async (t) => {
  t.equal(
    dump([fixture('shadowmode_config.yaml')]),
    'test-domain.key1_value1.subkey1: unit=SECOND requests_per_unit=5, shadow_mode: false, quota_mode: false\n' +
      'test-domain.key1_value1.subkey1_subvalue1: unit=SECOND requests_per_unit=10, shadow_mode: true, quota_mode: false\n' +
      'test-domain.key2: unit=MINUTE requests_per_unit=20, shadow_mode: true, quota_mode: false\n',
  );
});

// As upstream's xDS provider test (test/provider/xds_grpc_sotw_provider_test.go).
t.test('merged sources of one domain dump together; unlimited children as UNKNOWN', async (t) => {
  const foo1 = { name: 'foo-1', text: 'domain: foo\ndescriptors:\n  - key: k1\n    value: v1\n    rate_limit: {unit: minute, requests_per_unit: 3}\n' };
  const foo2 = {
    name: 'foo-2',
    text: 'domain: foo\ndescriptors:\n  - key: k2\n    descriptors:\n      - key: inner\n        rate_limit: {unlimited: true}\n',
  };
  t.equal(
    dump([foo1, foo2], true),
    'foo.k1_v1: unit=MINUTE requests_per_unit=3, shadow_mode: false, quota_mode: false\n' +
      'foo.k2.inner: unit=UNKNOWN requests_per_unit=0, shadow_mode: false, quota_mode: false\n',
  );
});

t.test('an empty configuration dumps as an empty body', async (t) => {
  t.equal(dumpConfig({ domains: [] }), '');
});
