import { ServiceError } from '../errors/index.js';
import type { ApiDefinition, ApiRequest } from '../transports/http/handoff/index.js';
import type { AccountStore } from './accounts/account-store.js';
import { accountRoutes } from './api/account-routes.js';
import { exportRoutes } from './api/export-routes.js';
import { scoreRoutes } from './api/score-routes.js';
import type { ScoreExporter } from './exports/index.js';
import type { UrlSigner } from './files/url-signer.js';
import type { ScoreStore } from './library/score-store.js';

export interface ScoresApiParts {
  accounts: AccountStore;
  scores: ScoreStore;
  exporter: ScoreExporter;
  signer: UrlSigner;
  /** Scheme, host and port of the service for absolute URLs; '' takes them from each request's Host. */
  publicUrl: string;
  now(): number;
  newSharingKey(): string;
}

/** The score and education API (release 2.13.0 surface) as the API thread serves it. */
export function scoresApi(parts: ScoresApiParts): ApiDefinition {
  const absoluteUrl = (request: ApiRequest, path: string) => `${parts.publicUrl || `http://${request.headers.get('host') ?? 'localhost'}`}${path}`;
  const forgetScore = (_scoreId: string, revisionIds: readonly string[]) => parts.exporter.forget(revisionIds);
  return {
    name: 'scores',
    prefixes: ['/v2/'],
    routes: [
      ...accountRoutes(parts.accounts),
      ...scoreRoutes({ ...parts, forgetScore }),
      ...exportRoutes({ ...parts, absoluteUrl }),
    ],
    notFound: (method, path) => new ServiceError('SC_NOT_FOUND', `no route ${method} ${path}`),
    methodNotAllowed: (method, path, allowed) =>
      new ServiceError('SC_METHOD_NOT_ALLOWED', `${method} is not allowed on ${path}; allowed: ${allowed.join(', ')}`, { allow: allowed.join(',') }),
    internalError: 'SC_INTERNAL',
  };
}
