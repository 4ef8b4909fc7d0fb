/**
 * The alert API of an in-process service with the `teams.yml` Alertmanager configuration, and
 * requests against it: what the alert API's end-to-end test files share.
 *
 *   const api = await alertApi(t);
 *   await api.post('/api/v2/alerts', [{ labels: { alertname: 'A' } }]);
 *   await api.valid(t, 'getAlerts', '/api/v2/alerts');
 */
import { readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Test } from 'tap';
import { ALERTMANAGER_FIXTURES_DIR, validateResponse } from './alertmanager-schema.js';
import { startService, type Service } from './service-harness.js';
import { httpRequest, type HttpResult, type RequestOptions } from './http-request.js';
import { tempDir } from './temp-dir.js';

export const ALERT_API_CONFIG = readFileSync(new URL('teams.yml', ALERTMANAGER_FIXTURES_DIR), 'utf8');

export interface Api {
  service: Service;
  get(path: string): Promise<HttpResult>;
  post(path: string, body: unknown, options?: RequestOptions): Promise<HttpResult>;
  del(path: string): Promise<HttpResult>;
  /** A GET whose 200 body must validate against the v0.34 spec. */
  valid(t: Test, operation: string, path: string): Promise<HttpResult>;
}

export async function alertApi(t: Test, config = ALERT_API_CONFIG, env: Record<string, string> = {}): Promise<Api> {
  const dir = await tempDir(t, 'rl-am-');
  const configFile = join(dir, 'alertmanager.yml');
  await writeFile(configFile, config);
  const service = await startService(t, { env: { APIS: 'alerts', ALERTMANAGER_CONFIG: configFile, ...env } });
  const get = (path: string) => service.request(path);
  const post = (path: string, body: unknown, options: RequestOptions = {}) =>
    httpRequest(`${service.baseUrl}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: typeof body === 'string' ? body : JSON.stringify(body), ...options });
  const del = (path: string) => service.request(path, { method: 'DELETE' });
  const valid = async (t: Test, operation: string, path: string) => {
    const res = await get(path);
    t.equal(res.status, 200, `${path}: 200`);
    t.same(validateResponse('v0.34', operation, 200, res.json), [], `${path}: valid against the v0.34 spec`);
    return res;
  };
  return { service, get, post, del, valid };
}
