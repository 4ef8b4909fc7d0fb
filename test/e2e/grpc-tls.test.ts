/**
 * TLS on the gRPC port of the whole process: mutual TLS refuses clients without a certificate or
 * with one from another CA, GRPC_CLIENT_TLS_SAN refuses a certificate without the required DNS
 * SAN (UNAUTHENTICATED) and serves one with it, and the server certificate is rotated under
 * traffic (GRPC_TLS_RELOAD_INTERVAL=100ms) without failing calls.
 */
import { renameSync } from 'node:fs';
import { rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { connect, type PeerCertificate } from 'node:tls';
import t, { type Test } from 'tap';
import { generateCerts, rotatableServerCerts, type CertSet } from '../support/certs.js';
import { RlsClient, Status, toJsonShape, type GrpcResult } from '../support/grpc-client.js';
import { runtimeRoot, startProcess } from '../support/process-harness.js';
import { D, fixture } from '../support/service-inputs.js';
import { waitFor } from '../support/wait-for.js';
import { tempDir } from '../support/temp-dir.js';

async function basicRoot(t: Test): Promise<string> {
  return (await runtimeRoot(t, { 'basic.yaml': fixture('basic.yaml') })).root;
}

/** The certificate the server presents to a new TLS connection (ALPN h2, as gRPC clients use). */
function servedCertificate(port: number, ca: Buffer): Promise<PeerCertificate> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port, servername: 'localhost', ca, ALPNProtocols: ['h2'] }, () => {
      const cert = socket.getPeerCertificate();
      socket.destroy();
      resolve(cert);
    });
    socket.setTimeout(2000, () => {
      socket.destroy();
      reject(new Error('TLS connect timed out'));
    });
    socket.on('error', reject);
  });
}

const describe = (r: GrpcResult<unknown>): string => (r.ok ? 'ok' : `${Status[r.code] ?? r.code}: ${r.details}`);

t.test('mutual TLS with GRPC_CLIENT_TLS_SAN=envoy.internal', async (t) => {
  const certs = await generateCerts(t);
  const proc = await startProcess(t, {
    RUNTIME_ROOT: await basicRoot(t),
    GRPC_SERVER_USE_TLS: 'true',
    GRPC_SERVER_TLS_CERT: certs.server.certFile,
    GRPC_SERVER_TLS_KEY: certs.server.keyFile,
    GRPC_CLIENT_TLS_CACERT: certs.ca.certFile,
    GRPC_CLIENT_TLS_SAN: 'envoy.internal',
  });
  const target = proc.grpcAddress;
  const request = { domain: 'basic', descriptors: [D('one_per_minute', 'mtls')] };
  const client = (tls?: ConstructorParameters<typeof RlsClient>[1]) => {
    const c = new RlsClient(target, tls);
    t.teardown(() => c.close());
    return c;
  };

  const noCert = await client({ ca: certs.ca.cert }).call(request, { timeoutMs: 3000 });
  t.equal(noCert.ok ? 'ok' : noCert.code, Status.UNAVAILABLE, `no client certificate: refused (${describe(noCert)})`);

  const foreign = await client({ ca: certs.ca.cert, cert: certs.foreignClient.cert, key: certs.foreignClient.key }).call(request, { timeoutMs: 3000 });
  t.equal(foreign.ok ? 'ok' : foreign.code, Status.UNAVAILABLE, `client certificate from another CA: refused (${describe(foreign)})`);

  const plain = await client().call(request, { timeoutMs: 3000 });
  t.equal(plain.ok ? 'ok' : plain.code, Status.UNAVAILABLE, `plaintext client: refused (${describe(plain)})`);

  const other = client({ ca: certs.ca.cert, cert: certs.clientOther.cert, key: certs.clientOther.key });
  const otherCall = await other.call(request);
  t.equal(otherCall.ok ? 'ok' : otherCall.code, Status.UNAUTHENTICATED, 'DNS:other.internal: UNAUTHENTICATED');
  t.equal(otherCall.ok ? '' : otherCall.details, 'client certificate does not carry the DNS name GRPC_CLIENT_TLS_SAN requires');
  const otherCheck = await other.check('ratelimit');
  t.equal(otherCheck.ok ? 'ok' : otherCheck.code, Status.UNAUTHENTICATED, 'DNS:other.internal: health Check is refused too');
  const otherWatch = other.watch('ratelimit');
  await waitFor('the refused Watch to end', () => otherWatch.ended);
  t.equal(otherWatch.error?.code, Status.UNAUTHENTICATED, 'DNS:other.internal: Watch is refused too');
  t.same(otherWatch.statuses, []);
  t.equal((await proc.stat('ratelimit.service.rate_limit.basic.one_per_minute.total_hits')) ?? 0, 0, 'refused calls counted nothing');

  const envoy = client({ ca: certs.ca.cert, cert: certs.clientEnvoy.cert, key: certs.clientEnvoy.key });
  const first = await envoy.call(request);
  t.match(first.ok && toJsonShape(first.response), { overallCode: 'OK', statuses: [{ code: 'OK', currentLimit: { requestsPerUnit: 1, unit: 'MINUTE' } }] }, 'DNS:envoy.internal is served');
  t.notOk(first.ok && (toJsonShape(first.response)['statuses'] as Array<Record<string, unknown>>)[0]?.['limitRemaining'], 'remaining 0 after the only hit');
  const second = await envoy.call(request);
  t.match(second.ok && toJsonShape(second.response), { overallCode: 'OVER_LIMIT' }, 'and its second call is over the 1/minute limit');
  t.same(await envoy.check('ratelimit'), { ok: true, response: 'SERVING' });
  t.equal(await proc.stat('ratelimit.service.rate_limit.basic.one_per_minute.total_hits'), 2);
});

