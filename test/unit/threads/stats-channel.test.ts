import t from 'tap';
import { Worker } from 'node:worker_threads';
import { StatsStore } from '../../../src/observability/index.js';
import { StatsCollector, newStatsChannelName } from '../../../src/threads/index.js';

t.test('deltas carry only what changed since the last report', async (t) => {
  const store = new StatsStore();
  store.counter('a').value += 3;
  store.timer('t').record(5);
  const delta = store.takeDelta();
  t.same(delta?.counters, [['a', 3]]);
  t.same(delta?.timers.map((timer) => [timer.name, timer.counts.reduce((a, b) => a + b), timer.sumsMs.reduce((a, b) => a + b), timer.maxMs]), [['t', 1, 5, 5]]);
  t.equal(store.takeDelta(), undefined, 'nothing changed');
  store.counter('a').value += 2;
  store.counter('b').value += 1;
  const main = new StatsStore();
  main.counter('a').value = 10;
  main.applyDelta(store.takeDelta()!);
  t.equal(main.value('a'), 12);
  t.equal(main.value('b'), 1);
});

t.test('flush collects the latest changes of every thread before answering', async (t) => {
  const main = new StatsStore();
  const collector = new StatsCollector(newStatsChannelName(), main);
  t.teardown(() => collector.close());
  const reporterModule = new URL('../../../src/threads/stats-channel.js', import.meta.url).href;
  const observability = new URL('../../../src/observability/index.js', import.meta.url).href;
  const source = `import { parentPort, workerData } from 'node:worker_threads';
     const { StatsReporter } = await import(${JSON.stringify(reporterModule)});
     const { StatsStore } = await import(${JSON.stringify(observability)});
     const stats = new StatsStore();
     const reporter = new StatsReporter(workerData, stats);
     parentPort.on('message', (n) => {
       if (n === 'stop') { reporter.close(); parentPort.close(); return; }
       stats.counter('hits').value += n;
       parentPort.postMessage('counted');
     });
     parentPort.postMessage('ready');`;
  const worker = new Worker(new URL(`data:text/javascript,${encodeURIComponent(source)}`), { workerData: collector.channelName });
  const next = () => new Promise((resolve) => worker.once('message', resolve));
  await next();
  await collector.flush(); // the worker introduced itself
  worker.postMessage(7);
  await next();
  // Well inside the 100 ms reporting period: only the flush can have brought the 7 hits.
  await collector.flush();
  t.equal(main.value('hits'), 7, 'exact right after the flush');
  worker.postMessage('stop');
  await new Promise((resolve) => worker.once('exit', resolve));
});
