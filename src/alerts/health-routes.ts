import type { ApiResponse, ApiRoute } from '../transports/http/handoff/index.js';

export interface ReadinessSource {
  /** True once the alert state has loaded and requests can be served. */
  isReady(): boolean;
}

const TEXT_PLAIN: Array<[string, string]> = [['Content-Type', 'text/plain; charset=utf-8']];
const OK: ApiResponse = { status: 200, headers: TEXT_PLAIN, body: 'OK' };
const NOT_READY: ApiResponse = { status: 503, headers: TEXT_PLAIN, body: 'Service Unavailable' };

/**
 * Alertmanager's `/-/healthy` and `/-/ready` (GET and HEAD, 200 `OK`). They are answered by the
 * API thread itself, so they also tell whether that thread is alive and keeping up.
 */
export function healthRoutes(readiness: ReadinessSource): ApiRoute[] {
  const healthy = () => OK;
  const ready = () => (readiness.isReady() ? OK : NOT_READY);
  return [
    { method: 'GET', path: '/-/healthy', handle: healthy },
    { method: 'HEAD', path: '/-/healthy', handle: healthy },
    { method: 'GET', path: '/-/ready', handle: ready },
    { method: 'HEAD', path: '/-/ready', handle: ready },
  ];
}
