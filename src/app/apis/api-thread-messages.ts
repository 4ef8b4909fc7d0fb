import type { MessagePort } from 'node:worker_threads';
import type { Settings } from '../../settings/index.js';

/** workerData of the API thread. */
export interface ApiThreadData {
  settings: Settings;
  /** BroadcastChannel name on which it reports its statistics to the main thread. */
  statsChannel: string;
}

/** Main thread -> API thread. */
export type ApiThreadCommand = { type: 'serve'; port: MessagePort } | { type: 'stop' };

/** API thread -> main thread. */
export type ApiThreadReport =
  /** Serving: APIs that have not opened yet answer 503. */
  | { type: 'ready' }
  /** One API opened (its state loaded) and answers. */
  | { type: 'opened'; api: string }
  | { type: 'stopped' }
  | { type: 'failed'; message: string };

/** Main thread -> HTTP front thread: the port of a (new) API thread. */
export interface ApiPortDelivery {
  type: 'api-port';
  port: MessagePort;
}
