/**
 * Public face of the debug HTTP listener (upstream's debug port): `/`, `/rlconfig`, `/stats` and
 * the `/debug/pprof/*` profiling endpoints (CPU profile, heap snapshot, trace events).
 */

export {
  startDebugServer,
  parseSeconds,
  CPU_PROFILE_DEFAULT_SECONDS,
  CPU_PROFILE_MAX_SECONDS,
  TRACE_DEFAULT_SECONDS,
  TRACE_MAX_SECONDS,
  TRACE_DEFAULT_CATEGORIES,
} from './server.js';
export type { DebugServer, DebugServerOptions, DebugLogger, MetricsPage, DebugJsonRoute } from './server.js';
export type { AccessRefusals } from './capture-access.js';
export { startMetricsServer } from './metrics-server.js';
export type { MetricsServer } from './metrics-server.js';
export { renderStats } from './stats-text.js';
export { isLoopbackHost } from './capture-access.js';
