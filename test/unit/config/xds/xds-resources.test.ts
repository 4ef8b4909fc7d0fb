/**
 * RateLimitConfig resources are checked exactly as rules files are: each case is written once as
 * a YAML file and once as the resource a management server would send, and both must give the
 * same rules or the same message.
 */
import t from 'tap';
import { loadConfig } from '../../../../src/config/index.js';
import { loadXdsConfig, RATE_LIMIT_CONFIG_TYPE_URL, xdsTypes, type XdsResource } from '../../../../src/config/xds/index.js';

const { rateLimitConfig } = xdsTypes();
const NO_MERGE = { mergeDomainConfigs: false };
const MERGE = { mergeDomainConfigs: true };

function resource(config: Record<string, unknown>): XdsResource {
  return { typeUrl: RATE_LIMIT_CONFIG_TYPE_URL, value: rateLimitConfig.encode(rateLimitConfig.fromObject(config)).finish() };
}

/** The same rules as a YAML file (named as the resource) and as a resource. */
interface Twin {
  name: string;
  yaml: string;
  proto: Record<string, unknown>;
}

function both(twins: Twin[], options = NO_MERGE): [ReturnType<typeof loadConfig>, ReturnType<typeof loadXdsConfig>] {
  return [
    loadConfig(twins.map((twin) => ({ name: twin.name, text: twin.yaml })), options),
    loadXdsConfig(twins.map((twin) => resource({ name: twin.name, ...twin.proto })), options),
  ];
}

const BASIC: Twin = {
  name: 'basic',
  yaml: `domain: rl
descriptors:
  - key: remote_address
    rate_limit: { unit: second, requests_per_unit: 10, name: per_ip }
    descriptors:
      - key: path
        value: /login
        shadow_mode: true
        detailed_metric: true
        rate_limit: { unit: week, requests_per_unit: 3, replaces: [{ name: per_ip }] }
  - key: internal
    rate_limit: { unlimited: true }
`,
  proto: {
    domain: 'rl',
    descriptors: [
      {
        key: 'remote_address',
        rateLimit: { unit: 'SECOND', requestsPerUnit: 10, name: 'per_ip' },
        descriptors: [
          { key: 'path', value: '/login', shadowMode: true, detailedMetric: true, rateLimit: { unit: 'WEEK', requestsPerUnit: 3, replaces: [{ name: 'per_ip' }] } },
        ],
      },
      { key: 'internal', rateLimit: { unlimited: true } },
    ],
  },
};

t.test('valid rules become the same model as the file', async (t) => {
  const [fromYaml, fromXds] = both([BASIC]);
  t.ok(fromYaml.ok && fromXds.ok);
  t.same(fromXds, fromYaml);
});

const DEFECTS: Array<[string, Twin[], string]> = [
  ['empty domain', [{ name: 'r', yaml: 'descriptors: []\n', proto: {} }], 'r: config file cannot have empty domain'],
  ['empty key', [{ name: 'r', yaml: 'domain: d\ndescriptors: [{ value: v }]\n', proto: { domain: 'd', descriptors: [{ value: 'v' }] } }], 'r: descriptor has empty key'],
  [
    'missing unit',
    [{ name: 'r', yaml: 'domain: d\ndescriptors: [{ key: k, rate_limit: { requests_per_unit: 5 } }]\n', proto: { domain: 'd', descriptors: [{ key: 'k', rateLimit: { requestsPerUnit: 5 } }] } }],
    "r: invalid rate limit unit 'UNKNOWN'",
  ],
  [
    'unlimited with a unit',
    [{ name: 'r', yaml: 'domain: d\ndescriptors: [{ key: k, rate_limit: { unlimited: true, unit: minute } }]\n', proto: { domain: 'd', descriptors: [{ key: 'k', rateLimit: { unlimited: true, unit: 'MINUTE' } }] } }],
    'r: should not specify rate limit unit when unlimited',
  ],
  [
    'duplicate key',
    [{ name: 'r', yaml: 'domain: d\ndescriptors: [{ key: k, value: v }, { key: k, value: v }]\n', proto: { domain: 'd', descriptors: [{ key: 'k', value: 'v' }, { key: 'k', value: 'v' }] } }],
    "r: duplicate descriptor composite key 'd.k_v'",
  ],
  [
    'empty replaces entry',
    [{ name: 'r', yaml: 'domain: d\ndescriptors: [{ key: k, rate_limit: { unit: hour, replaces: [{ name: "" }] } }]\n', proto: { domain: 'd', descriptors: [{ key: 'k', rateLimit: { unit: 'HOUR', replaces: [{ name: '' }] } }] } }],
    'r: should not have an empty replaces entry',
  ],
  [
    'replaces itself',
    [{ name: 'r', yaml: 'domain: d\ndescriptors: [{ key: k, rate_limit: { unit: day, name: n, replaces: [{ name: n }] } }]\n', proto: { domain: 'd', descriptors: [{ key: 'k', rateLimit: { unit: 'DAY', name: 'n', replaces: [{ name: 'n' }] } }] } }],
    'r: replaces should not contain name of same descriptor',
  ],
  ['duplicate domain', [BASIC, { ...BASIC, name: 'again' }], "again: duplicate domain 'rl' in config file"],
];

