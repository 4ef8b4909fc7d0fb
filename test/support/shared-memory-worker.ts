/**
 * Worker for test/unit/backends/shared-memory-counter-store-threads.test.ts. It attaches to the
 * store's buffer and waits at a gate so that all workers start together, then runs one of:
 * - 'hammer': shared keys, a limit key and keys of its own in one window; reports how many
 *   limit checks it saw within the limit;
 * - 'rotate': many windows in lock step with the other workers (a barrier per window), so that
 *   every window change makes all workers race to recycle a table; worker 0 checks the counts
 *   of the current and previous window at each barrier.
 */
import { parentPort, workerData } from 'node:worker_threads';
import type { CounterIncrement } from '../../src/engine/index.js';
import { SharedMemoryCounterStore } from '../../src/backends/shared-memory/index.js';
import { Unit } from '../../src/engine/units.js';
import {
  GATE_BARRIER,
  GATE_GO,
  GATE_READY,
  GATE_WINDOW,
  type SharedMemoryWorkerData,
  type SharedMemoryWorkerResult,
} from './shared-memory-worker-protocol.js';

const data = workerData as SharedMemoryWorkerData;
const store = SharedMemoryCounterStore.attach(data.buffer);
const gate = new Int32Array(data.gate);
const unit = Unit.MINUTE;
const result: SharedMemoryWorkerResult = { withinLimit: 0, uniqueKeys: [], mismatches: [] };

Atomics.add(gate, GATE_READY, 1);
Atomics.notify(gate, GATE_READY);
Atomics.wait(gate, GATE_GO, 0);

if (data.mode === 'hammer') hammer();
else rotate();
parentPort?.postMessage(result);

function hammer(): void {
  const batch: CounterIncrement[] = [
    { key: '', hits: 1, unit, windowStart: data.windowStart },
    { key: data.limitKey, hits: 1, unit, windowStart: data.windowStart },
  ];
  const shared = batch[0]!;
  for (let i = 0; i < data.iterations; i++) {
    shared.key = data.sharedKeys[i % data.sharedKeys.length]!;
    const results = store.increment(batch);
    if ((results[1] ?? Infinity) <= data.limit) result.withinLimit++;
    if (i % data.uniqueEvery === 0) {
      const key = `unique_${data.workerId}_${i}_${data.windowStart}`;
      store.increment([{ key, hits: 1, unit, windowStart: data.windowStart }]);
      result.uniqueKeys.push(key);
    }
  }
}

function rotate(): void {
  let barriers = 0;
  const barrier = (): void => {
    barriers++;
    const target = barriers * data.workers;
    let arrived = Atomics.add(gate, GATE_BARRIER, 1) + 1;
    if (arrived === target) Atomics.notify(gate, GATE_BARRIER);
    while (arrived < target) {
      Atomics.wait(gate, GATE_BARRIER, arrived, 10);
      arrived = Atomics.load(gate, GATE_BARRIER);
    }
  };
  const read = (key: string, windowStart: number): number =>
    store.increment([{ key, hits: 0, unit, windowStart }])[0] ?? -1;
  const perKey = (data.workers * data.iterations) / data.sharedKeys.length;

  for (let w = 0; w < data.windows; w++) {
    const windowStart = data.windowStart + w * 60;
    if (data.workerId === 0) Atomics.store(gate, GATE_WINDOW, w);
    const batch: CounterIncrement[] = [{ key: '', hits: 1, unit, windowStart }];
    const first = batch[0]!;
    for (let i = 0; i < data.iterations; i++) {
      first.key = data.sharedKeys[i % data.sharedKeys.length]! + windowStart;
      store.increment(batch);
      if (i % data.uniqueEvery === 0) {
        first.key = `unique_${data.workerId}_${i}_${windowStart}`;
        store.increment(batch);
      }
    }
    barrier();
    if (data.workerId === 0) {
      for (const back of w > 0 ? [0, 1] : [0]) {
        const start = windowStart - back * 60;
        for (const key of data.sharedKeys) {
          const count = read(key + start, start);
          if (count !== perKey) result.mismatches.push(`window ${w - back} key ${key}: ${count} != ${perKey}`);
        }
      }
    }
    barrier();
  }
}
