import type { ApiManifest } from '../transports/http/handoff/index.js';

/** The score and education API's paths. Read by the HTTP front, so it loads nothing else. */
export const SCORES_MANIFEST: ApiManifest = {
  name: 'scores',
  prefixes: ['/v2/'],
  errors: { tooLarge: 'SC_BODY_TOO_LARGE', unavailable: 'SC_UNAVAILABLE' },
};
