import { ServiceError } from '../../errors/index.js';
import type { ApiRoute } from '../../transports/http/handoff/index.js';
import type { AccountStore } from '../accounts/account-store.js';
import { authorize } from './authorization.js';
import { booleanParam } from './query-params.js';
import { jsonResponse } from './responses.js';
import { userDetailsJson } from './user-views.js';

/** `GET /v2/me` (getAuthenticatedUser): the token's user; `onlyId=true` answers `{id}` alone. */
export function accountRoutes(accounts: AccountStore): ApiRoute[] {
  return [
    {
      method: 'GET',
      path: '/v2/me',
      handle: async (request) => {
        const grant = await authorize(request, accounts, ['account.public_profile', 'account.education_profile']);
        if (grant instanceof ServiceError) return grant;
        const onlyId = booleanParam(request.query, 'onlyId', false);
        if (onlyId instanceof ServiceError) return onlyId;
        return jsonResponse(200, onlyId ? { id: grant.user.id } : userDetailsJson(grant.user));
      },
    },
  ];
}
