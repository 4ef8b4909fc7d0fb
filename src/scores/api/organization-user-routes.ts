import { ServiceError, unwrap } from '../../errors/index.js';
import type { ApiOutcome, ApiRequest, ApiRoute } from '../../transports/http/handoff/index.js';
import type { User } from '../accounts/user.js';
import type { Grant } from '../accounts/user.js';
import { emptyProfile, type EducationProfile } from '../education/education-profile.js';
import { EmailTaken } from '../education/education-store.js';
import { pictureUrls } from './account-routes.js';
import type { ScoreApiParts } from './api-parts.js';
import { grantedRoutes } from './access.js';
import { jsonObjectBody, optionalJsonObjectBody } from './body-fields.js';
import { administeredOrganization, ORGANIZATION_USERS_READ, ORGANIZATION_USERS_WRITE } from './organization-access.js';
import { userAdminUpdate, userCreation, type AccountFields } from './organization-bodies.js';
import { passes, userFilters } from './organization-user-filters.js';
import { userDetailsAdminJson } from './organization-views.js';
import { pagedResponse, pageOf } from './pagination.js';
import { booleanParam } from './query-params.js';
import { jsonResponse } from './responses.js';

export type OrganizationRoutesParts = Pick<ScoreApiParts, 'accounts' | 'education' | 'absoluteUrl' | 'now'>;

/** The organization user routes also close accounts. */
export interface OrganizationUserRoutesParts extends OrganizationRoutesParts {
  /** Deletes for good the scores (documents, history, comments, collaborators) and collections of a closed account. */
  deleteAccountData(userId: string): Promise<void>;
}

const SORTS = ['firstname', 'lastname', 'lastActivityDate', 'licenseExpirationDate'] as const;

/**
 * The accounts of the caller's organization, for its admins: listOrganizationUsers,
 * countOrgaUsers, createOrganizationUser, updateOrganizationUser and removeOrganizationUser.
 */
export function organizationUserRoutes(parts: OrganizationUserRoutesParts): ApiRoute[] {
  const route = grantedRoutes(parts);
  return [
    route('GET', '/v2/organizations/users', ORGANIZATION_USERS_READ, listOrganizationUsers),
    route('POST', '/v2/organizations/users', ORGANIZATION_USERS_WRITE, createOrganizationUser),
    route('GET', '/v2/organizations/users/count', ORGANIZATION_USERS_READ, countOrgaUsers),
    route('PUT', '/v2/organizations/users/:user', ORGANIZATION_USERS_WRITE, updateOrganizationUser),
    route('DELETE', '/v2/organizations/users/:user', ORGANIZATION_USERS_WRITE, removeOrganizationUser),
  ];
}

/** The organization's accounts that pass the request's filters, with their profiles, oldest first. */
async function filteredMembers(parts: OrganizationRoutesParts, request: ApiRequest, organization: string): Promise<Array<{ user: User; profile: EducationProfile }> | ServiceError> {
  const filters = await userFilters(request.query, parts.education, organization);
  if (filters instanceof ServiceError) return filters;
  const members: Array<{ user: User; profile: EducationProfile }> = [];
  for (const profile of await parts.education.organizationProfiles(organization)) {
    const user = await parts.accounts.userById(profile.userId);
    if (user !== undefined && passes(filters, profile, user.username)) members.push({ user, profile });
  }
  return members;
}

function userAnswer(parts: OrganizationRoutesParts, request: ApiRequest, user: User, profile: EducationProfile): Record<string, unknown> {
  return userDetailsAdminJson(user, profile, pictureUrls(parts, request, user).picture);
}

async function listOrganizationUsers(parts: OrganizationRoutesParts, request: ApiRequest, grant: Grant): Promise<ApiOutcome> {
  const organization = unwrap(await administeredOrganization(parts.education, grant));
  const sort = request.query.get('sort');
  if (sort !== null && !(SORTS as readonly string[]).includes(sort)) return new ServiceError('SC_BAD_REQUEST', `sort must be one of ${SORTS.join(', ')}`, { param: 'sort' });
  const direction = request.query.get('direction') ?? 'asc';
  if (direction !== 'asc' && direction !== 'desc') return new ServiceError('SC_BAD_REQUEST', 'direction must be asc or desc', { param: 'direction' });
  const onlyIds = unwrap(booleanParam(request.query, 'onlyIds', false));
  const page = unwrap(pageOf(request.query, { fallback: 25, max: 1000 }));
  const members = unwrap(await filteredMembers(parts, request, organization));
  // No activity dates or licenses are kept: those sorts leave the accounts oldest first.
  if (sort === 'firstname' || sort === 'lastname') members.sort((a, b) => (a.profile[sort] ?? '').localeCompare(b.profile[sort] ?? ''));
  if (direction === 'desc') members.reverse();
  return pagedResponse((path) => parts.absoluteUrl(request, path), request, members, page, ({ user, profile }) => (onlyIds ? { id: user.id } : userAnswer(parts, request, user, profile)));
}

async function countOrgaUsers(parts: OrganizationRoutesParts, request: ApiRequest, grant: Grant): Promise<ApiOutcome> {
  const organization = unwrap(await administeredOrganization(parts.education, grant));
  return jsonResponse(200, unwrap(await filteredMembers(parts, request, organization)).length);
}

