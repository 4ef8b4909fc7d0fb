import type { SharedCounterStore } from '../backends/index.js';
import type { EngineSettings } from '../engine/index.js';
import type { LogFormat, LogLevel } from '../observability/index.js';

export interface StoreLogSettings {
  logLevel: LogLevel;
  logFormat: LogFormat;
}

/** Shared memory and names every thread of the process attaches to (posted through workerData). */
export interface SharedResources {
  mailboxBuffer: SharedArrayBuffer;
  healthBuffer: SharedArrayBuffer;
  /** The BodyBudget of alert and score request bodies, shared by every HTTP thread. */
  bodyBudgetBuffer: SharedArrayBuffer;
  /** BroadcastChannel name on which threads report statistics to the main thread. */
  statsChannel: string;
  /** The counter store each thread opens (shared memory, or its own connections). */
  counterStore: SharedCounterStore;
  storeLog: StoreLogSettings;
  /** STATS_MAX_NAMES, for threads that keep statistics of their own. */
  statsMaxNames: number;
}

/** workerData of a piscina decision worker. */
export interface DecisionWorkerData {
  resources: SharedResources;
  engineSettings: EngineSettings;
}
