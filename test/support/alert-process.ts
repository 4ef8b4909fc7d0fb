/**
 * The alert API of a real service process, for the tests that restart it or load it heavily:
 * JSON posts, timed requests, the wait for the alert state to load, and a DATA_DIR written
 * before the process starts.
 *
 *   const proc = await startProcess(t, { DATA_DIR: dir, RUNTIME_ROOT: '/nonexistent' });
 *   await alertsReady(proc);
 *   const r = await postJson(proc, '/api/v2/alerts', [{ labels: { alertname: 'A' } }]);
 */
import { join } from 'node:path';
import { fingerprint } from '../../src/alerts/fingerprint.js';
import type { Alert } from '../../src/alerts/model.js';
import { SqliteStateStore } from '../../src/alerts/state/sqlite-state-store.js';
import type { ServiceProcess } from './process-harness.js';
import { httpRequest, type HttpResult } from './http-request.js';
import { waitFor } from './wait-for.js';

export function postJson(proc: ServiceProcess, path: string, body: unknown): Promise<HttpResult> {
  return httpRequest(`${proc.baseUrl}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
}

/** POSTs every body, `parallel` at a time; their statuses in order. */
export async function postAll(proc: ServiceProcess, path: string, bodies: readonly unknown[], parallel = 16): Promise<number[]> {
  const statuses: number[] = [];
  for (let at = 0; at < bodies.length; at += parallel) {
    const answers = await Promise.all(bodies.slice(at, at + parallel).map((body) => postJson(proc, path, body)));
    statuses.push(...answers.map((answer) => answer.status));
  }
  return statuses;
}

/** A silence of one regex matcher, active for an hour. */
export function regexSilence(name: string, pattern: string): Record<string, unknown> {
  return { matchers: [{ name, value: pattern, isRegex: true }], startsAt: new Date().toISOString(), endsAt: new Date(Date.now() + 3_600_000).toISOString(), createdBy: 'load test', comment: 'scale' };
}

/** A request and how long its answer took, in milliseconds. */
export async function timed(request: () => Promise<HttpResult>): Promise<{ result: HttpResult; ms: number }> {
  const started = performance.now();
  const result = await request();
  return { result, ms: performance.now() - started };
}

/** Waits until `/-/ready` answers 200: the alert state has loaded. */
export async function alertsReady(proc: ServiceProcess, timeoutMs = 30_000): Promise<void> {
  await waitFor('the alert state to load', async () => (await proc.request('/-/ready')).status === 200, timeoutMs, 50);
}

/**
 * Polls `/-/healthy` every `everyMs` while `during` runs; resolves with `during`'s result and
 * the slowest answer: how long the API thread kept the health check waiting.
 */
export async function healthWhile<T>(proc: ServiceProcess, during: Promise<T>, everyMs = 20): Promise<{ value: T; slowestHealthMs: number }> {
  let done = false;
  let slowest = 0;
  const polling = (async () => {
    while (!done) {
      const { result, ms } = await timed(() => proc.request('/-/healthy'));
      if (result.status !== 200) throw new Error(`/-/healthy answered ${result.status}`);
      slowest = Math.max(slowest, ms);
      await new Promise((resolve) => setTimeout(resolve, everyMs));
    }
  })();
  try {
    return { value: await during, slowestHealthMs: slowest };
  } finally {
    done = true;
    await polling;
  }
}

/** An alert as the service stores it: `alertname` and `instance` labels, firing for an hour. */
export function storedAlert(n: number, now: number): Alert {
  const labels = { alertname: `Load${n % 10}`, instance: `host-${n}` };
  return { fingerprint: fingerprint(labels), labels, annotations: { summary: `alert ${n}` }, startsAt: now, endsAt: now + 3_600_000, updatedAt: now, generatorURL: '', timeout: false };
}

/** Writes `count` firing alerts into `dataDir` as the service's durable store holds them. */
export function writeAlertState(dataDir: string, count: number, now: number): void {
  const store = new SqliteStateStore(join(dataDir, 'alerts'), 'normal');
  try {
    for (let at = 0; at < count; at += 1000) {
      store.write({ alerts: Array.from({ length: Math.min(1000, count - at) }, (_, i) => storedAlert(at + i, now)) });
    }
  } finally {
    store.close();
  }
}
