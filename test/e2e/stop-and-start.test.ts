/**
 * Stopping and starting the real process as operators do. A stop ends within DRAIN_TIMEOUT
 * whatever a statistics daemon does (none listening, one that never reads); a second instance
 * cannot take the first one's port or data directory; and the decision listeners never wait for
 * the alert and score APIs, which answer 503 in their own form until they have opened.
 */
import { writeFile } from 'node:fs/promises';
import { createServer, type Server, type Socket } from 'node:net';
import t, { type Test } from 'tap';
import { freePort } from '../../src/transports/free-port.js';
import { runtimeRoot, spawnProcess, startProcess, type ServiceProcess } from '../support/process-harness.js';
import { D } from '../support/service-inputs.js';
import { waitFor } from '../support/wait-for.js';
import { tempDir } from '../support/temp-dir.js';

const RULES = 'domain: d\ndescriptors:\n  - key: k\n    rate_limit: {unit: hour, requests_per_unit: 1000}\n';
const ASK = { domain: 'd', descriptors: [D('k', 'v')] };

/** A TCP server that accepts connections and never reads from them (a wedged daemon). */
async function silentServer(t: Test): Promise<number> {
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    socket.pause();
    sockets.add(socket);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(
    () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  );
  return (server.address() as { port: number }).port;
}

async function stopTimed(proc: ServiceProcess, signal: NodeJS.Signals): Promise<{ ms: number; code: number | null }> {
  const started = Date.now();
  proc.kill(signal);
  const exit = await proc.waitForExit(15_000);
  return { ms: Date.now() - started, code: exit.code };
}

t.test('at default statistics settings (a statsd daemon nobody runs), SIGTERM and SIGINT stop the process at once', async (t) => {
  const { root } = await runtimeRoot(t, { 'd.yaml': RULES });
  // The default sink is statsd over TCP; a free port stands for the daemon that is not there.
  const env = { APIS: 'alerts,scores', RUNTIME_ROOT: root, DISABLE_STATS: 'false', METRICSD_PORT: String(await freePort()), HTTP_WORKERS: '2' };
  await Promise.all(
    (['SIGTERM', 'SIGINT'] as const).map(async (signal) => {
      const proc = await startProcess(t, env);
      t.equal((await proc.post(ASK)).status, 200);
      const stop = await stopTimed(proc, signal);
      t.equal(stop.code, 0, `${signal}: exit 0`);
      t.ok(stop.ms < 5000, `${signal}: gone ${stop.ms} ms after the signal`);
    }),
  );
});

t.test('a statistics daemon that accepts and never reads cannot hold a stop past DRAIN_TIMEOUT', async (t) => {
  const { root } = await runtimeRoot(t, { 'd.yaml': RULES });
  const daemon = await silentServer(t);
  const proc = await startProcess(t, { APIS: 'alerts', RUNTIME_ROOT: root, DISABLE_STATS: 'false', METRICSD_PORT: String(daemon), STATS_FLUSH_INTERVAL: '100ms', DRAIN_TIMEOUT: '3s' });
  for (let i = 0; i < 50; i++) await proc.post({ domain: 'd', descriptors: [D('k', `v${i}`)] });
  const stop = await stopTimed(proc, 'SIGTERM');
  t.ok(stop.ms < 4000, `gone ${stop.ms} ms after SIGTERM (DRAIN_TIMEOUT 3s)`);
});

t.test('a second instance on the same PORT or DATA_DIR refuses to start and names it; once the first stops, it starts', async (t) => {
  const { root } = await runtimeRoot(t, { 'd.yaml': RULES });
  const dataDir = await tempDir(t, 'rl-shared-data-');
  const first = await startProcess(t, { APIS: 'alerts', RUNTIME_ROOT: root, DATA_DIR: dataDir });
  const elsewhere = { HOST: '127.0.0.1', PORT: '0', GRPC_HOST: '127.0.0.1', GRPC_PORT: '0', DEBUG_HOST: '127.0.0.1', DEBUG_PORT: '0' };
  const samePort = spawnProcess(t, { APIS: 'alerts', RUNTIME_ROOT: root, ...elsewhere, PORT: String(first.httpPort) });
  const sameData = spawnProcess(t, { APIS: 'alerts', RUNTIME_ROOT: root, ...elsewhere, DATA_DIR: dataDir });
  t.equal((await samePort.waitForExit()).code, 1, 'the same PORT: exit 1');
  t.match(samePort.stderr, `another process listens on 127.0.0.1:${first.httpPort} (PORT)`);
  t.equal((await sameData.waitForExit()).code, 1, 'the same DATA_DIR: exit 1');
  t.match(sameData.stderr, `another instance is using DATA_DIR ${dataDir} (process ${first.child.pid})`);
  t.equal((await first.post(ASK)).status, 200, 'the first one serves on');
  await first.stop();
  const next = await startProcess(t, { APIS: 'alerts', RUNTIME_ROOT: root, DATA_DIR: dataDir, PORT: String(first.httpPort) });
  t.equal((await next.post(ASK)).status, 200, 'the port and the lock went with the first process');
});

t.test('the decision listeners never wait for the alert and score APIs', async (t) => {
  const { root } = await runtimeRoot(t, { 'd.yaml': RULES });
  // A PostgreSQL "server" that accepts and never answers: the score API cannot open.
  const database = await silentServer(t);
  const dir = await tempDir(t, 'rl-bad-alerts-');
  const badConfig = `${dir}/alertmanager.yml`;
  await writeFile(badConfig, 'route:\n  receiver: nobody\nreceivers: []\n');
  const proc = spawnProcess(t, {
    APIS: 'alerts,scores',
    RUNTIME_ROOT: root,
    ...{ HOST: '127.0.0.1', PORT: '0', GRPC_HOST: '127.0.0.1', GRPC_PORT: '0', DEBUG_HOST: '127.0.0.1', DEBUG_PORT: '0' },
    ALERTMANAGER_CONFIG: badConfig,
    SCORES_DATABASE_URL: `postgres://nobody@127.0.0.1:${database}/scores`,
  });
  await proc.listening();
  t.equal((await proc.post(ASK)).status, 200, '/json decides');
  t.equal((await proc.request('/healthcheck')).status, 200, '/healthcheck is OK');

  const early = await proc.request('/api/v2/alerts');
  t.equal(early.status, 503, 'before the API thread runs, the alert API answers 503');
  const alerts = await waitFor('the alert API to report its failure', async () => {
    const answer = await proc.request('/api/v2/alerts');
    return answer.text.includes('the alert API is unavailable') && answer;
  });
  t.equal(alerts.status, 503, 'the alert API, whose configuration is bad, answers 503');
  t.match(alerts.json, { code: 503, message: /^the alert API is unavailable: .*receiver/ }, 'in its own form, with the reason');
  const scores = await proc.request('/v2/me');
  t.equal(scores.status, 503, 'the score API, whose database does not answer, answers 503');
  t.same(scores.json, { code: 'SERVICE_UNAVAILABLE', message: 'the score API is starting; try again' }, 'in the Flat error form');
  t.equal((await proc.post(ASK)).status, 200, '/json decides on');

  const stop = await stopTimed(proc, 'SIGTERM');
  t.equal(stop.code, 0, 'and it still stops cleanly');
});
