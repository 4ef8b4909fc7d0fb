import { ServiceError } from '../../errors/index.js';
import type { Scope } from '../accounts/scopes.js';
import type { Grant } from '../accounts/user.js';
import { emptyProfile, organizationAdministered } from '../education/education-profile.js';
import type { EducationStore } from '../education/education-store.js';

/** The OAuth2 alternatives of the organization operations, as release 2.13.0 lists them. */
export const ORGANIZATION_USERS_READ: readonly Scope[] = ['edu.admin', 'edu.admin.users', 'edu.admin.users.readonly'];
export const ORGANIZATION_USERS_WRITE: readonly Scope[] = ['edu.admin', 'edu.admin.users'];
export const LTI_READ: readonly Scope[] = ['edu.admin', 'edu.admin.lti', 'edu.admin.lti.readonly'];
export const LTI_WRITE: readonly Scope[] = ['edu.admin', 'edu.admin.lti'];

/** The organization the caller administers, or the 403 of an account that is not one of its admins. */
export async function administeredOrganization(education: EducationStore, grant: Grant): Promise<string | ServiceError> {
  const profile = (await education.profileOf(grant.user.id)) ?? emptyProfile(grant.user.id);
  return organizationAdministered(profile) ? profile.organization : new ServiceError('SC_FORBIDDEN', 'only the admins of an organization may manage it');
}
