/**
 * Rules from an xDS management server (CONFIG_TYPE=GRPC_XDS_SOTW) against a real ADS server
 * (grpc-js, test/support/ads-server.ts): each pushed version answers over /json on every HTTP
 * thread and over gRPC, an invalid one is NACKed with its error while the rules in service stay,
 * the client reconnects to a restarted server, TLS with a client certificate, the message size
 * limit, and the start waits for the first configuration unless FORCE_START_WITHOUT_INITIAL_CONFIG.
 */
import * as grpc from '@grpc/grpc-js';
import t, { type Test } from 'tap';
import { AdsServer, type AdsServerLike } from '../support/ads-server.js';
import { PythonAdsServer } from '../support/python/python-ads-server.js';
import { generateCerts } from '../support/certs.js';
import { firstLimit, RlsClient, toGrpcRequest } from '../support/grpc-client.js';
import { spawnProcess, startProcess, type ServiceProcess } from '../support/process-harness.js';
import { D, LOCAL_LISTENERS_ENV } from '../support/service-inputs.js';
import { waitFor } from '../support/wait-for.js';
import { freePort } from '../../src/transports/free-port.js';

const MINUTE = 2;

/** Domain `foo`, `k1=v1` at `perMinute` a minute (ratelimit.config.ratelimit.v3.RateLimitConfig). */
const fooAt = (perMinute: number) => ({ name: 'foo', domain: 'foo', descriptors: [{ key: 'k1', value: 'v1', rateLimit: { unit: MINUTE, requestsPerUnit: perMinute } }] });

/** Short waits, so a test sees a reconnect. */
const QUICK_RECONNECT = { XDS_CLIENT_BACKOFF_INITIAL_INTERVAL: '100ms', XDS_CLIENT_BACKOFF_MAX_INTERVAL: '200ms', CONFIG_GRPC_XDS_SERVER_CONNECT_RETRY_INTERVAL: '100ms' };

async function adsServer(t: Test, port = 0): Promise<AdsServer> {
  const server = new AdsServer();
  await server.listen(undefined, port);
  t.teardown(() => server.stop());
  return server;
}

async function pythonAdsServer(t: Test, port = 0): Promise<AdsServerLike> {
  const server = new PythonAdsServer();
  await server.listen(port);
  t.teardown(() => server.stop());
  return server;
}

/** The same scenarios against two independent servers: grpc-js, and gRPC C-core from Python. */
const SERVERS = [
  { implementation: 'grpc-js', start: adsServer },
  { implementation: 'gRPC C-core (python3-grpcio)', start: pythonAdsServer },
];

function xdsEnv(server: { port: number }, env: Record<string, string> = {}): Record<string, string> {
  return { CONFIG_TYPE: 'GRPC_XDS_SOTW', CONFIG_GRPC_XDS_SERVER_URL: `127.0.0.1:${server.port}`, ...QUICK_RECONNECT, ...env };
}

const ask = { domain: 'foo', descriptors: [{ ...D('k1', 'v1'), hitsAddend: 0 }] };

/** The limit /json answers with, on a fresh connection (the kernel spreads those over the HTTP threads). */
async function limitViaJson(proc: ServiceProcess): Promise<number | undefined> {
  const r = await proc.post(ask, { headers: { connection: 'close' } });
  return r.json?.statuses?.[0]?.currentLimit?.requestsPerUnit;
}

async function limitViaGrpc(proc: ServiceProcess): Promise<number | undefined> {
  const client = new RlsClient(proc.grpcAddress);
  try {
    return firstLimit(await client.call(toGrpcRequest(ask)));
  } finally {
    client.close();
  }
}

/** Every one of `tries` fresh /json connections and a gRPC call answer `perMinute`. */
async function answersEverywhere(proc: ServiceProcess, perMinute: number, tries = 8): Promise<boolean> {
  const viaJson = await Promise.all(Array.from({ length: tries }, () => limitViaJson(proc)));
  return viaJson.every((limit) => limit === perMinute) && (await limitViaGrpc(proc)) === perMinute;
}

