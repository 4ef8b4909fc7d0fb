/**
 * Interoperability of the whole process (`node dist/src/main.js`) with a gRPC C-core client
 * (Debian python3-grpcio, test/support/python/rls_client.py, hand-encoded protobuf) in plain,
 * TLS and mutual TLS modes, and with grpc-js and C-core over a unix socket (GRPC_UDS).
 *
 * The clock is real, so the rules used are DAY limits (another.yaml key4: 20/DAY) and
 * durationUntilReset is checked against the seconds left in the current UTC day.
 */
import { join } from 'node:path';
import t, { type Test } from 'tap';
import { generateCerts } from '../support/certs.js';
import { RlsClient, Status, toGrpcRequest, toJsonShape } from '../support/grpc-client.js';
import { runtimeRoot, startProcess, type ServiceProcess } from '../support/process-harness.js';
import { runPythonClient, type PythonCall, type PythonResult, type PythonSpec } from '../support/python/python-client.js';
import { D, fixture } from '../support/service-inputs.js';
import { tempDir } from '../support/temp-dir.js';

/** A RUNTIME_ROOT with another.yaml in config/. */
async function anotherRoot(t: Test): Promise<string> {
  return (await runtimeRoot(t, { 'another.yaml': fixture('another.yaml') })).root;
}

const DAY = 86_400;

/** The calls every mode makes, on a descriptor value unique to the mode. */
function calls(value: string): PythonCall[] {
  const descriptor = D('key4', value);
  return [
    { method: 'ShouldRateLimit', request: { domain: 'another', descriptors: [{ ...descriptor, hitsAddend: 19 }] } },
    { method: 'ShouldRateLimit', request: { domain: 'another', descriptors: [descriptor] } },
    { method: 'ShouldRateLimit', request: { domain: 'another', descriptors: [descriptor] } },
    { method: 'ShouldRateLimit', request: { domain: 'another', descriptors: [{ ...descriptor, hitsAddend: 0 }, D('unmatched', 'x')] } },
    { method: 'ShouldRateLimit', request: { domain: '', descriptors: [descriptor] } },
    { method: 'ShouldRateLimit', request: { domain: 'another', descriptors: [] } },
    { method: 'Check', service: '' },
    { method: 'Check', service: 'ratelimit' },
    { method: 'Check', service: 'no.such.Service' },
  ];
}

/** Replaces the real-clock Duration with a marker after checking it is within the current day. */
function withoutReset(t: Test, result: PythonResult | undefined, before: number, after: number): unknown {
  if (result === undefined || !result.ok || !('response' in result)) return result;
  const statuses = (result.response['statuses'] as Array<Record<string, unknown>> | undefined) ?? [];
  const high = DAY - (before % DAY);
  const low = DAY - (after % DAY);
  return {
    ...result,
    response: {
      ...result.response,
      statuses: statuses.map((s) => {
        if (s['durationUntilReset'] === undefined) return s;
        const seconds = parseInt(String(s['durationUntilReset']), 10);
        t.ok(String(s['durationUntilReset']).endsWith('s') && seconds >= low && seconds <= high, `durationUntilReset ${String(s['durationUntilReset'])} in [${low}, ${high}]`);
        return { ...s, durationUntilReset: 'DAY' };
      }),
    },
  };
}

