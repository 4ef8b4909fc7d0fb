/**
 * Node's TLS in front of the HTTP threads, for the client certificate policies uWS cannot apply:
 * RequireAnyClientCert with client_allowed_sans closes a connection without a certificate or
 * without an allowed SAN, VerifyClientCertIfGiven lets a client without one in but not one with
 * a certificate from another CA, and a new plan applies to new connections. A real plain HTTP
 * server stands for the HTTP threads.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import t, { type Test } from 'tap';
import { startTlsTerminator, type TlsTerminator } from '../../../../src/transports/http/index.js';
import { nodeTlsPlan, parseWebConfig, type TlsServerConfig } from '../../../../src/transports/http/web-config/index.js';
import { generateCerts, type KeyPair } from '../../../support/certs.js';
import { httpsRefusal, httpsRequest } from '../../../support/https-client.js';

const certs = await generateCerts(t);
const behind = createServer((req, res) => res.end(`plain ${req.url ?? ''}`));
await new Promise<void>((resolve) => behind.listen(0, '127.0.0.1', resolve));
t.teardown(() => new Promise((resolve) => behind.close(resolve)));
const target = { host: '127.0.0.1', port: (behind.address() as AddressInfo).port };

/** The file's defaults (read from a file naming only the certificate and key), with `overrides`. */
function config(overrides: Partial<TlsServerConfig>): TlsServerConfig {
  const parsed = parseWebConfig(`tls_server_config: {cert_file: ${certs.server.certFile}, key_file: ${certs.server.keyFile}}`, '/');
  if (!parsed.ok || parsed.config.tls === undefined) throw new Error('the minimal web configuration did not parse');
  return { ...parsed.config.tls, ...overrides };
}

const material = (server: KeyPair = certs.server) => ({ cert: server.cert, key: server.key, ca: certs.ca.cert });
const client = (pair?: KeyPair) => ({ ca: certs.ca.cert, ...(pair === undefined ? {} : { cert: pair.cert, key: pair.key }) });

async function terminator(t: Test, tls: TlsServerConfig, refusals: string[]): Promise<TlsTerminator> {
  const started = await startTlsTerminator({ host: '127.0.0.1', port: 0, target, plan: nodeTlsPlan(tls, material()), onRefused: (reason) => refusals.push(reason) });
  t.teardown(() => started.close(0));
  return started;
}

t.test('RequireAnyClientCert with client_allowed_sans', async (t) => {
  const refusals: string[] = [];
  const tls = await terminator(t, config({ clientAuthType: 'RequireAnyClientCert', clientAllowedSans: ['envoy.internal'] }), refusals);
  const url = `https://127.0.0.1:${tls.port}/x`;
  const served = await httpsRequest(url, client(certs.clientEnvoy));
  t.same([served.status, served.text], [200, 'plain /x'], 'DNS:envoy.internal is handed to the server behind');
  t.equal(served.serverFingerprint, certs.server.fingerprint256);
  t.ok(await httpsRefusal(url, client(certs.clientOther)), 'DNS:other.internal is closed');
  t.ok(await httpsRefusal(url, client()), 'no certificate is closed');
  const foreign = await httpsRequest(url, client(certs.foreignClient));
  t.equal(foreign.status, 200, 'RequireAnyClientCert does not verify: a certificate from another CA with the allowed SAN is served, as in Go');
  t.same(refusals, ['client certificate carries none of client_allowed_sans', 'no client certificate']);
});

t.test('VerifyClientCertIfGiven, then a new plan for new connections', async (t) => {
  const refusals: string[] = [];
  const tls = await terminator(t, config({ clientAuthType: 'VerifyClientCertIfGiven', clientCaFile: certs.ca.certFile }), refusals);
  const url = `https://127.0.0.1:${tls.port}/y`;
  t.equal((await httpsRequest(url, client())).status, 200, 'no certificate: served');
  t.equal((await httpsRequest(url, client(certs.clientEnvoy))).status, 200, 'a verified certificate: served');
  t.ok(await httpsRefusal(url, client(certs.foreignClient)), 'a certificate from another CA: closed');
  t.match(refusals, [/^client certificate not verified: /]);

  tls.update(nodeTlsPlan(config({ clientAuthType: 'RequireAndVerifyClientCert', clientCaFile: certs.ca.certFile }), material(certs.server2)));
  t.match(await httpsRefusal(url, client()), /certificate required|socket hang up|ECONNRESET/, 'after the update, no certificate is refused in the handshake');
  const rotated = await httpsRequest(url, client(certs.clientEnvoy));
  t.equal(rotated.serverFingerprint, certs.server2.fingerprint256, 'and new connections get the new certificate');
  t.throws(() => tls.update(nodeTlsPlan(config({}), { cert: certs.server.cert, key: certs.server2.key, ca: undefined })), 'a certificate with the wrong key is refused...');
  t.equal((await httpsRequest(url, client(certs.clientEnvoy))).serverFingerprint, certs.server2.fingerprint256, '...and the running one stays');
});
