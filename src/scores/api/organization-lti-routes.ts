import { randomBytes } from 'node:crypto';
import { ServiceError, unwrap } from '../../errors/index.js';
import type { ApiOutcome, ApiRequest, ApiRoute } from '../../transports/http/handoff/index.js';
import { newId, tokenHash } from '../accounts/tokens.js';
import type { Grant } from '../accounts/user.js';
import { MAX_LTI_CREDENTIALS, type LtiCredentials } from '../education/organization.js';
import { grantedRoutes } from './access.js';
import { jsonObjectBody } from './body-fields.js';
import { administeredOrganization, LTI_READ, LTI_WRITE } from './organization-access.js';
import { ltiCredentialsCreation } from './organization-bodies.js';
import type { OrganizationRoutesParts } from './organization-user-routes.js';
import { ltiCredentialsJson } from './organization-views.js';
import { jsonResponse } from './responses.js';

/** LTI 1.x credentials of the caller's organization, for its admins: listLtiCredentials, createLtiCredentials, revokeLtiCredentials. */
export function organizationLtiRoutes(parts: OrganizationRoutesParts): ApiRoute[] {
  const route = grantedRoutes(parts);
  return [
    route('GET', '/v2/organizations/lti/credentials', LTI_READ, listLtiCredentials),
    route('POST', '/v2/organizations/lti/credentials', LTI_WRITE, createLtiCredentials),
    route('DELETE', '/v2/organizations/lti/credentials/:credentials', LTI_WRITE, revokeLtiCredentials),
  ];
}

async function listLtiCredentials(parts: OrganizationRoutesParts, _request: ApiRequest, grant: Grant): Promise<ApiOutcome> {
  const organization = unwrap(await administeredOrganization(parts.education, grant));
  return jsonResponse(200, (await parts.education.ltiCredentials(organization)).map((credentials) => ltiCredentialsJson(credentials)));
}

/**
 * New credentials; the consumer secret is in this answer only. As with personal access tokens,
 * only its SHA-256 is stored: it carries 256 random bits, so a copy of the database grants nothing.
 */
async function createLtiCredentials(parts: OrganizationRoutesParts, request: ApiRequest, grant: Grant): Promise<ApiOutcome> {
  const organization = unwrap(await administeredOrganization(parts.education, grant));
  const fields = unwrap(ltiCredentialsCreation(unwrap(jsonObjectBody(request))));
  const credentials: LtiCredentials = { id: newId(), ...fields, organization, creatorId: grant.user.id, creationDate: parts.now(), consumerKey: randomBytes(16).toString('hex') };
  const consumerSecret = randomBytes(32).toString('base64url');
  if (!(await parts.education.addLtiCredentials(credentials, tokenHash(consumerSecret), MAX_LTI_CREDENTIALS))) {
    return new ServiceError('SC_LIST_FULL', `the organization holds ${MAX_LTI_CREDENTIALS} LTI credentials, the most it may; revoke some first`);
  }
  return jsonResponse(200, ltiCredentialsJson(credentials, consumerSecret));
}

async function revokeLtiCredentials(parts: OrganizationRoutesParts, request: ApiRequest, grant: Grant): Promise<ApiOutcome> {
  const organization = unwrap(await administeredOrganization(parts.education, grant));
  const id = request.params['credentials'] ?? '';
  if (!(await parts.education.deleteLtiCredentials(organization, id))) return new ServiceError('SC_LTI_CREDENTIALS_NOT_FOUND', `the organization has no LTI credentials ${JSON.stringify(id)}`, { param: 'credentials' });
  return { status: 204 };
}