for (const { implementation, start: startServer } of SERVERS) {
  t.test(`${implementation}: versions 1, 2 and 3 are applied in turn, ACKed, and answered on every HTTP thread and gRPC`, async (t) => {
    const server = await startServer(t);
    const env = xdsEnv(server, { HTTP_WORKERS: '2', CONFIG_GRPC_XDS_NODE_ID: 'sidecar-7', CONFIG_GRPC_XDS_NODE_METADATA: 'zone=a,team=edge', CONFIG_GRPC_XDS_CLIENT_ADDITIONAL_HEADERS: 'X-Tenant:blue' });
    const starting = startProcess(t, env);
    const [subscribe] = await server.requestCount(1);
    t.match(subscribe, { typeUrl: 'type.googleapis.com/ratelimit.config.ratelimit.v3.RateLimitConfig', versionInfo: '', node: { id: 'sidecar-7' } }, 'the subscription names the type and the node');
    // The Python server decodes the node's id only.
    if (implementation === 'grpc-js') t.same(subscribe?.node?.metadata?.fields, { zone: { stringValue: 'a' }, team: { stringValue: 'edge' } }, 'node metadata as strings');
    t.equal(subscribe?.metadata['x-tenant'], 'blue', 'the additional header arrives as metadata');
    server.push('1', [fooAt(3)]);
    const proc = await starting;
    t.ok(await answersEverywhere(proc, 3), 'version 1 answers everywhere once the service is ready');
    t.match((await proc.debug('/rlconfig')).text, /foo\.k1_v1: unit=MINUTE requests_per_unit=3/, '/rlconfig shows it');

    for (const [version, perMinute] of [['2', 5], ['3', 7]] as const) {
      const seen = server.requests.length;
      server.push(version, [fooAt(perMinute)]);
      const requests = await server.requestCount(seen + 1);
      t.match(requests[seen], { versionInfo: version, errorDetail: null }, `version ${version} ACKed`);
      await waitFor(`version ${version} everywhere`, () => answersEverywhere(proc, perMinute), 5000, 50);
      t.pass(`version ${version} answers on every HTTP thread and gRPC`);
    }
    t.equal(await proc.stat('ratelimit.service.config_load_success'), 3);
  });

  t.test(`${implementation}: an invalid resource is NACKed with its error; the rules in service keep answering`, async (t) => {
    const server = await startServer(t);
    const starting = startProcess(t, xdsEnv(server));
    await server.requestCount(1);
    server.push('1', [fooAt(3)]);
    const proc = await starting;
    const seen = server.requests.length;
    server.push('2', [{ name: 'broken', domain: 'foo', descriptors: [{ key: '', rateLimit: { unit: MINUTE, requestsPerUnit: 1 } }] }]);
    const [nack] = (await server.requestCount(seen + 1)).slice(seen);
    t.equal(nack?.versionInfo, '1', 'the NACK names the version still in force');
    t.match(nack?.errorDetail, { code: 3, message: /^broken: / }, 'and carries the error text, named after the resource');
    t.equal(await limitViaJson(proc), 3, 'version 1 still answers');
    t.equal(await limitViaGrpc(proc), 3);
    t.equal(await proc.stat('ratelimit.service.config_load_error'), 1, 'the failed load is counted');
  });

  t.test(`${implementation}: a restarted server: the client reconnects and applies the next push`, async (t) => {
    const first = await startServer(t);
    const port = first.port;
    const starting = startProcess(t, xdsEnv(first));
    await first.requestCount(1);
    first.push('1', [fooAt(3)]);
    const proc = await starting;
    await first.stop();
    const second = await startServer(t, port);
    const [resubscribe] = await second.requestCount(1);
    t.equal(resubscribe?.versionInfo, '1', 'the new stream says which version it holds');
    second.push('2', [fooAt(9)]);
    await waitFor('version 2 after the reconnect', async () => (await limitViaJson(proc)) === 9, 5000, 50);
    t.pass('the push after the restart is applied');
    t.match(proc.stderr, /xDS stream failed; reconnecting/, 'the lost stream is logged');
  });
}

t.test('without a server the start waits for the first configuration, unless FORCE_START_WITHOUT_INITIAL_CONFIG', async (t) => {
  const port = await freePort('127.0.0.1');
  const waiting = spawnProcess(t, { ...LOCAL_LISTENERS_ENV, APIS: 'none', ...xdsEnv({ port }) });
  await waitFor('the wait to be logged', () => waiting.stderr.includes('waiting for the first configuration from the xDS server'), 10_000);
  t.notMatch(waiting.stderr, /msg="ready"/, 'nothing listens before a configuration arrives');

  // An operator's stop does not wait for a server that may never answer; DRAIN_TIMEOUT, the bound
  // of every stop, is set past the wait below so that only the wait's own end can pass.
  const stopped = spawnProcess(t, { ...LOCAL_LISTENERS_ENV, APIS: 'none', DRAIN_TIMEOUT: '60s', ...xdsEnv({ port }) });
  await waitFor('the second wait to be logged', () => stopped.stderr.includes('waiting for the first configuration from the xDS server'), 10_000);
  stopped.kill('SIGTERM');
  t.same(await stopped.waitForExit(15_000), { code: 0, signal: null }, 'SIGTERM while waiting for the first configuration ends the process, status 0');
  t.notMatch(stopped.stderr, /startup failed/, 'a stop, not a failed start');

  const server = await adsServer(t, port);
  await server.requestCount(1);
  server.push('1', [fooAt(4)]);
  await waiting.listening();
  t.equal(await limitViaJson(waiting), 4, 'ready with the first configuration');

  const forced = await startProcess(t, xdsEnv({ port: await freePort('127.0.0.1') }, { FORCE_START_WITHOUT_INITIAL_CONFIG: 'true', HEALTHY_WITH_AT_LEAST_ONE_CONFIG_LOADED: 'true' }));
  const answer = await forced.post(ask);
  t.equal(answer.status, 400, 'forced: listening at once, with no configuration yet');
  t.match(`${answer.text} ${answer.headers['x-ratelimit-error'] ?? ''}`, /no rate limit configuration loaded/);
  t.equal((await forced.request('/healthcheck')).status, 500, 'and unhealthy until one arrives (HEALTHY_WITH_AT_LEAST_ONE_CONFIG_LOADED)');
});

