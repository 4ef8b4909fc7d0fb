import { Worker } from 'node:worker_threads';
import t from 'tap';
import { SharedMemoryCounterStore } from '../../../src/backends/shared-memory/index.js';
import { Unit } from '../../../src/engine/units.js';
import {
  GATE_GO,
  GATE_READY,
  GATE_WINDOW,
  GATE_WORDS,
  type SharedMemoryWorkerData,
  type SharedMemoryWorkerResult,
} from '../../support/shared-memory-worker-protocol.js';

// Compiled next to this file in dist/, as the service's own workers are.
const WORKER_URL = new URL('../../support/shared-memory-worker.js', import.meta.url);

const WORKERS = 4;
const WINDOW_START = 1_700_000_040;

function runWorker(data: SharedMemoryWorkerData): Promise<SharedMemoryWorkerResult> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(WORKER_URL, { workerData: data });
    let result: SharedMemoryWorkerResult | undefined;
    worker.once('message', (message: SharedMemoryWorkerResult) => (result = message));
    worker.once('error', reject);
    worker.once('exit', (code) =>
      result !== undefined && code === 0 ? resolve(result) : reject(new Error(`worker exited with ${code}`)),
    );
  });
}

/** Starts WORKERS workers, opens the gate once all are ready, resolves with their results and the time taken. */
async function runAll(
  common: Omit<SharedMemoryWorkerData, 'workerId' | 'gate' | 'workers'>,
  gate: SharedArrayBuffer,
): Promise<{ results: SharedMemoryWorkerResult[]; elapsed: number }> {
  const words = new Int32Array(gate);
  const running = Array.from({ length: WORKERS }, (_, workerId) =>
    runWorker({ ...common, gate, workers: WORKERS, workerId }),
  );
  while (Atomics.load(words, GATE_READY) < WORKERS) await new Promise((r) => setTimeout(r, 5));
  const started = Date.now();
  Atomics.store(words, GATE_GO, 1);
  Atomics.notify(words, GATE_GO);
  const results = await Promise.all(running);
  return { results, elapsed: Date.now() - started };
}

t.test('counts are exact across worker threads', async (t) => {
  const ITERATIONS = 200_000;
  const SHARED_KEYS = 8; // divides ITERATIONS
  const LIMIT = 12_345;
  const UNIQUE_EVERY = 10;
  const store = SharedMemoryCounterStore.create({ maxKeysPerWindow: 200_000 });
  // The ring table of this window holds an older window (W - 3) with keys, so the workers all
  // arrive at a table that must be cleared first: one wins the seqlock, the others wait.
  const stale = WINDOW_START - 3 * 60;
  for (let i = 0; i < 1000; i++) store.increment([{ key: `stale_${i}`, hits: 1, unit: Unit.MINUTE, windowStart: stale }]);

  const sharedKeys = Array.from({ length: SHARED_KEYS }, (_, i) => `rl_shared_${i}_${WINDOW_START}`);
  const limitKey = `rl_limit_${WINDOW_START}`;
  const gate = new SharedArrayBuffer(GATE_WORDS * 4);
  const { results, elapsed } = await runAll(
    {
      mode: 'hammer',
      buffer: store.buffer,
      iterations: ITERATIONS,
      sharedKeys,
      limitKey,
      limit: LIMIT,
      uniqueEvery: UNIQUE_EVERY,
      windowStart: WINDOW_START,
      windows: 1,
    },
    gate,
  );
  const increments = WORKERS * ITERATIONS * (2 + 1 / UNIQUE_EVERY);
  t.comment(`${WORKERS} workers, ${increments} increments in ${elapsed} ms (${Math.round(increments / elapsed)}k/s)`);

  const read = (key: string): number =>
    store.increment([{ key, hits: 0, unit: Unit.MINUTE, windowStart: WINDOW_START }])[0] ?? -1;
  for (const key of sharedKeys) t.equal(read(key), (WORKERS * ITERATIONS) / SHARED_KEYS, `shared key ${key}`);
  t.equal(read(limitKey), WORKERS * ITERATIONS, 'limit key saw every hit');

  const withinLimit = results.reduce((sum, r) => sum + r.withinLimit, 0);
  t.equal(withinLimit, LIMIT, 'exactly LIMIT checks were within the limit, whichever thread made them');

  const uniqueKeys = results.flatMap((r) => r.uniqueKeys);
  t.equal(uniqueKeys.length, (WORKERS * ITERATIONS) / UNIQUE_EVERY);
  let wrong = 0;
  for (const key of uniqueKeys) if (read(key) !== 1) wrong++;
  t.equal(wrong, 0, 'every unique key counted once');

  t.equal(store.stats().keysInUseByUnit['MINUTE'], SHARED_KEYS + 1 + uniqueKeys.length, 'stale keys were cleared');
  t.equal(store.fullCount, 0);
  t.equal(store.stats().expiredCount, 0);
});

for (const withMaintain of [false, true]) {
  const how = withMaintain ? 'while maintain() pre-clears from the main thread' : 'while all threads race to rotate windows';
  t.test(`counts stay exact ${how}`, async (t) => {
    const WINDOWS = 40;
    const ITERATIONS = 4_000;
    const SHARED_KEYS = 4;
    const store = SharedMemoryCounterStore.create({ maxKeysPerWindow: 50_000 });
    const gate = new SharedArrayBuffer(GATE_WORDS * 4);
    const gateWords = new Int32Array(gate);
    // The main thread's maintenance timer, pre-clearing the next window while workers count.
    let maintained = 0;
    const timer = withMaintain
      ? setInterval(() => {
          store.maintain(WINDOW_START + Atomics.load(gateWords, GATE_WINDOW) * 60);
          maintained++;
        }, 1)
      : undefined;
    try {
      const { results, elapsed } = await runAll(
        {
          mode: 'rotate',
          buffer: store.buffer,
          iterations: ITERATIONS,
          sharedKeys: Array.from({ length: SHARED_KEYS }, (_, i) => `rl_rotating_${i}_`),
          limitKey: '',
          limit: 0,
          uniqueEvery: 4,
          windowStart: WINDOW_START,
          windows: WINDOWS,
        },
        gate,
      );
      t.comment(`${WINDOWS} windows in ${elapsed} ms; maintain() ran ${maintained} times`);
      t.same(results.flatMap((r) => r.mismatches), [], 'every window and the previous one exact at each barrier');
    } finally {
      clearInterval(timer);
    }
    const stats = store.stats();
    t.equal(stats.fullCount, 0);
    t.equal(stats.expiredCount, 0);
    t.ok(stats.tableClears >= WINDOWS, `tables recycled (${stats.tableClears})`);
    const held = stats.keysInUseByUnit['MINUTE'] ?? 0;
    t.ok(held <= 3 * (SHARED_KEYS + (WORKERS * ITERATIONS) / 4), `at most three windows of keys held (${held})`);
  });
}