async function tlsProcess(t: Test, certs: CertSet) {
  const { certFile, keyFile, replace } = await rotatableServerCerts(t, certs, 'rl-grpc-rotate-');
  const proc = await startProcess(t, {
    RUNTIME_ROOT: await basicRoot(t),
    GRPC_SERVER_USE_TLS: 'true',
    GRPC_SERVER_TLS_CERT: certFile,
    GRPC_SERVER_TLS_KEY: keyFile,
    GRPC_TLS_RELOAD_INTERVAL: '100ms',
  });
  return { proc, certFile, keyFile, replace, port: Number(proc.grpcTarget) };
}

t.test('certificate rotation under traffic', async (t) => {
  const certs = await generateCerts(t);
  const { proc, certFile, keyFile, port } = await tlsProcess(t, certs);
  t.equal((await servedCertificate(port, certs.ca.cert)).fingerprint256, certs.server.fingerprint256, 'serves the first certificate');

  const longLived = new RlsClient(proc.grpcAddress, { ca: certs.ca.cert });
  t.teardown(() => longLived.close());
  await longLived.ready();

  const failures: string[] = [];
  let longLivedCalls = 0;
  let freshCalls = 0;
  let stop = false;
  const request = { domain: 'basic', descriptors: [D('key1', 'rotation')] };
  // One connection kept across the rotation, 4 calls in flight at a time...
  const longLoop = async () => {
    while (!stop) {
      const results = await Promise.all([0, 1, 2, 3].map(() => longLived.call(request)));
      for (const r of results) {
        longLivedCalls++;
        if (!r.ok) failures.push(`long-lived connection: ${describe(r)}`);
      }
    }
  };
  // ...and a new connection (new TLS handshake) for every call.
  const freshLoop = async () => {
    while (!stop) {
      const fresh = new RlsClient(proc.grpcAddress, { ca: certs.ca.cert });
      const r = await fresh.call(request, { timeoutMs: 3000 });
      fresh.close();
      freshCalls++;
      if (!r.ok) failures.push(`new connection: ${describe(r)}`);
    }
  };
  const loops = Promise.all([longLoop(), freshLoop(), freshLoop()]);

  await waitFor('some traffic before the rotation', () => freshCalls >= 10 && longLivedCalls >= 40);
  // Both files staged first, then renamed one right after the other, synchronously: with two
  // async renames the busy event loop of this test can leave milliseconds between them, and a
  // mismatched pair makes the server drop new connections (see the next test).
  const dir = join(certFile, '..');
  await writeFile(join(dir, 'next.crt'), certs.server2.cert);
  await writeFile(join(dir, 'next.key'), certs.server2.key);
  const rotatedAt = Date.now();
  renameSync(join(dir, 'next.key'), keyFile);
  renameSync(join(dir, 'next.crt'), certFile);

  const seen = await waitFor(
    'new connections to see the new certificate',
    async () => {
      const cert = await servedCertificate(port, certs.ca.cert);
      return cert.fingerprint256 === certs.server2.fingerprint256 ? cert : undefined;
    },
    5000,
  );
  const switchedMs = Date.now() - rotatedAt;
  t.equal(seen.serialNumber.toUpperCase(), certs.server2.serialNumber, `new connections get serial ${certs.server2.serialNumber} (after ${switchedMs} ms)`);
  const callsAtSwitch = freshCalls + longLivedCalls;
  await waitFor('more traffic after the rotation', () => freshCalls + longLivedCalls >= callsAtSwitch + 40);
  stop = true;
  await loops;

  t.comment(`rotation: ${longLivedCalls} calls on the long-lived connection, ${freshCalls} on new connections, ${failures.length} failed; new certificate served after ${switchedMs} ms`);
  t.same(failures, [], 'no call failed during the rotation');
  t.ok(switchedMs < 2000, 'the new certificate is picked up within a few reload intervals');
  const after = await longLived.call(request);
  t.equal(after.ok, true, 'the long-lived connection (old certificate) keeps working');
  const fresh = new RlsClient(proc.grpcAddress, { ca: certs.ca.cert });
  t.teardown(() => fresh.close());
  t.equal((await fresh.check('ratelimit')).ok, true, 'a new client works with the new certificate');
});

