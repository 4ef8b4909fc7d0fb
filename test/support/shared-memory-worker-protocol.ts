/** What the shared-memory test and its worker (shared-memory-worker.ts) exchange. */

/** Words of the gate SharedArrayBuffer. */
export const GATE_READY = 0;
export const GATE_GO = 1;
export const GATE_BARRIER = 2;
/** Window number the workers are in (rotate mode), for the main thread's maintain() timer. */
export const GATE_WINDOW = 3;
export const GATE_WORDS = 4;

export interface SharedMemoryWorkerData {
  mode: 'hammer' | 'rotate';
  buffer: SharedArrayBuffer;
  gate: SharedArrayBuffer;
  workers: number;
  workerId: number;
  iterations: number;
  sharedKeys: string[];
  limitKey: string;
  limit: number;
  uniqueEvery: number;
  windowStart: number;
  windows: number;
}

export interface SharedMemoryWorkerResult {
  /** hammer: limit checks whose count after adding was <= limit. */
  withinLimit: number;
  /** hammer: keys only this worker counted, once each. */
  uniqueKeys: string[];
  /** rotate (worker 0): counts that differed from the expected total at a barrier. */
  mismatches: string[];
}
