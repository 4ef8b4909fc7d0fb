import type { ApiManifest } from '../transports/http/handoff/index.js';

/**
 * The alert API's paths: Alertmanager's API v2, the removed v1 (which answers 410) and its web
 * routes (`/-/healthy`, `/-/ready`, `/-/reload`). Read by the HTTP front, so it loads nothing else.
 */
export const ALERTS_MANIFEST: ApiManifest = {
  name: 'alerts',
  prefixes: ['/api/v2/', '/api/v1/', '/-/'],
  guarded: true,
  errors: { tooLarge: 'AM_BODY_TOO_LARGE', unavailable: 'AM_UNAVAILABLE' },
};