const limit = { requestsPerUnit: 20, unit: 'DAY' };
const EXPECTED: unknown[] = [
  { ok: true, response: { overallCode: 'OK', statuses: [{ code: 'OK', currentLimit: limit, limitRemaining: 1, durationUntilReset: 'DAY' }] } },
  { ok: true, response: { overallCode: 'OK', statuses: [{ code: 'OK', currentLimit: limit, durationUntilReset: 'DAY' }] } },
  { ok: true, response: { overallCode: 'OVER_LIMIT', statuses: [{ code: 'OVER_LIMIT', currentLimit: limit, durationUntilReset: 'DAY' }] } },
  { ok: true, response: { overallCode: 'OVER_LIMIT', statuses: [{ code: 'OVER_LIMIT', currentLimit: limit, durationUntilReset: 'DAY' }, { code: 'OK' }] } },
  { ok: false, code: 2, codeName: 'UNKNOWN', details: 'rate limit domain must not be empty' },
  { ok: false, code: 2, codeName: 'UNKNOWN', details: 'rate limit descriptor list must not be empty' },
  { ok: true, status: 'SERVING' },
  { ok: true, status: 'SERVING' },
  { ok: false, code: 5, codeName: 'NOT_FOUND', details: 'unknown service' },
];

async function expectDecisions(t: Test, proc: ServiceProcess, spec: Omit<PythonSpec, 'calls'>, value: string): Promise<void> {
  const before = Math.floor(Date.now() / 1000);
  const out = await runPythonClient({ ...spec, calls: calls(value) });
  const after = Math.floor(Date.now() / 1000);
  t.match(out.grpcVersion, /^\d+\.\d+/, `C-core client grpcio ${out.grpcVersion}`);
  t.same(
    out.results.map((r) => withoutReset(t, r, before, after)),
    EXPECTED,
    `${spec.mode}: decisions, errors and health as expected`,
  );
  t.equal(await proc.stat('ratelimit_server.ShouldRateLimit.total_requests'), 6, 'six ShouldRateLimit calls counted');
  t.equal(await proc.stat('ratelimit.service.rate_limit.another.key4.total_hits'), 21, 'key4 total_hits: 19 + 1 + 1 (+0)');
  t.equal(await proc.stat('ratelimit.service.call.should_rate_limit.service_error'), 2);
}

t.test('C-core client over plaintext', async (t) => {
  const proc = await startProcess(t, { RUNTIME_ROOT: await anotherRoot(t) });
  await expectDecisions(t, proc, { target: proc.grpcAddress, mode: 'plain' }, 'plain');

  // The same request over /json and over grpc-js gives what C-core got (one more hit each).
  const grpcJs = new RlsClient(proc.grpcAddress);
  t.teardown(() => grpcJs.close());
  const viaJs = await grpcJs.call(toGrpcRequest({ domain: 'another', descriptors: [{ ...D('key4', 'plain'), hitsAddend: 0 }] }));
  const viaJson = await proc.post({ domain: 'another', descriptors: [{ ...D('key4', 'plain'), hitsAddend: 0 }] });
  t.equal(viaJson.status, 429);
  // The two calls may straddle a second: durationUntilReset is compared by the shared helper.
  const viaJsResult: PythonResult | undefined = viaJs.ok ? { ok: true, response: toJsonShape(viaJs.response) } : undefined;
  const viaJsonResult: PythonResult = { ok: true, response: viaJson.json as Record<string, unknown> };
  const now = Math.floor(Date.now() / 1000);
  t.same(withoutReset(t, viaJsResult, now - 2, now), withoutReset(t, viaJsonResult, now - 2, now), 'grpc-js and /json agree');
  t.same(withoutReset(t, viaJsResult, now - 2, now), EXPECTED[2], 'OVER_LIMIT: 21 of 20 used');
});

t.test('C-core client over TLS (server certificate checked against the CA)', async (t) => {
  const certs = await generateCerts(t);
  const proc = await startProcess(t, {
    RUNTIME_ROOT: await anotherRoot(t),
    GRPC_SERVER_USE_TLS: 'true',
    GRPC_SERVER_TLS_CERT: certs.server.certFile,
    GRPC_SERVER_TLS_KEY: certs.server.keyFile,
  });
  await expectDecisions(t, proc, { target: proc.grpcAddress, mode: 'tls', ca: certs.ca.certFile }, 'tls');

  const plain = await runPythonClient({ target: proc.grpcAddress, mode: 'plain', timeout: 2, calls: [{ method: 'Check', service: '' }] });
  t.match(plain.results[0], { ok: false, code: Status.UNAVAILABLE }, 'a plaintext client cannot talk to the TLS port');
  const wrongCa = await runPythonClient({ target: proc.grpcAddress, mode: 'tls', ca: certs.foreignCa.certFile, timeout: 2, calls: [{ method: 'Check', service: '' }] });
  t.match(wrongCa.results[0], { ok: false, code: Status.UNAVAILABLE }, 'a client trusting another CA refuses the server');
});

