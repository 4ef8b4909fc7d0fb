/**
 * The Alertmanager API v2 of the service, the parts around the alerts and silences: status,
 * receivers, routing errors, v1 and CORS; configuration reloads; hostile input.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import t from 'tap';
import { alertApi, ALERT_API_CONFIG as CONFIG } from '../support/alert-api-client.js';
import { startService } from '../support/service-harness.js';
import { httpRequest } from '../support/http-request.js';
import { tempDir } from '../support/temp-dir.js';

t.test('status, receivers, routing errors, v1 and CORS', async (t) => {
  const api = await alertApi(t);
  const status = await api.valid(t, 'getStatus', '/api/v2/status');
  const body = status.json as { cluster: unknown; config: { original: string }; versionInfo: Record<string, string> };
  t.same(body.cluster, { peers: [], status: 'disabled' });
  t.match(body.config.original, /route:\n {2}receiver: default\n/);
  t.same(Object.keys(body.versionInfo).sort(), ['branch', 'buildDate', 'buildUser', 'goVersion', 'revision', 'version']);
  const receivers = await api.valid(t, 'getReceivers', '/api/v2/receivers');
  t.same(receivers.json, [{ labels: { name: 'default' }, name: 'default' }, { labels: { name: 'team-a' }, name: 'team-a' }, { labels: { name: 'team-b' }, name: 'team-b' }]);
  const unknown = await api.get('/api/v2/foo');
  t.equal(unknown.status, 404);
  t.same(unknown.json, { code: 404, message: 'path /api/v2/foo was not found' });
  const method = await httpRequest(`${api.service.baseUrl}/api/v2/alerts`, { method: 'PUT' });
  t.equal(method.status, 405);
  t.equal(method.headers['allow'], 'GET,POST');
  t.same(method.json, { code: 405, message: 'method PUT is not allowed, but [GET,POST] are' });
  const v1 = await api.get('/api/v1/alerts');
  t.equal(v1.status, 410);
  t.match(v1.json, { status: 'deprecated' });
  const cors = await httpRequest(`${api.service.baseUrl}/api/v2/status`, { headers: { origin: 'http://grafana' } });
  t.equal(cors.headers['access-control-allow-origin'], '*');
  const preflight = await httpRequest(`${api.service.baseUrl}/api/v2/alerts`, { method: 'OPTIONS', headers: { origin: 'http://grafana', 'access-control-request-method': 'POST' } });
  t.equal(preflight.status, 200);
  t.equal(preflight.headers['access-control-allow-methods'], 'POST');
  const deletePreflight = await httpRequest(`${api.service.baseUrl}/api/v2/silence/x`, { method: 'OPTIONS', headers: { origin: 'http://grafana', 'access-control-request-method': 'DELETE' } });
  t.equal(deletePreflight.headers['access-control-allow-methods'], undefined, 'DELETE is not allowed cross-origin, as rs/cors defaults');
});

t.test('reload: POST /-/reload and a file change; a bad file keeps the old configuration', async (t) => {
  const dir = await tempDir(t, 'rl-am-reload-');
  const file = join(dir, 'alertmanager.yml');
  await writeFile(file, CONFIG);
  const service = await startService(t, { env: { APIS: 'alerts', ALERTMANAGER_CONFIG: file } });
  await writeFile(file, 'route:\n  receiver: nowhere\nreceivers:\n  - name: default\n');
  const refused = await httpRequest(`${service.baseUrl}/-/reload`, { method: 'POST' });
  t.equal(refused.status, 500);
  t.match(refused.text, /^failed to reload config: .*undefined receiver "nowhere" used in route/);
  t.same(((await service.request('/api/v2/receivers')).json as Array<{ name: string }>).map((r) => r.name), ['default', 'team-a', 'team-b'], 'the old configuration stays');
  await writeFile(file, 'route:\n  receiver: only\nreceivers:\n  - name: only\n');
  t.equal((await httpRequest(`${service.baseUrl}/-/reload`, { method: 'POST' })).status, 200);
  t.same(((await service.request('/api/v2/receivers')).json as Array<{ name: string }>).map((r) => r.name), ['only']);
});

t.test('hostile input: clear 4xx, and the service keeps serving', async (t) => {
  const api = await alertApi(t);
  const huge = await api.post('/api/v2/alerts', `[${'{"labels":{"a":"b"}},'.repeat(5_000_000)}{}]`);
  t.equal(huge.status, 413, 'a body of 100 MB, over the default API_MAX_REQUEST_BYTES (32 MiB)');
  const many = await api.post('/api/v2/alerts', Array.from({ length: 100_000 }, (_, i) => ({ labels: { alertname: 'x', i: String(i) } })));
  t.equal(many.status, 422, '100,000 alerts in one post');
  t.same(many.json, { code: 611, message: 'alerts in body should have at most 10000 items' });
  const invalidUtf8 = await api.post('/api/v2/alerts', new Uint8Array([0x5b, 0x7b, 0x22, 0x6c, 0x61, 0x62, 0x65, 0x6c, 0x73, 0x22, 0x3a, 0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0x22, 0x7d, 0x7d, 0x5d]));
  t.equal(invalidUtf8.status, 400, 'invalid UTF-8');
  const deep = await api.post('/api/v2/alerts', '['.repeat(100_000) + ']'.repeat(100_000));
  t.equal(deep.status, 400, 'deep JSON');
  t.equal((await api.get('/api/v2/status')).status, 200, 'still serving');
  // An answer of megabytes is more than the socket takes at once: the rest follows as it is read.
  for (let batch = 0; batch < 2; batch++) {
    t.equal((await api.post('/api/v2/alerts', Array.from({ length: 10_000 }, (_, i) => ({ labels: { alertname: 'big', i: `${batch}-${i}` } })))).status, 200);
  }
  const large = await api.get('/api/v2/alerts');
  t.equal(large.status, 200);
  t.equal((large.json as unknown[]).length, 20_000, `all 20,000 alerts in one answer of ${large.text.length} bytes`);
  t.equal((await api.service.post({ domain: 'x', descriptors: [{ entries: [{ key: 'k', value: 'v' }] }] })).status, 200, 'decisions too');
});
