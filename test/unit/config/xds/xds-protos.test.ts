/** The xDS protos load and keep upstream's field numbers, so a management server's bytes decode as it meant them. */
import t from 'tap';
import { RATE_LIMIT_CONFIG_TYPE_URL, STREAM_AGGREGATED_RESOURCES_PATH, xdsTypes } from '../../../../src/config/xds/xds-protos.js';

const { root, discoveryRequest, discoveryResponse, rateLimitConfig } = xdsTypes();

function fieldNumbers(typeName: string): Record<string, number> {
  const type = root.lookupType(typeName);
  return Object.fromEntries(type.fieldsArray.map((field) => [field.name, field.id]));
}

t.test("field numbers are upstream's", async (t) => {
  t.same(fieldNumbers('ratelimit.config.ratelimit.v3.RateLimitConfig'), { name: 1, domain: 2, descriptors: 3 });
  t.same(fieldNumbers('ratelimit.config.ratelimit.v3.RateLimitDescriptor'), {
    key: 1, value: 2, rateLimit: 3, descriptors: 4, shadowMode: 5, detailedMetric: 6, quotaMode: 7, metadata: 8,
  });
  t.same(fieldNumbers('ratelimit.config.ratelimit.v3.RateLimitPolicy'), { unit: 1, requestsPerUnit: 2, unlimited: 3, name: 4, replaces: 5 });
  t.same(fieldNumbers('ratelimit.config.ratelimit.v3.RateLimitReplace'), { name: 1 });
  t.same(root.lookupEnum('ratelimit.config.ratelimit.v3.RateLimitUnit').values, {
    UNKNOWN: 0, SECOND: 1, MINUTE: 2, HOUR: 3, DAY: 4, WEEK: 7, MONTH: 5, YEAR: 6,
  });
  t.match(fieldNumbers('envoy.service.discovery.v3.DiscoveryRequest'), { versionInfo: 1, node: 2, resourceNames: 3, typeUrl: 4, responseNonce: 5, errorDetail: 6 });
  t.match(fieldNumbers('envoy.service.discovery.v3.DiscoveryResponse'), { versionInfo: 1, resources: 2, canary: 3, typeUrl: 4, nonce: 5, controlPlane: 6 });
  t.match(fieldNumbers('envoy.config.core.v3.Node'), { id: 1, cluster: 2, metadata: 3 });
  t.same(fieldNumbers('google.rpc.Status'), { code: 1, message: 2, details: 3 });
});

t.test('the ADS method is the aggregated stream', async (t) => {
  t.equal(STREAM_AGGREGATED_RESOURCES_PATH, '/envoy.service.discovery.v3.AggregatedDiscoveryService/StreamAggregatedResources');
  const method = root.lookupService('envoy.service.discovery.v3.AggregatedDiscoveryService').methods['StreamAggregatedResources'];
  t.ok(method?.requestStream && method.responseStream, 'both directions stream');
});

t.test('a RateLimitConfig survives the trip inside a DiscoveryResponse', async (t) => {
  const config = { name: 'edge', domain: 'rl', descriptors: [{ key: 'k', value: 'v', rateLimit: { unit: 7, requestsPerUnit: 3 }, shadowMode: true }] };
  const bytes = discoveryResponse.encode(discoveryResponse.fromObject({
    versionInfo: '1',
    typeUrl: RATE_LIMIT_CONFIG_TYPE_URL,
    nonce: 'n1',
    resources: [{ type_url: RATE_LIMIT_CONFIG_TYPE_URL, value: rateLimitConfig.encode(rateLimitConfig.fromObject(config)).finish() }],
  })).finish();
  const response = discoveryResponse.toObject(discoveryResponse.decode(bytes), { defaults: false }) as { resources: Array<{ type_url: string; value: Uint8Array }> };
  const [resource] = response.resources;
  // protobufjs names the well-known Any's fields as the proto spells them (type_url).
  t.equal(resource?.type_url, RATE_LIMIT_CONFIG_TYPE_URL);
  t.same(rateLimitConfig.toObject(rateLimitConfig.decode(resource?.value ?? new Uint8Array()), { enums: String }), {
    ...config,
    descriptors: [{ ...config.descriptors[0], rateLimit: { unit: 'WEEK', requestsPerUnit: 3 } }],
  });
});

t.test('a NACK carries the error text', async (t) => {
  const nack = discoveryRequest.decode(discoveryRequest.encode(discoveryRequest.fromObject({
    versionInfo: '1', responseNonce: 'n2', typeUrl: RATE_LIMIT_CONFIG_TYPE_URL, node: { id: 'default' },
    errorDetail: { code: 3, message: 'edge: bad unit' },
  })).finish());
  t.match(discoveryRequest.toObject(nack), { errorDetail: { code: 3, message: 'edge: bad unit' }, node: { id: 'default' } });
});
