/**
 * Quota mode, rule metadata and RESPONSE_DYNAMIC_METADATA, and the RESPONSE_LIMIT_POLICY extension,
 * through /json and gRPC on the in-process service (real HTTP and gRPC servers, manual clock),
 * counted in the embedded store and in a real redis-server. The configuration is the quota part
 * of upstream's Envoy end-to-end example (`service=service_1` 1/min and `service=service_2`
 * 2/min, both quota_mode, each with metadata naming its service).
 */
import t, { type Test } from 'tap';
import { startService, type Service } from '../support/service-harness.js';
import { D } from '../support/service-inputs.js';
import { RlsClient, type DecodedResponse } from '../support/grpc-client.js';
import { startRedis } from '../support/store-servers.js';

const QUOTA_RULES = `domain: rl
descriptors:
  - key: service
    value: service_1
    quota_mode: true
    rate_limit: {unit: minute, requests_per_unit: 1, name: first_service}
    metadata:
      service_with_quota: {name: service_1}
  - key: service
    value: service_2
    quota_mode: true
    rate_limit: {unit: minute, requests_per_unit: 2}
    metadata:
      service_with_quota: {name: service_2, tier: gold}
  - key: route
    rate_limit: {unit: minute, requests_per_unit: 1}
`;

/** protobufjs' google.protobuf.Value (enums as names, no defaults) as the plain value it carries. */
function plain(value: any): unknown {
  if (value === null || typeof value !== 'object') return value;
  if ('fields' in value) return Object.fromEntries(Object.entries(value.fields ?? {}).map(([k, v]) => [k, plain(v)]));
  if ('structValue' in value) return plain(value.structValue);
  if ('listValue' in value) return (value.listValue.values ?? []).map(plain);
  if ('stringValue' in value) return value.stringValue;
  if ('numberValue' in value) return value.numberValue;
  if ('boolValue' in value) return value.boolValue;
  if ('nullValue' in value) return null;
  return value;
}

interface Answer {
  overallCode: string;
  codes: string[];
  dynamicMetadata: unknown;
  policy: string | undefined;
}

type Descriptor = ReturnType<typeof D> & { hitsAddend?: number };
type Ask = (descriptors: Descriptor[], hitsAddend?: number) => Promise<Answer>;

function askers(t: Test, svc: Service): Record<'json' | 'grpc', Ask> {
  const client = new RlsClient(`127.0.0.1:${svc.app.grpcPort}`);
  t.teardown(() => client.close());
  return {
    async json(descriptors, hitsAddend) {
      const r = await svc.post({ domain: 'rl', descriptors, ...(hitsAddend === undefined ? {} : { hitsAddend }) });
      t.equal(r.status, r.json.overallCode === 'OVER_LIMIT' ? 429 : 200, 'the HTTP status follows the overall code');
      return {
        overallCode: r.json.overallCode,
        codes: r.json.statuses.map((s: { code: string }) => s.code),
        dynamicMetadata: r.json.dynamicMetadata,
        policy: r.headers['ratelimit-policy'],
      };
    },
    async grpc(descriptors, hitsAddend) {
      // protobufjs form: a descriptor's hits_addend is a google.protobuf.UInt64Value.
      const wire = descriptors.map((d) => (d.hitsAddend === undefined ? d : { ...d, hitsAddend: { value: d.hitsAddend } }));
      const r = await client.call({ domain: 'rl', descriptors: wire, ...(hitsAddend === undefined ? {} : { hitsAddend }) });
      if (!r.ok) throw new Error(`gRPC ${r.code}: ${r.details}`);
      const response = r.response as DecodedResponse & { statuses: Array<{ code: string }>; dynamicMetadata?: unknown };
      return {
        overallCode: response['overallCode'] as string,
        codes: response.statuses.map((s) => s.code),
        dynamicMetadata: response.dynamicMetadata === undefined ? undefined : plain(response.dynamicMetadata),
        policy: undefined,
      };
    },
  };
}

const both = [D('service', 'service_1'), D('service', 'service_2')];

async function quotaSequence(t: Test, ask: Ask): Promise<void> {
  // Upstream's quota.sh: both OK; service_1 over but service_2 not, so OK; both over.
  const first = await ask(both);
  t.same([first.overallCode, first.codes], ['OK', ['OK', 'OK']], 'request 1: both quota descriptors OK');
  const second = await ask(both);
  t.same([second.overallCode, second.codes], ['OK', ['OVER_LIMIT', 'OK']], 'request 2: one quota descriptor over, the answer is still OK');
  const third = await ask(both);
  t.same([third.overallCode, third.codes], ['OVER_LIMIT', ['OVER_LIMIT', 'OVER_LIMIT']], 'request 3: every quota descriptor over');
}

for (const transport of ['json', 'grpc'] as const) {
  t.test(`quota_mode over ${transport}: over only when every quota descriptor is (embedded store)`, async (t) => {
    const svc = await startService(t, { files: { 'rl.yaml': QUOTA_RULES } });
    await quotaSequence(t, askers(t, svc)[transport]);
    svc.clock.now += 60;
    t.equal((await askers(t, svc)[transport](both)).overallCode, 'OK', 'the next window answers OK again');
  });
}