/** The profile stored, or the 409 of an e-mail another account has. */
async function saveProfile(parts: OrganizationRoutesParts, profile: EducationProfile): Promise<ServiceError | undefined> {
  try {
    await parts.education.saveProfile(profile);
    return undefined;
  } catch (error) {
    if (error instanceof EmailTaken) return new ServiceError('SC_CONFLICT', error.message, { param: 'email' });
    throw error;
  }
}

const usernameTaken = (name: string) => new ServiceError('SC_CONFLICT', `the username ${JSON.stringify(name)} is taken`, { param: 'username' });

/** A new account of the organization; an invitation waiting for its e-mail gives it its role. */
async function createOrganizationUser(parts: OrganizationRoutesParts, request: ApiRequest, grant: Grant): Promise<ApiOutcome> {
  const organization = unwrap(await administeredOrganization(parts.education, grant));
  const fields = unwrap(userCreation(unwrap(optionalJsonObjectBody(request))));
  if (fields.email !== undefined && (await parts.education.profileByEmail(fields.email)) !== undefined) return new ServiceError('SC_CONFLICT', `${fields.email} belongs to another account`, { param: 'email' });
  const user = await parts.accounts.createUser(fields.username, parts.now());
  if (user === undefined) return usernameTaken(fields.username);
  const invitation = fields.email === undefined ? undefined : (await parts.education.invitations(organization)).find((i) => i.email === fields.email && i.usedBy === null);
  const profile: EducationProfile = {
    ...emptyProfile(user.id),
    email: fields.email ?? null,
    organization,
    organizationRole: invitation?.organizationRole ?? 'user',
    firstname: fields.firstname ?? '',
    lastname: fields.lastname ?? '',
  };
  unwrap(await saveProfile(parts, profile));
  if (invitation !== undefined) await parts.education.saveInvitation({ ...invitation, usedBy: user.id });
  return jsonResponse(200, userAnswer(parts, request, user, profile));
}

/** The account the request names, when it is of the organization (else not found: others' accounts are not the admin's to know). */
async function memberOf(parts: OrganizationRoutesParts, request: ApiRequest, organization: string): Promise<{ user: User; profile: EducationProfile } | ServiceError> {
  const id = request.params['user'] ?? '';
  const profile = await parts.education.profileOf(id);
  const user = profile?.organization === organization ? await parts.accounts.userById(id) : undefined;
  if (profile === undefined || user === undefined) return new ServiceError('SC_USER_NOT_FOUND', `the organization has no user ${JSON.stringify(id)}`, { param: 'user' });
  return { user, profile };
}

async function updateOrganizationUser(parts: OrganizationRoutesParts, request: ApiRequest, grant: Grant): Promise<ApiOutcome> {
  const organization = unwrap(await administeredOrganization(parts.education, grant));
  const fields: AccountFields = unwrap(userAdminUpdate(unwrap(jsonObjectBody(request))));
  const member = unwrap(await memberOf(parts, request, organization));
  // Both uniqueness checks come before any write, so a refused update changes nothing.
  const owner = fields.email === undefined ? undefined : await parts.education.profileByEmail(fields.email);
  if (owner !== undefined && owner.userId !== member.user.id) return new ServiceError('SC_CONFLICT', `${fields.email ?? ''} belongs to another account`, { param: 'email' });
  let user = member.user;
  if (fields.username !== undefined && fields.username !== user.username) user = (await parts.accounts.renameUser(user.id, fields.username)) ?? unwrap(usernameTaken(fields.username));
  const profile: EducationProfile = {
    ...member.profile,
    email: fields.email ?? member.profile.email,
    organizationRole: fields.organizationRole ?? member.profile.organizationRole,
    firstname: fields.firstname ?? member.profile.firstname ?? '',
    lastname: fields.lastname ?? member.profile.lastname ?? '',
  };
  unwrap(await saveProfile(parts, profile));
  return jsonResponse(200, userAnswer(parts, request, user, profile));
}

/**
 * The account leaves the organization and its classes (its submissions there with it). With
 * `convertToIndividual=true` it goes on as an account of its own; without, it is closed: every
 * token it holds is revoked.
 */
async function removeOrganizationUser(parts: OrganizationUserRoutesParts, request: ApiRequest, grant: Grant): Promise<ApiOutcome> {
  const organization = unwrap(await administeredOrganization(parts.education, grant));
  const individual = unwrap(booleanParam(request.query, 'convertToIndividual', false));
  const { user, profile } = unwrap(await memberOf(parts, request, organization));
  for (const { classroom } of await parts.education.classesOf(user.id)) {
    if (classroom.organization === organization) await parts.education.removeMember(classroom.id, user.id);
  }
  await parts.education.saveProfile({ ...profile, organization: null, organizationRole: null });
  if (!individual) {
    const now = parts.now();
    for (const token of await parts.accounts.listTokens(user.id)) await parts.accounts.revokeToken(token.id, now);
    await parts.deleteAccountData(user.id);
  }
  return { status: 204 };
}
