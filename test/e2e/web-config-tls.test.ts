/**
 * WEB_CONFIG_FILE's TLS on the whole process: uWS's TLS on every HTTP thread serves `/json` and
 * the alert API, and a certificate rotated on disk (certificate first, key after) is served to
 * new connections without a restart while requests keep succeeding; with
 * RequireAndVerifyClientCert (served by Node's TLS in front of the HTTP thread), a client without
 * a certificate, or with one from another CA, is refused in the handshake, and amtool with its
 * certificate is served; a file that does not load stops the start with the field named.
 */
import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import t, { type Test } from 'tap';
import { amtool } from '../support/amtool.js';
import { generateCerts, rotatableServerCerts, type CertSet } from '../support/certs.js';
import { httpsRefusal, httpsRequest } from '../support/https-client.js';
import { runtimeRoot, spawnProcess, startProcess } from '../support/process-harness.js';
import { httpRequest } from '../support/http-request.js';
import { D, fixture } from '../support/service-inputs.js';
import { waitFor } from '../support/wait-for.js';
import { tempDir } from '../support/temp-dir.js';

const decisionBody = JSON.stringify({ domain: 'basic', descriptors: [D('key1', 'tls')] });

const rotatableCerts = (t: Test, certs: CertSet) => rotatableServerCerts(t, certs, 'rl-web-tls-');

async function basicRoot(t: Test): Promise<string> {
  return (await runtimeRoot(t, { 'basic.yaml': fixture('basic.yaml') })).root;
}

t.test('uWS TLS on every HTTP thread, and a certificate rotated on disk served without a restart', async (t) => {
  const certs = await generateCerts(t);
  const files = await rotatableCerts(t, certs);
  const webConfig = join(files.dir, 'web.yml');
  await writeFile(webConfig, 'tls_server_config:\n  cert_file: server.crt\n  key_file: server.key\n');
  const proc = await startProcess(t, { APIS: 'alerts', RUNTIME_ROOT: await basicRoot(t), WEB_CONFIG_FILE: webConfig, WEB_CONFIG_RELOAD_INTERVAL: '50ms', HTTP_WORKERS: '2' });
  t.match(proc.output, /msg="web configuration loaded" file="[^"]+" tls="on every HTTP thread"/, 'the log says who serves TLS');
  const base = `https://127.0.0.1:${proc.httpPort}`;
  const ca = certs.ca.cert;

  const first = await httpsRequest(`${base}/json`, { ca, method: 'POST', body: decisionBody });
  t.equal(first.status, 200, '/json over TLS');
  t.match(JSON.parse(first.text), { overallCode: 'OK', statuses: [{ code: 'OK' }] });
  t.equal(first.serverFingerprint, certs.server.fingerprint256, 'the configured certificate');
  const status = await httpsRequest(`${base}/api/v2/status`, { ca });
  t.equal(status.status, 200, 'the alert API over TLS (no users configured: no password)');
  t.match((await httpRequest(`http://127.0.0.1:${proc.httpPort}/healthcheck`).catch((error: unknown) => ({ status: String(error) }))).status, /fetch failed|socket|ECONNRESET/i, 'plain HTTP is not served');
  const added = await amtool(base, ['--http.config.file', await amtoolHttpConfig(files.dir, certs), 'alert', 'add', 'alertname=over_tls']);
  t.equal(added.code, 0, `amtool over TLS (stderr: ${added.stderr})`);

  // Requests on new connections all through the rotation: none may fail.
  const failures: string[] = [];
  let served = 0;
  let stop = false;
  const traffic = (async () => {
    while (!stop) {
      try {
        const r = await httpsRequest(`${base}/json`, { ca, method: 'POST', body: decisionBody });
        if (r.status !== 200) failures.push(`status ${r.status}`);
        served++;
      } catch (error) {
        failures.push((error as Error).message);
      }
    }
  })();
  await waitFor('traffic before the rotation', () => served >= 5);
  await files.replace(files.certFile, certs.server2.cert);
  await files.replace(files.keyFile, certs.server2.key);
  const rotated = await waitFor(
    'new connections to get the rotated certificate',
    async () => {
      const r = await httpsRequest(`${base}/healthcheck`, { ca });
      return r.serverFingerprint === certs.server2.fingerprint256 && r;
    },
    10_000,
  );
  t.equal(rotated.status, 200, 'served with the rotated certificate');
  const after = served;
  await waitFor('traffic after the rotation', () => served >= after + 5);
  stop = true;
  await traffic;
  // Each HTTP thread closes its old listening socket once; Linux resets a connection still in
  // its accept queue then, unless net.ipv4.tcp_migrate_req moves it to the new socket.
  const migrates = (await readFile('/proc/sys/net/ipv4/tcp_migrate_req', 'utf8').catch(() => '0')).trim() === '1';
  if (migrates) t.same(failures, [], `${served} requests on new connections through the rotation, none failed`);
  else {
    t.ok(failures.length <= 2, `${served} requests on new connections through the rotation; at most one reset per HTTP thread: ${JSON.stringify(failures)}`);
    t.same(failures.filter((f) => !/ECONNRESET/.test(f)), [], 'and nothing else failed');
  }
  t.match(proc.output, /msg="web configuration reloaded"/);

  const tlsFiles = /tlsFiles="([^"]+)"/.exec(proc.output)?.[1] ?? '';
  t.ok(existsSync(tlsFiles), `the HTTP threads' copy of the certificate set is in ${tlsFiles} while the service runs`);
  await proc.stop();
  t.same(await proc.exited, { code: 0, signal: null }, 'SIGTERM: exit 0');
  t.notOk(existsSync(tlsFiles), 'and the copy is gone');
});

