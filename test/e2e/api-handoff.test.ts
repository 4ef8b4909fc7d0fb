/**
 * The hand-off of the alert and score APIs to the API thread, through the real HTTP front:
 * Alertmanager's `/-/healthy` and `/-/ready` are answered by the API thread whichever thread
 * took the request, routing errors come in each API's own form, the front's limits hold, and a
 * dead API thread is replaced while rate limit decisions go on.
 */
import { readdir, readFile } from 'node:fs/promises';
import t from 'tap';
import { startProcess } from '../support/process-harness.js';
import { startService } from '../support/service-harness.js';
import { D } from '../support/service-inputs.js';
import { waitFor } from '../support/wait-for.js';

const BASIC = 'domain: basic\ndescriptors:\n  - key: key1\n    rate_limit: {unit: second, requests_per_unit: 1000}\n';

t.test('health routes of the alert API are answered by the API thread', async (t) => {
  const service = await startService(t, { files: { 'basic.yaml': BASIC }, env: { APIS: 'alerts,scores' } });
  for (const path of ['/-/healthy', '/-/ready', '/-/healthy/']) {
    const res = await service.request(path);
    t.equal(res.status, 200, `GET ${path}`);
    t.equal(res.text, 'OK', `GET ${path} body`);
    t.equal(res.headers['content-type'], 'text/plain; charset=utf-8', `GET ${path} type`);
  }
  const head = await service.request('/-/healthy', { method: 'HEAD' });
  t.equal(head.status, 200, 'HEAD /-/healthy');
});

t.test('routing errors come in the form of the API that owns the path', async (t) => {
  const service = await startService(t, { files: { 'basic.yaml': BASIC }, env: { APIS: 'alerts,scores' } });
  const wrongMethod = await service.request('/-/healthy', { method: 'POST', body: '' });
  t.equal(wrongMethod.status, 405);
  t.equal(wrongMethod.headers['allow'], 'GET,HEAD');
  t.same(wrongMethod.json, { code: 405, message: 'method POST is not allowed, but [GET,HEAD] are' });

  const unknownAlertPath = await service.request('/api/v2/nothing');
  t.equal(unknownAlertPath.status, 404);
  t.same(unknownAlertPath.json, { code: 404, message: 'path /api/v2/nothing was not found' });
  t.equal(unknownAlertPath.headers['cache-control'], 'no-store');

  const unknownScorePath = await service.request('/v2/nothing');
  t.equal(unknownScorePath.status, 404);
  t.same(unknownScorePath.json, { code: 'NOT_FOUND', message: 'no route GET /v2/nothing' });

  const nobodys = await service.request('/nothing');
  t.equal(nobodys.status, 404);
  t.equal(nobodys.text, '404 page not found\n');
});

t.test('a body over API_MAX_REQUEST_BYTES is refused by the front in the API form', async (t) => {
  const service = await startService(t, { files: { 'basic.yaml': BASIC }, env: { APIS: 'alerts,scores', API_MAX_REQUEST_BYTES: '2048' } });
  const big = await service.request('/api/v2/alerts', { method: 'POST', body: 'x'.repeat(4096), headers: { 'content-type': 'application/json' } });
  t.equal(big.status, 413);
  t.same(big.json, { code: 413, message: 'request body larger than API_MAX_REQUEST_BYTES (2048)' });
  const small = await service.request('/v2/nothing', { method: 'POST', body: 'x'.repeat(1024) });
  t.equal(small.status, 404, 'a body under the limit reaches the API thread');
});

