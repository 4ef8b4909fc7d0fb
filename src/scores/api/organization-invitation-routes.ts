import { randomBytes } from 'node:crypto';
import { ServiceError, unwrap } from '../../errors/index.js';
import type { ApiOutcome, ApiRequest, ApiRoute } from '../../transports/http/handoff/index.js';
import { newId } from '../accounts/tokens.js';
import type { Grant } from '../accounts/user.js';
import type { Invitation } from '../education/organization.js';
import { grantedRoutes } from './access.js';
import { optionalJsonObjectBody } from './body-fields.js';
import { administeredOrganization, ORGANIZATION_USERS_READ, ORGANIZATION_USERS_WRITE } from './organization-access.js';
import { invitationCreation } from './organization-bodies.js';
import type { OrganizationRoutesParts } from './organization-user-routes.js';
import { invitationJson } from './organization-views.js';
import { pagedResponse, pageOf } from './pagination.js';
import { jsonResponse } from './responses.js';

const INVITATION_ROLES = ['user', 'teacher', 'admin'];

/** The invitations of the caller's organization, for its admins: listOrganizationInvitations, createOrganizationInvitation, removeOrganizationInvitation. */
export function organizationInvitationRoutes(parts: OrganizationRoutesParts): ApiRoute[] {
  const route = grantedRoutes(parts);
  return [
    route('GET', '/v2/organizations/invitations', ORGANIZATION_USERS_READ, listOrganizationInvitations),
    route('POST', '/v2/organizations/invitations', ORGANIZATION_USERS_WRITE, createOrganizationInvitation),
    route('DELETE', '/v2/organizations/invitations/:invitation', ORGANIZATION_USERS_WRITE, removeOrganizationInvitation),
  ];
}

async function listOrganizationInvitations(parts: OrganizationRoutesParts, request: ApiRequest, grant: Grant): Promise<ApiOutcome> {
  const organization = unwrap(await administeredOrganization(parts.education, grant));
  const role = request.query.get('role');
  if (role !== null && !INVITATION_ROLES.includes(role)) return new ServiceError('SC_BAD_REQUEST', `role must be one of ${INVITATION_ROLES.join(', ')}`, { param: 'role' });
  const page = unwrap(pageOf(request.query, { fallback: 50, max: 1000 }));
  const invitations = (await parts.education.invitations(organization)).filter((i) => role === null || i.organizationRole === role);
  return pagedResponse((path) => parts.absoluteUrl(request, path), request, invitations, page, invitationJson);
}

/**
 * An invitation to the organization. One to the e-mail of an account already of the
 * organization gives that account the role at once and is used by it (`usedBy`); any other waits
 * for the account created with its e-mail (POST /organizations/users).
 */
async function createOrganizationInvitation(parts: OrganizationRoutesParts, request: ApiRequest, grant: Grant): Promise<ApiOutcome> {
  const organization = unwrap(await administeredOrganization(parts.education, grant));
  const fields = unwrap(invitationCreation(unwrap(optionalJsonObjectBody(request))));
  const member = fields.email === null ? undefined : await parts.education.profileByEmail(fields.email);
  const joined = member?.organization === organization ? member : undefined;
  if (joined !== undefined) await parts.education.saveProfile({ ...joined, organizationRole: fields.organizationRole });
  const invitation: Invitation = {
    id: newId(),
    organization,
    organizationRole: fields.organizationRole,
    customCode: randomBytes(8).toString('hex'),
    email: fields.email,
    invitedBy: grant.user.id,
    usedBy: joined?.userId ?? null,
    creationDate: parts.now(),
  };
  await parts.education.saveInvitation(invitation);
  return jsonResponse(200, invitationJson(invitation));
}

async function removeOrganizationInvitation(parts: OrganizationRoutesParts, request: ApiRequest, grant: Grant): Promise<ApiOutcome> {
  const organization = unwrap(await administeredOrganization(parts.education, grant));
  const id = request.params['invitation'] ?? '';
  if ((await parts.education.invitation(organization, id)) === undefined) return new ServiceError('SC_INVITATION_NOT_FOUND', `the organization has no invitation ${JSON.stringify(id)}`, { param: 'invitation' });
  await parts.education.deleteInvitation(id);
  return { status: 204 };
}