t.test('C-core client over mutual TLS', async (t) => {
  const certs = await generateCerts(t);
  const proc = await startProcess(t, {
    RUNTIME_ROOT: await anotherRoot(t),
    GRPC_SERVER_USE_TLS: 'true',
    GRPC_SERVER_TLS_CERT: certs.server.certFile,
    GRPC_SERVER_TLS_KEY: certs.server.keyFile,
    GRPC_CLIENT_TLS_CACERT: certs.ca.certFile,
    GRPC_CLIENT_TLS_SAN: 'envoy.internal',
  });
  await expectDecisions(
    t,
    proc,
    { target: proc.grpcAddress, mode: 'mtls', ca: certs.ca.certFile, cert: certs.clientEnvoy.certFile, key: certs.clientEnvoy.keyFile },
    'mtls',
  );
  const noCert = await runPythonClient({ target: proc.grpcAddress, mode: 'tls', ca: certs.ca.certFile, timeout: 2, calls: [{ method: 'Check', service: '' }] });
  t.match(noCert.results[0], { ok: false, code: Status.UNAVAILABLE }, 'no client certificate: the handshake is refused');
  const otherSan = await runPythonClient({
    target: proc.grpcAddress,
    mode: 'mtls',
    ca: certs.ca.certFile,
    cert: certs.clientOther.certFile,
    key: certs.clientOther.keyFile,
    calls: [{ method: 'ShouldRateLimit', request: { domain: 'another', descriptors: [D('key4', 'x')] } }, { method: 'Check', service: 'ratelimit' }],
  });
  t.match(otherSan.results, [
    { ok: false, code: Status.UNAUTHENTICATED },
    { ok: false, code: Status.UNAUTHENTICATED },
  ], 'DNS:other.internal is refused per call');
});

t.test('GRPC_UDS: grpc-js and C-core over a unix socket', async (t) => {
  const dir = await tempDir(t, 'rl-grpc-uds-');
  const socket = join(dir, 'rls.sock');
  const proc = await startProcess(t, { RUNTIME_ROOT: await anotherRoot(t), GRPC_UDS: socket });
  t.equal(proc.grpcAddress, `unix:${socket}`, 'the listening line names the socket');

  const client = new RlsClient(`unix:${socket}`);
  t.teardown(() => client.close());
  const first = await client.call(toGrpcRequest({ domain: 'another', descriptors: [{ ...D('key4', 'uds'), hitsAddend: 5 }] }));
  t.match(first.ok && toJsonShape(first.response), { overallCode: 'OK', statuses: [{ code: 'OK', currentLimit: limit, limitRemaining: 15 }] }, 'grpc-js over unix:');
  const health = await client.check('ratelimit');
  t.same(health, { ok: true, response: 'SERVING' });

  const py = await runPythonClient({
    target: `unix:${socket}`,
    mode: 'plain',
    calls: [{ method: 'ShouldRateLimit', request: { domain: 'another', descriptors: [D('key4', 'uds')] } }, { method: 'Check', service: 'ratelimit' }],
  });
  t.match(py.results, [{ ok: true, response: { overallCode: 'OK', statuses: [{ code: 'OK', currentLimit: limit, limitRemaining: 14 }] } }, { ok: true, status: 'SERVING' }], 'C-core over unix:');

  proc.kill('SIGTERM');
  t.same(await proc.waitForExit(), { code: 0, signal: null }, 'exits 0 on SIGTERM');
});
