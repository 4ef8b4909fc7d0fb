import type { User } from '../accounts/user.js';
import type { EducationProfile } from '../education/education-profile.js';
import type { Invitation, LtiCredentials } from '../education/organization.js';

const iso = (ms: number) => new Date(ms).toISOString();

/** UserDetailsAdmin. The service keeps no licenses or activity dates, so those fields are absent. */
export function userDetailsAdminJson(user: User, profile: EducationProfile, picture: string | null): Record<string, unknown> {
  const firstname = profile.firstname ?? '';
  const lastname = profile.lastname ?? '';
  const fullName = `${firstname} ${lastname}`.trim();
  return {
    id: user.id,
    type: 'user',
    username: user.username,
    printableName: fullName === '' ? user.username : fullName,
    firstname,
    lastname,
    name: fullName === '' ? user.username : fullName,
    picture,
    isPowerUser: false,
    isFlatTeam: false,
    ...(profile.organization === null ? {} : { organization: profile.organization }),
    ...(profile.organizationRole === null ? {} : { organizationRole: profile.organizationRole }),
    ...(profile.email === null ? {} : { email: profile.email }),
  };
}

/** OrganizationInvitation. */
export function invitationJson(invitation: Invitation): Record<string, unknown> {
  return {
    id: invitation.id,
    organization: invitation.organization,
    organizationRole: invitation.organizationRole,
    customCode: invitation.customCode,
    ...(invitation.email === null ? {} : { email: invitation.email }),
    invitedBy: invitation.invitedBy,
    ...(invitation.usedBy === null ? {} : { usedBy: invitation.usedBy }),
  };
}

/** LtiCredentials; the secret only in the answer that creates them. No launch reaches this service, so `lastUsage` is absent. */
export function ltiCredentialsJson(credentials: LtiCredentials, consumerSecret?: string): Record<string, unknown> {
  return {
    id: credentials.id,
    name: credentials.name,
    lms: credentials.lms,
    organization: credentials.organization,
    creator: credentials.creatorId,
    creationDate: iso(credentials.creationDate),
    consumerKey: credentials.consumerKey,
    ...(consumerSecret === undefined ? {} : { consumerSecret }),
  };
}
