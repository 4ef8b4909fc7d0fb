/**
 * Worker for test/unit/backends/shared-memory-counter-store-threads.test.ts: attaches to the
 * store's buffer, waits at a gate so all workers start together, then hammers shared keys, a
 * limit key and keys of its own, and reports how many limit checks it saw within the limit.
 */
import { parentPort, workerData } from 'node:worker_threads';
import type { CounterIncrement } from '../../src/backends/counter-store.js';
import { SharedMemoryCounterStore } from '../../src/backends/shared-memory/index.js';
import { Unit } from '../../src/engine/units.js';

export interface SharedMemoryWorkerData {
  buffer: SharedArrayBuffer;
  /** Int32Array(2): [0] workers ready, [1] go flag. */
  gate: SharedArrayBuffer;
  workerId: number;
  iterations: number;
  sharedKeys: string[];
  limitKey: string;
  limit: number;
  uniqueEvery: number;
  windowStart: number;
}

export interface SharedMemoryWorkerResult {
  /** Limit checks whose count after adding was <= limit. */
  withinLimit: number;
  uniqueKeys: string[];
}

const data = workerData as SharedMemoryWorkerData;
const store = SharedMemoryCounterStore.attach(data.buffer);
const gate = new Int32Array(data.gate);
const unit = Unit.MINUTE;

const batch: CounterIncrement[] = [
  { key: '', hits: 1, unit, windowStart: data.windowStart },
  { key: data.limitKey, hits: 1, unit, windowStart: data.windowStart },
];
const shared = batch[0]!;
const uniqueKeys: string[] = [];
let withinLimit = 0;

Atomics.add(gate, 0, 1);
Atomics.notify(gate, 0);
Atomics.wait(gate, 1, 0);

for (let i = 0; i < data.iterations; i++) {
  shared.key = data.sharedKeys[i % data.sharedKeys.length]!;
  const results = store.increment(batch);
  if ((results[1] ?? Infinity) <= data.limit) withinLimit++;
  if (i % data.uniqueEvery === 0) {
    const key = `unique_${data.workerId}_${i}_${data.windowStart}`;
    store.increment([{ key, hits: 1, unit, windowStart: data.windowStart }]);
    uniqueKeys.push(key);
  }
}

const result: SharedMemoryWorkerResult = { withinLimit, uniqueKeys };
parentPort?.postMessage(result);