t.test('a dead API thread is replaced; decisions never stop', async (t) => {
  const service = await startService(t, { files: { 'basic.yaml': BASIC }, env: { APIS: 'alerts,scores' } });
  const thread = service.app.apiThread.thread;
  if (thread === undefined) throw new Error('no API thread');
  const before = service.app.apiThread.starts;
  await thread.terminate();

  const duringRestart = await service.request('/-/healthy');
  t.ok([200, 503].includes(duringRestart.status), `answered at once while it restarts (${duringRestart.status})`);
  if (duringRestart.status === 503) t.match(duringRestart.json, { code: 503, message: /^(the API thread is not running yet \(starting or restarting\)|the alert API is starting); try again$/ });
  const decision = await service.post({ domain: 'basic', descriptors: [D('key1', 'a')] });
  t.equal(decision.status, 200, 'decisions go on meanwhile');

  // A new thread loads both APIs' code and opens their stores: 1.5 s here when idle, past 5 s
  // beside two other test files on two cores. What is checked is that it comes back.
  await waitFor('the new API thread to answer', async () => (await service.request('/-/healthy')).status === 200, 30_000);
  t.equal(service.app.apiThread.starts, before + 1, 'started once more');
  t.ok(service.logs.some((l) => l.level === 'error' && l.msg === 'the API thread stopped; starting it again'), 'the restart is logged');
});

t.test('every HTTP thread of the real process hands off to the one API thread', async (t) => {
  const proc = await startProcess(t, { APIS: 'alerts', HTTP_WORKERS: '2', RUNTIME_ROOT: '/nonexistent' });
  // Fresh connections, so the kernel spreads them over both HTTP threads.
  const answers = await Promise.all(
    Array.from({ length: 40 }, () => proc.request('/-/healthy', { headers: { connection: 'close' } })),
  );
  t.same(
    answers.map((a) => a.status),
    answers.map(() => 200),
    'every thread hands off',
  );
  t.match(proc.stderr, /msg="ready" http=\d+ debug=\d+ grpc=\d+ store="memory" httpThreads=2 decisions="inline"/, 'one ready line names the threads');
});

/** Nice values of every thread of a process, from /proc (Linux). */
async function threadNiceValues(pid: number): Promise<number[]> {
  const tasks = await readdir(`/proc/${pid}/task`);
  const values: number[] = [];
  for (const tid of tasks) {
    const stat = await readFile(`/proc/${pid}/task/${tid}/stat`, 'utf8');
    values.push(Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]));
  }
  return values;
}

t.test('the API thread, and only it, runs at API_THREAD_NICE (and the rules loader at CONFIG_LOADER_NICE)', async (t) => {
  const proc = await startProcess(t, { APIS: 'alerts', HTTP_WORKERS: '1', RUNTIME_ROOT: '/nonexistent', API_THREAD_NICE: '7', CONFIG_LOADER_NICE: '3' });
  const nice = await threadNiceValues(proc.child.pid as number);
  t.equal(nice.filter((n) => n === 7).length, 1, 'one thread at nice 7: the API thread');
  t.equal(nice.filter((n) => n === 3).length, 1, 'one thread at nice 3: the rules loader');
  t.equal(nice.filter((n) => n !== 7 && n !== 3 && n !== 0).length, 0, 'every other thread at 0');
  const plain = await startProcess(t, { APIS: 'alerts', HTTP_WORKERS: '1', RUNTIME_ROOT: '/nonexistent', API_THREAD_NICE: '0', CONFIG_LOADER_NICE: '0' });
  t.same([...new Set(await threadNiceValues(plain.child.pid as number))], [0], 'both 0: every thread at the process priority');
});

t.test('APIS chooses what is served beside the decisions; none starts no API thread', async (t) => {
  const none = await startService(t, { files: { 'basic.yaml': BASIC }, env: { APIS: 'none' } });
  t.equal(none.app.apiThread.thread, undefined, 'APIS=none: no API thread');
  t.equal((await none.post({ domain: 'basic', descriptors: [D('key1', 'a')] })).status, 200, 'decisions are served');
  for (const path of ['/api/v2/alerts', '/-/healthy', '/v2/me']) {
    const res = await none.request(path);
    t.same({ status: res.status, text: res.text }, { status: 404, text: '404 page not found\n' }, `APIS=none: ${path} belongs to no API`);
  }
  const alertsOnly = await startService(t, { files: { 'basic.yaml': BASIC }, env: { APIS: 'alerts' } });
  t.equal((await alertsOnly.request('/api/v2/alerts')).status, 200, 'APIS=alerts: the alert API is served');
  t.equal((await alertsOnly.request('/v2/me')).status, 404, 'APIS=alerts: the score API is not');
});