for (const [defect, twins, message] of DEFECTS) {
  t.test(`${defect}: the file's message`, async (t) => {
    const [fromYaml, fromXds] = both(twins);
    t.match(fromXds, { ok: false, error: { code: 'CFG_INVALID', message } });
    // A file spells a missing unit '' where the proto's zero value is UNKNOWN; every other message is the file's own.
    if (defect !== 'missing unit') t.same(fromXds, fromYaml);
  });
}

t.test('a missing unit as a file says it too', async (t) => {
  const [fromYaml] = both([DEFECTS[2]![1][0]!]);
  t.match(fromYaml, { ok: false, error: { message: "r: invalid rate limit unit ''" } });
});

t.test('an unlimited rule without a unit is valid, as upstream (UNKNOWN is not a unit)', async (t) => {
  const result = loadXdsConfig([resource({ name: 'r', domain: 'd', descriptors: [{ key: 'k', rateLimit: { unlimited: true, unit: 'UNKNOWN' } }] })], NO_MERGE);
  t.match(result, { ok: true, value: { domains: [{ domain: 'd', descriptors: [{ key: 'k', rateLimit: { unlimited: true, unit: 0 } }] }] } });
});

t.test('a unit number the proto does not name is refused by its number', async (t) => {
  const bytes = rateLimitConfig.encode(rateLimitConfig.fromObject({ name: 'r', domain: 'd', descriptors: [{ key: 'k', rateLimit: { unit: 9, requestsPerUnit: 1 } }] })).finish();
  t.match(loadXdsConfig([{ typeUrl: RATE_LIMIT_CONFIG_TYPE_URL, value: bytes }], NO_MERGE), { ok: false, error: { message: "r: invalid rate limit unit '9'" } });
});

t.test('MERGE_DOMAIN_CONFIG merges resources of one domain as it merges files', async (t) => {
  const second: Twin = { name: 'more', yaml: 'domain: rl\ndescriptors: [{ key: extra, rate_limit: { unit: minute, requests_per_unit: 1 } }]\n', proto: { domain: 'rl', descriptors: [{ key: 'extra', rateLimit: { unit: 'MINUTE', requestsPerUnit: 1 } }] } };
  const [fromYaml, fromXds] = both([BASIC, second], MERGE);
  t.match(fromXds, { ok: true, value: { domains: [{ domain: 'rl', descriptors: [{ key: 'remote_address' }, { key: 'internal' }, { key: 'extra' }] }] } });
  t.same(fromXds, fromYaml);
});

t.test('a resource that is not a RateLimitConfig is refused, naming its place', async (t) => {
  t.match(loadXdsConfig([resource({ name: 'ok', domain: 'a' }), { typeUrl: 'type.googleapis.com/envoy.config.cluster.v3.Cluster', value: new Uint8Array() }], NO_MERGE), {
    ok: false,
    error: { code: 'CFG_INVALID', message: 'resource 1: type "type.googleapis.com/envoy.config.cluster.v3.Cluster" is not type.googleapis.com/ratelimit.config.ratelimit.v3.RateLimitConfig' },
  });
  t.match(loadXdsConfig([{ typeUrl: RATE_LIMIT_CONFIG_TYPE_URL, value: Uint8Array.of(0x0a, 0x05, 0x61) }], NO_MERGE), {
    ok: false,
    error: { code: 'CFG_INVALID', message: /^resource 0: cannot decode RateLimitConfig: / },
  });
});

t.test('no resources: no rules, as an empty directory', async (t) => {
  t.same(loadXdsConfig([], NO_MERGE), loadConfig([], NO_MERGE));
});