async function amtoolHttpConfig(dir: string, certs: CertSet, client?: { certFile: string; keyFile: string }): Promise<string> {
  const file = join(dir, client === undefined ? 'amtool.yml' : 'amtool-client.yml');
  const clientLines = client === undefined ? '' : `  cert_file: ${client.certFile}\n  key_file: ${client.keyFile}\n`;
  await writeFile(file, `tls_config:\n  ca_file: ${certs.ca.certFile}\n${clientLines}`);
  return file;
}

t.test('RequireAndVerifyClientCert: no certificate, or one from another CA, is refused in the handshake', async (t) => {
  const certs = await generateCerts(t);
  const files = await rotatableCerts(t, certs);
  const webConfig = join(files.dir, 'web.yml');
  await writeFile(
    webConfig,
    `tls_server_config:\n  cert_file: server.crt\n  key_file: server.key\n  client_auth_type: RequireAndVerifyClientCert\n  client_ca_file: ${certs.ca.certFile}\n`,
  );
  const proc = await startProcess(t, { APIS: 'alerts', RUNTIME_ROOT: await basicRoot(t), WEB_CONFIG_FILE: webConfig, WEB_CONFIG_RELOAD_INTERVAL: '50ms', HTTP_WORKERS: '0' });
  t.match(proc.output, /tls="on the main thread \(client_auth_type RequireAndVerifyClientCert\)"/);
  const base = `https://127.0.0.1:${proc.httpPort}`;
  const ca = certs.ca.cert;
  const client = { ca, cert: certs.clientEnvoy.cert, key: certs.clientEnvoy.key };

  t.match(await httpsRefusal(`${base}/healthcheck`, { ca }), /certificate required|socket hang up|ECONNRESET/, 'no client certificate: the handshake is refused');
  t.match(
    await httpsRefusal(`${base}/healthcheck`, { ca, cert: certs.foreignClient.cert, key: certs.foreignClient.key }),
    /unknown ca|socket hang up|ECONNRESET/i,
    'a certificate from another CA: refused',
  );
  const decision = await httpsRequest(`${base}/json`, { ...client, method: 'POST', body: decisionBody });
  t.equal(decision.status, 200, 'a certificate the client CA signed: /json is served');
  t.match(JSON.parse(decision.text), { overallCode: 'OK' });
  const added = await amtool(base, ['--http.config.file', await amtoolHttpConfig(files.dir, certs, certs.clientEnvoy), 'alert', 'add', 'alertname=mtls']);
  t.equal(added.code, 0, `amtool with its client certificate (stderr: ${added.stderr})`);
  const refused = await amtool(base, ['--http.config.file', await amtoolHttpConfig(files.dir, certs), 'alert', 'query']);
  t.not(refused.code, 0, 'amtool without one is refused');

  await files.replace(files.certFile, certs.server2.cert);
  await files.replace(files.keyFile, certs.server2.key);
  const rotated = await waitFor('the rotated certificate', async () => {
    const r = await httpsRequest(`${base}/healthcheck`, client);
    return r.serverFingerprint === certs.server2.fingerprint256 && r;
  });
  t.equal(rotated.status, 200, 'Node\'s TLS serves a rotated certificate to new connections too');
  t.match(await httpsRefusal(`${base}/healthcheck`, { ca }), /certificate required|socket hang up|ECONNRESET/, 'and still requires a client certificate');
  await proc.stop();
  t.same(await proc.exited, { code: 0, signal: null }, 'SIGTERM: exit 0');
});

t.test('a web configuration file that does not load stops the start, naming the field', async (t) => {
  const dir = await tempDir(t, 'rl-web-bad-');
  const webConfig = join(dir, 'web.yml');
  await writeFile(webConfig, 'tls_server_config:\n  cert_file: server.crt\n  key_file: server.key\n  min_version: TLS14\n');
  const proc = spawnProcess(t, { APIS: 'alerts', RUNTIME_ROOT: await basicRoot(t), WEB_CONFIG_FILE: webConfig });
  t.same(await proc.waitForExit(), { code: 1, signal: null }, 'exit code 1');
  t.match(proc.output, `startup failed: WEB_CONFIG_FILE ${webConfig}: line 4: tls_server_config.min_version: unknown TLS version \\"TLS14\\"`);
});