t.test('quota_mode against redis-server, over /json and gRPC', async (t) => {
  const redis = await startRedis(t);
  for (const transport of ['json', 'grpc'] as const) {
    await t.test(transport, async (t) => {
      await redis.cli('FLUSHALL');
      const svc = await startService(t, { files: { 'rl.yaml': QUOTA_RULES }, env: { KVSTORE_URL: redis.url } });
      await quotaSequence(t, askers(t, svc)[transport]);
      t.equal(await redis.cli('GET', `rl_service_service_1_${svc.clock.nowSeconds() - (svc.clock.nowSeconds() % 60)}`), '3', 'the counters are in Redis');
    });
  }
});

t.test('global QUOTA_MODE: a non-quota limit over does not decide alone, and an unmatched descriptor keeps the answer OK', async (t) => {
  const svc = await startService(t, { files: { 'rl.yaml': QUOTA_RULES }, env: { QUOTA_MODE: 'true' } });
  const ask = askers(t, svc).json;
  await ask([D('route', 'r')]);
  const withUnmatched = await ask([D('route', 'r'), D('nothing', 'here')]);
  t.same([withUnmatched.overallCode, withUnmatched.codes], ['OK', ['OVER_LIMIT', 'OK']], 'the unmatched descriptor counts as a quota descriptor with quota left');
  const alone = await ask([D('route', 'r')]);
  t.same([alone.overallCode, alone.codes], ['OVER_LIMIT', ['OVER_LIMIT']], 'alone, the one quota descriptor over makes the answer OVER_LIMIT');
});

for (const transport of ['json', 'grpc'] as const) {
  t.test(`RESPONSE_DYNAMIC_METADATA over ${transport}: domain, descriptors, hitsAddend and the metadata of the limits not over`, async (t) => {
    const svc = await startService(t, { files: { 'rl.yaml': QUOTA_RULES }, env: { RESPONSE_DYNAMIC_METADATA: 'true' } });
    const ask = askers(t, svc)[transport];
    const first = await ask(both, 2);
    t.same(first.dynamicMetadata, {
      descriptors: [{ entries: ['service=service_1'] }, { entries: ['service=service_2'] }],
      domain: 'rl',
      hitsAddend: 2,
      // service_1 is over (2 hits against 1), so only service_2's metadata is merged.
      metadata: { service_with_quota: { name: 'service_2', tier: 'gold' } },
    });
    svc.clock.now += 60;
    const second = await ask([D('service', 'service_1'), D('service', 'service_2'), { ...D('route', 'x'), hitsAddend: 0 }]);
    t.same(
      second.dynamicMetadata,
      {
        descriptors: [{ entries: ['service=service_1'] }, { entries: ['service=service_2'] }, { entries: ['route=x'], hitsAddend: 0 }],
        domain: 'rl',
        metadata: { service_with_quota: { name: 'service_1', tier: 'gold' } },
      },
      'both under their limits: merged in descriptor order, the first value wins, structs merge',
    );
    t.equal(second.policy, undefined, 'no RateLimit-Policy header without RESPONSE_LIMIT_POLICY');
  });
}

t.test('dynamic metadata is absent by default', async (t) => {
  const svc = await startService(t, { files: { 'rl.yaml': QUOTA_RULES } });
  for (const ask of Object.values(askers(t, svc))) t.equal((await ask(both)).dynamicMetadata, undefined);
});

for (const transport of ['json', 'grpc'] as const) {
  t.test(`RESPONSE_LIMIT_POLICY over ${transport}: firedBy names the limit that fired`, async (t) => {
    const svc = await startService(t, { files: { 'rl.yaml': QUOTA_RULES }, env: { RESPONSE_DYNAMIC_METADATA: 'true', RESPONSE_LIMIT_POLICY: 'true' } });
    const ask = askers(t, svc)[transport];
    const ok = await ask([D('route', 'a')]);
    t.equal((ok.dynamicMetadata as Record<string, unknown>)['firedBy'], undefined, 'nothing fired on an OK answer');
    const over = await ask([D('service', 'service_2'), D('route', 'a')]);
    t.equal(over.overallCode, 'OVER_LIMIT');
    t.same((over.dynamicMetadata as Record<string, unknown>)['firedBy'], { descriptorIndex: 1, name: 'rl.route', requestsPerUnit: 1, unit: 'MINUTE' }, 'an unnamed limit is named by its statistics key');
    if (transport === 'json') {
      t.equal(ok.policy, '"rl.route";q=1;w=60', 'an OK answer describes the closest limit');
      t.equal(over.policy, '"rl.route";q=1;w=60', 'an OVER_LIMIT answer describes the limit that fired');
    }
    await ask([D('service', 'service_1')]);
    const quotaOver = await ask([D('service', 'service_1')]);
    t.same((quotaOver.dynamicMetadata as Record<string, unknown>)['firedBy'], { descriptorIndex: 0, name: 'first_service', requestsPerUnit: 1, unit: 'MINUTE' }, 'a named limit by its rate_limit.name');
    if (transport === 'json') t.equal(quotaOver.policy, '"first_service";q=1;w=60');
  });
}
