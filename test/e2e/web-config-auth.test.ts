/**
 * WEB_CONFIG_FILE's basic auth and headers on the whole process, over TLS served by uWS on two
 * HTTP threads: the real amtool (with `--http.config.file`: basic auth and the CA) works with
 * the right password and is refused with a wrong one; Alertmanager's paths answer 401 with
 * `WWW-Authenticate: Basic` as exporter-toolkit does, the decision routes and the score API do
 * not ask; the configured headers are on every response; a password changed in the file takes
 * effect without a restart.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import bcrypt from 'bcryptjs';
import t from 'tap';
import { amtool } from '../support/amtool.js';
import { generateCerts } from '../support/certs.js';
import { httpsRequest } from '../support/https-client.js';
import { runtimeRoot, startProcess } from '../support/process-harness.js';
import { D, fixture } from '../support/service-inputs.js';
import { waitFor } from '../support/wait-for.js';
import { tempDir } from '../support/temp-dir.js';

t.test('basic auth of the Alertmanager paths, with amtool, over uWS TLS', async (t) => {
  const certs = await generateCerts(t);
  const dir = await tempDir(t, 'rl-web-auth-');
  const webConfig = join(dir, 'web.yml');
  const writeWebConfig = (password: string) =>
    writeFile(
      webConfig,
      [
        'tls_server_config:',
        `  cert_file: ${certs.server.certFile}`,
        `  key_file: ${certs.server.keyFile}`,
        'http_server_config:',
        '  headers:',
        '    X-Frame-Options: deny',
        '    Strict-Transport-Security: max-age=31536000',
        'basic_auth_users:',
        `  alice: '${bcrypt.hashSync(password, 4)}'`,
        '',
      ].join('\n'),
    );
  await writeWebConfig('s3cret');
  const proc = await startProcess(t, {
    APIS: 'alerts,scores',
    RUNTIME_ROOT: (await runtimeRoot(t, { 'basic.yaml': fixture('basic.yaml') })).root,
    WEB_CONFIG_FILE: webConfig,
    WEB_CONFIG_RELOAD_INTERVAL: '50ms',
    HTTP_WORKERS: '2',
  });
  const base = `https://127.0.0.1:${proc.httpPort}`;
  const ca = certs.ca.cert;

  const amtoolConfig = async (name: string, password: string) => {
    const file = join(dir, name);
    await writeFile(file, `basic_auth:\n  username: alice\n  password: ${password}\ntls_config:\n  ca_file: ${certs.ca.certFile}\n`);
    return file;
  };
  const good = await amtoolConfig('amtool-good.yml', 's3cret');
  const add = await amtool(base, ['--http.config.file', good, 'alert', 'add', 'alertname=web_config_auth', 'severity=warning']);
  t.equal(add.code, 0, `amtool alert add with the right password (stderr: ${add.stderr})`);
  const query = await amtool(base, ['--http.config.file', good, 'alert', 'query']);
  t.equal(query.code, 0, `amtool alert query (stderr: ${query.stderr})`);
  t.match(query.stdout, /web_config_auth/, 'the alert it added is there');

  const wrong = await amtool(base, ['--http.config.file', await amtoolConfig('amtool-wrong.yml', 'guess'), 'alert', 'query']);
  t.not(wrong.code, 0, 'amtool with a wrong password fails');
  t.match(wrong.stderr, /401|[Uu]nauthorized/, `and says why: ${wrong.stderr.trim()}`);

  const anonymous = await httpsRequest(`${base}/api/v2/status`, { ca });
  t.equal(anonymous.status, 401, 'no credentials: 401');
  t.equal(anonymous.headers['www-authenticate'], 'Basic');
  t.equal(anonymous.headers['content-type'], 'text/plain; charset=utf-8');
  t.equal(anonymous.text, 'Unauthorized\n', "Go's http.Error body, as exporter-toolkit answers");
  for (const path of ['/api/v1/alerts', '/-/healthy', '/-/ready', '/api/v2/alerts/groups']) {
    const r = await httpsRequest(`${base}${path}`, { ca, auth: 'alice:guess' });
    t.equal(r.status, 401, `${path} with a wrong password: 401`);
  }
  const mallory = await httpsRequest(`${base}/api/v2/status`, { ca, auth: 'mallory:s3cret' });
  t.equal(mallory.status, 401, 'a user the file does not name: 401');
  const status = await httpsRequest(`${base}/api/v2/status`, { ca, auth: 'alice:s3cret' });
  t.equal(status.status, 200, 'the right password: 200');
  t.equal((JSON.parse(status.text) as { cluster?: { status?: string } }).cluster?.status, 'disabled');

  const decision = await httpsRequest(`${base}/json`, { ca, method: 'POST', body: JSON.stringify({ domain: 'basic', descriptors: [D('key1', 'web')] }) });
  t.equal(decision.status, 200, '/json over TLS needs no password');
  t.match(JSON.parse(decision.text), { overallCode: 'OK' });
  t.equal((await httpsRequest(`${base}/healthcheck`, { ca })).status, 200, '/healthcheck needs none');
  const scores = await httpsRequest(`${base}/v2/me`, { ca });
  t.equal(scores.status, 401, 'the score API answers for its own bearer tokens...');
  t.equal(scores.headers['www-authenticate'], undefined, '...not with a basic auth challenge');
  t.match(JSON.parse(scores.text), { code: 'UNAUTHORIZED' });

  for (const r of [anonymous, status, decision, scores]) {
    t.equal(r.headers['x-frame-options'], 'deny', 'the configured headers are on every response');
    t.equal(r.headers['strict-transport-security'], 'max-age=31536000');
  }

  // The password changes in the file: the service takes it within a poll, without a restart.
  await writeWebConfig('n3w-s3cret');
  await waitFor('the new password to work', async () => (await httpsRequest(`${base}/api/v2/status`, { ca, auth: 'alice:n3w-s3cret' })).status === 200);
  t.equal((await httpsRequest(`${base}/api/v2/status`, { ca, auth: 'alice:s3cret' })).status, 401, 'the old password no longer does');
  const reloaded = await amtool(base, ['--http.config.file', await amtoolConfig('amtool-new.yml', 'n3w-s3cret'), 'alert', 'query']);
  t.equal(reloaded.code, 0, 'amtool with the new password');
  t.match(reloaded.stdout, /web_config_auth/, 'the alerts are still there');
  await proc.stop();
  t.same(await proc.exited, { code: 0, signal: null }, 'SIGTERM: exit 0');
});