t.test('a half-replaced pair (new certificate, old key) keeps new connections working', async (t) => {
  // Rotation tools often replace the certificate and the key as two separate renames. Between
  // them the files do not match; the server should keep serving the last good pair (upstream's
  // cert watcher keeps the old certificate when loading the new pair fails).
  const certs = await generateCerts(t);
  const { proc, certFile, keyFile, replace, port } = await tlsProcess(t, certs);
  await replace(certFile, certs.server2.cert);
  const halfAt = Date.now();
  const results: string[] = [];
  // Three reload intervals with only the certificate replaced, new connections all along.
  while (Date.now() - halfAt < 400) {
    const c = new RlsClient(proc.grpcAddress, { ca: certs.ca.cert });
    const r = await c.call({ domain: 'basic', descriptors: [D('key1', 'half')] }, { timeoutMs: 2000 });
    c.close();
    results.push(describe(r));
  }
  const failed = results.filter((r) => r !== 'ok');
  t.comment(`${results.length} new connections while the pair mismatched, ${failed.length} failed${failed.length ? `: ${failed[0]}` : ''}`);
  t.same(failed, [], 'no new connection is refused while the pair mismatches');
  t.equal((await servedCertificate(port, certs.ca.cert).catch((e: Error) => ({ fingerprint256: `error: ${e.message}` }))).fingerprint256, certs.server.fingerprint256, 'the last good certificate is still served');

  await replace(keyFile, certs.server2.key);
  await waitFor('the completed pair to be served', async () => (await servedCertificate(port, certs.ca.cert)).fingerprint256 === certs.server2.fingerprint256, 5000);
  const c = new RlsClient(proc.grpcAddress, { ca: certs.ca.cert });
  t.teardown(() => c.close());
  t.equal((await c.call({ domain: 'basic', descriptors: [D('key1', 'half')] })).ok, true, 'new connections work once the pair matches again');
});
