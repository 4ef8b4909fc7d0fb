import type { FrontWebConfig } from '../../transports/http/index.js';

/** Main thread -> HTTP front thread. */
export type FrontCommand = { type: 'drain'; graceMs: number } | { type: 'web-config'; config: FrontWebConfig };

/** HTTP front thread -> main thread. */
export type FrontReport =
  | { type: 'listening'; port: number }
  | { type: 'failed'; message: string; /** The port was held by another socket. */ listenFailed: boolean }
  | { type: 'drained' };