t.test('TLS with a client certificate the server requires; the SAN override names the server', async (t) => {
  const certs = await generateCerts(t);
  const server = new AdsServer();
  // The server requires a client certificate from the test CA.
  await server.listen(grpc.ServerCredentials.createSsl(certs.ca.cert, [{ cert_chain: certs.server.cert, private_key: certs.server.key }], true));
  t.teardown(() => server.stop());
  const tls = {
    CONFIG_GRPC_XDS_SERVER_USE_TLS: 'true',
    CONFIG_GRPC_XDS_SERVER_TLS_CACERT: certs.ca.certFile,
    CONFIG_GRPC_XDS_CLIENT_TLS_CERT: certs.clientEnvoy.certFile,
    CONFIG_GRPC_XDS_CLIENT_TLS_KEY: certs.clientEnvoy.keyFile,
    CONFIG_GRPC_XDS_SERVER_TLS_SAN: 'localhost',
  };
  const starting = startProcess(t, xdsEnv(server, tls));
  await server.requestCount(1);
  server.push('1', [fooAt(6)]);
  const proc = await starting;
  t.equal(await limitViaJson(proc), 6, 'the configuration came over TLS');

  // Without the client certificate the server refuses the handshake: no configuration arrives.
  const anonymous = spawnProcess(t, { ...LOCAL_LISTENERS_ENV, APIS: 'none', ...xdsEnv(server, { ...tls, CONFIG_GRPC_XDS_CLIENT_TLS_CERT: '', CONFIG_GRPC_XDS_CLIENT_TLS_KEY: '' }) });
  // The certificate names localhost and 127.0.0.1: a SAN override of another name must be refused.
  const misnamed = spawnProcess(t, { ...LOCAL_LISTENERS_ENV, APIS: 'none', ...xdsEnv(server, { ...tls, CONFIG_GRPC_XDS_SERVER_TLS_SAN: 'elsewhere.example' }) });
  await Promise.all([
    waitFor('the refused stream to be logged', () => anonymous.stderr.includes('xDS stream failed; reconnecting'), 10_000),
    waitFor('the misnamed server to be refused', () => misnamed.stderr.includes('xDS stream failed; reconnecting'), 10_000),
  ]);
  t.equal(server.requests.filter((r) => r.versionInfo === '').length, 1, 'only the client with a certificate, expecting the right name, subscribed');
});

t.test('a discovery response over XDS_CLIENT_MAX_MSG_SIZE_IN_BYTES fails the stream; the rules in service stay', async (t) => {
  const server = await adsServer(t);
  const starting = startProcess(t, xdsEnv(server, { XDS_CLIENT_MAX_MSG_SIZE_IN_BYTES: '2000' }));
  await server.requestCount(1);
  server.push('1', [fooAt(3)]);
  const proc = await starting;
  const many = Array.from({ length: 100 }, (_, i) => ({ key: 'user', value: `u${i}`, rateLimit: { unit: MINUTE, requestsPerUnit: 1 } }));
  const subscribed = server.requests.filter((r) => r.responseNonce === '').length;
  server.push('2', [{ name: 'big', domain: 'big', descriptors: many }]);
  await waitFor('the stream to fail on the size', () => /xDS stream failed; reconnecting.*(RESOURCE_EXHAUSTED|larger than max)/i.test(proc.stderr), 10_000);
  t.equal(await limitViaJson(proc), 3, 'version 1 still answers');
  await waitFor('a new subscription', () => server.requests.filter((r) => r.responseNonce === '').length > subscribed, 10_000);
  server.push('3', [fooAt(8)]);
  await waitFor('version 3 after the reconnect', async () => (await limitViaJson(proc)) === 8, 5000, 50);
  t.pass('a response within the limit is applied after the reconnect');
});
