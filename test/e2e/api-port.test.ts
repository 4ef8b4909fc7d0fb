/**
 * API_PORT: the alert and score APIs on a port of their own, served by a front thread of their
 * own, while PORT serves the decisions alone. amtool works against it unchanged, the web
 * configuration guards it as it guards PORT, a second instance on the same API_PORT refuses to
 * start, and SIGTERM stops the process with both ports.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import bcrypt from 'bcryptjs';
import t, { type Test } from 'tap';
import { amtool } from '../support/amtool.js';
import { runtimeRoot, spawnProcess, startProcess, type ServiceProcess } from '../support/process-harness.js';
import { httpRequest } from '../support/http-request.js';
import { D, fixture } from '../support/service-inputs.js';
import { tempDir } from '../support/temp-dir.js';

const ASK = { domain: 'basic', descriptors: [D('key1', 'v')] };

async function splitProcess(t: Test, env: Record<string, string> = {}): Promise<ServiceProcess> {
  const { root } = await runtimeRoot(t, { 'basic.yaml': fixture('basic.yaml') });
  return startProcess(t, { APIS: 'alerts,scores', RUNTIME_ROOT: root, API_PORT: '0', ...env });
}

async function checkSplit(t: Test, proc: ServiceProcess): Promise<void> {
  t.ok(proc.apiPort !== undefined && proc.apiPort !== proc.httpPort, `the ready line names API_PORT (${proc.apiPort}) beside PORT (${proc.httpPort})`);
  const api = proc.apiUrl;
  const posted = await httpRequest(`${api}/api/v2/alerts`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify([{ labels: { alertname: 'OnItsOwnPort' } }]) });
  t.equal(posted.status, 200, 'alerts are posted to API_PORT');
  const listed = await httpRequest(`${api}/api/v2/alerts`);
  t.same((listed.json as Array<{ labels: Record<string, string> }>).map((alert) => alert.labels['alertname']), ['OnItsOwnPort'], 'and listed there');
  const healthy = await httpRequest(`${api}/-/healthy`);
  t.equal(healthy.text, 'OK', "Alertmanager's /-/healthy on API_PORT");
  const scores = await httpRequest(`${api}/v2/nothing`);
  t.same(scores.json, { code: 'NOT_FOUND', message: 'no route GET /v2/nothing' }, 'the score API answers on API_PORT in its own form');
  t.equal((await httpRequest(`${api}/json`, { method: 'POST', body: JSON.stringify(ASK) })).status, 404, 'API_PORT decides nothing');

  t.equal((await proc.post(ASK)).status, 200, 'PORT decides');
  const alertsOnPort = await proc.request('/api/v2/alerts');
  t.equal(alertsOnPort.status, 404, 'PORT no longer serves the alert API');
  t.equal(alertsOnPort.text, '404 page not found\n');
  t.equal((await proc.request('/v2/nothing')).text, '404 page not found\n', 'nor the score API');
}

t.test('API_PORT serves the APIs on a thread of their own; PORT serves decisions alone (HTTP threads)', async (t) => {
  const proc = await splitProcess(t, { HTTP_WORKERS: '1' });
  await checkSplit(t, proc);
  const query = await amtool(proc.apiUrl, ['alert', 'query', '-o', 'simple']);
  t.equal(query.code, 0, `amtool against API_PORT: ${query.stderr}`);
  t.match(query.stdout, /OnItsOwnPort/, 'amtool lists the alert posted there');
  await proc.stop();
  t.equal((await proc.exited).code, 0, 'SIGTERM stops the process with both ports');
});

t.test('the same split when the main thread serves HTTP (HTTP_WORKERS=0)', async (t) => {
  await checkSplit(t, await splitProcess(t, { HTTP_WORKERS: '0' }));
});

t.test("the web configuration's basic auth guards Alertmanager's paths on API_PORT", async (t) => {
  const dir = await tempDir(t, 'rl-api-port-web-');
  const webConfig = join(dir, 'web.yml');
  await writeFile(webConfig, `basic_auth_users:\n  alice: '${bcrypt.hashSync('s3cret', 4)}'\n`);
  const proc = await splitProcess(t, { WEB_CONFIG_FILE: webConfig });
  const refused = await httpRequest(`${proc.apiUrl}/api/v2/status`);
  t.equal(refused.status, 401);
  t.equal(refused.headers['www-authenticate'], 'Basic');
  const admitted = await httpRequest(`${proc.apiUrl}/api/v2/status`, { headers: { authorization: `Basic ${Buffer.from('alice:s3cret').toString('base64')}` } });
  t.equal(admitted.status, 200);
  t.equal((await proc.post(ASK)).status, 200, 'decisions on PORT do not ask');
});

t.test('a second instance on the same API_PORT refuses to start and names it', async (t) => {
  const first = await splitProcess(t);
  const { root } = await runtimeRoot(t, { 'basic.yaml': fixture('basic.yaml') });
  const elsewhere = { HOST: '127.0.0.1', PORT: '0', GRPC_HOST: '127.0.0.1', GRPC_PORT: '0', DEBUG_HOST: '127.0.0.1', DEBUG_PORT: '0' };
  const second = spawnProcess(t, { APIS: 'alerts', RUNTIME_ROOT: root, ...elsewhere, API_PORT: String(first.apiPort) });
  t.equal((await second.waitForExit()).code, 1, 'exit 1');
  t.match(second.stderr, `another process listens on 127.0.0.1:${first.apiPort} (API_PORT)`);
  t.equal((await httpRequest(`${first.apiUrl}/-/healthy`)).status, 200, 'the first one serves on');
});
