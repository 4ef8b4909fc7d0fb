/** The ADS client against a real grpc-js ADS server: subscribe, ACK what applies, NACK with the text what does not. */
import t from 'tap';
import { AdsClient, loadXdsConfig } from '../../../../src/config/xds/index.js';
import { AdsServer } from '../../../support/ads-server.js';

const VALID = { name: 'basic', domain: 'rl', descriptors: [{ key: 'k', rateLimit: { unit: 'SECOND', requestsPerUnit: 1 } }] };
const INVALID = { name: 'broken', domain: 'other', descriptors: [{ key: 'k', rateLimit: { unit: 'UNKNOWN', requestsPerUnit: 1 } }] };

t.test('subscribes with the node and headers, ACKs a valid set and NACKs an invalid one', async (t) => {
  const server = new AdsServer();
  const port = await server.listen();
  const applied: string[] = [];
  const client = new AdsClient({
    serverUrl: `127.0.0.1:${port}`,
    nodeId: 'node-7',
    nodeMetadata: [['zone', 'a']],
    headers: [['x-tenant', 'blue']],
    maxMessageBytes: 0,
    backoff: { initialMs: 50, maxMs: 100, factor: 2, jitter: false },
    connectRetryMs: 50,
    apply: async (resources, version) => {
      const loaded = loadXdsConfig(resources, { mergeDomainConfigs: false });
      if (!loaded.ok) return loaded.error.message;
      applied.push(version);
      return undefined;
    },
  });
  t.teardown(async () => {
    client.close();
    await server.stop();
  });
  client.start();
  const [subscribe] = await server.requestCount(1);
  t.match(subscribe, { versionInfo: '', typeUrl: 'type.googleapis.com/ratelimit.config.ratelimit.v3.RateLimitConfig', node: { id: 'node-7', metadata: { fields: { zone: { stringValue: 'a' } } } }, metadata: { 'x-tenant': 'blue' } });

  server.push('1', [VALID]);
  const ack = (await server.requestCount(2))[1];
  t.match(ack, { versionInfo: '1', responseNonce: '1', errorDetail: null });

  server.push('2', [VALID, INVALID]);
  const nack = (await server.requestCount(3))[2];
  t.match(nack, { versionInfo: '1', responseNonce: '2', errorDetail: { code: 3, message: "broken: invalid rate limit unit 'UNKNOWN'" } });
  t.same(applied, ['1'], 'the refused set was not applied');
});
