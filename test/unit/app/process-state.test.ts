/**
 * The state the main thread shares with every thread: shared memory the threads attach to, health
 * they read, statistics they report, all released by the main thread's lifecycle. The embedded
 * counter store needs no server.
 */
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import t, { type Test } from 'tap';
import { Lifecycle } from '../../../src/app/lifecycle.js';
import { startProcessState } from '../../../src/app/process-state.js';
import { loadServiceSettings } from '../../../src/app/service-settings.js';
import { systemClock } from '../../../src/engine/index.js';
import { PROCESS_STATS_PREFIX } from '../../../src/observability/index.js';
import { SharedHealth } from '../../../src/threads/index.js';
import { BodyBudget } from '../../../src/transports/http/index.js';
import { recordingLogger, type LogRecord } from '../../support/recording-logger.js';

const SMALL = { CONFIG_MAX_BYTES: '65536', API_MAX_REQUEST_BYTES: '4096', API_MAX_BODY_BYTES_IN_FLIGHT: '4096' };

function start(t: Test, env: Record<string, string> = {}) {
  const settings = loadServiceSettings({ ...SMALL, ...env });
  const logs: LogRecord[] = [];
  const lifecycle = new Lifecycle(recordingLogger(logs));
  const state = startProcessState(settings, recordingLogger(logs), systemClock, lifecycle);
  t.teardown(() => lifecycle.close(5000));
  return { settings, state, logs, lifecycle };
}

/** A thread that counts `worker.requests` in a store of its own and reports it on `channel`, as every thread does. */
function reportingThread(t: Test, channel: string): { counted(n: number): Promise<void> } {
  const modules = {
    stats: fileURLToPath(new URL('../../../src/threads/index.js', import.meta.url)),
    observability: fileURLToPath(new URL('../../../src/observability/index.js', import.meta.url)),
  };
  const worker = new Worker(
    `const { parentPort, workerData } = require('node:worker_threads');
    Promise.all([import(workerData.modules.stats), import(workerData.modules.observability)]).then(([{ StatsReporter }, { StatsStore }]) => {
      const stats = new StatsStore();
      const reporter = new StatsReporter(workerData.channel, stats);
      parentPort.on('message', (n) => {
        if (n === 'stop') return reporter.close(), parentPort.close();
        stats.counter('worker.requests').value += n;
        parentPort.postMessage('counted');
      });
      parentPort.postMessage('ready');
    });`,
    { eval: true, workerData: { channel, modules } },
  );
  const next = () => new Promise<unknown>((resolve) => worker.once('message', resolve));
  const ready = next();
  t.teardown(async () => {
    worker.postMessage('stop');
    await new Promise((resolve) => worker.once('exit', resolve));
  });
  return {
    async counted(n) {
      await ready;
      const done = next();
      worker.postMessage(n);
      await done;
    },
  };
}

t.test('what each thread attaches to is the state the main thread holds', async (t) => {
  const { settings, state } = start(t, { LOG_LEVEL: 'debug', LOG_FORMAT: 'json', STATS_MAX_NAMES: '500' });
  const { resources } = state;
  t.ok(resources.mailboxBuffer.byteLength > settings.configMaxBytes, 'the mailbox holds CONFIG_MAX_BYTES of rules');
  t.equal(resources.statsChannel, state.collector.channelName);
  t.same(resources.storeLog, { logLevel: 'debug', logFormat: 'json' });
  t.equal(resources.statsMaxNames, 500);
  t.equal(resources.counterStore.type, 'memory', 'the embedded store, chosen with BACKEND_TYPE unset');
});

t.test('the body budget is one count for every thread', async (t) => {
  const { state } = start(t);
  const another = BodyBudget.attach(state.resources.bodyBudgetBuffer);
  t.equal(another.maxBytes, 4096);
  t.equal(another.take(3000), true);
  t.equal(state.bodyBudget.heldBytes, 3000, 'seen by the main thread');
  t.equal(state.bodyBudget.take(2000), false, 'past API_MAX_BODY_BYTES_IN_FLIGHT together');
});

t.test('health as the main thread sets it is what every thread reads', async (t) => {
  const { state } = start(t, { HEALTHY_WITH_AT_LEAST_ONE_CONFIG_LOADED: 'true' });
  const shared = new SharedHealth(state.resources.healthBuffer);
  t.equal(shared.isHealthy(), false, 'unhealthy until a configuration loads');
  state.health.set('config', true);
  t.equal(shared.isHealthy(), true);
  state.health.set('config', false);
  t.equal(shared.isHealthy(), false);
});

t.test('without HEALTHY_WITH_AT_LEAST_ONE_CONFIG_LOADED the threads read healthy from the start', async (t) => {
  const { state } = start(t);
  t.equal(new SharedHealth(state.resources.healthBuffer).isHealthy(), true);
});

t.test("refreshStats brings in another thread's latest counts and the process figures", async (t) => {
  const { state } = start(t);
  const thread = reportingThread(t, state.resources.statsChannel);
  await thread.counted(3);
  // Until its first report arrives the main thread does not know the thread, nor waits for it.
  const deadline = Date.now() + 5000;
  while (state.stats.value('worker.requests') !== 3 && Date.now() < deadline) await state.refreshStats();
  t.equal(state.stats.value('worker.requests'), 3);
  await thread.counted(4);
  await state.refreshStats();
  t.equal(state.stats.value('worker.requests'), 7, 'a known thread is asked for its latest counts and waited for');
  t.ok(state.stats.value(`${PROCESS_STATS_PREFIX}heap_used_bytes.__thread=main`) > 0, "the main thread's heap is sampled");
});

t.test('the lifecycle closes the counter store, the statistics channel and the process statistics without a failure', async (t) => {
  const { logs, lifecycle } = start(t);
  await lifecycle.close(5000);
  t.same(
    logs.filter((l) => l.level === 'error'),
    [],
  );
});
