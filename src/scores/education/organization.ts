import type { OrganizationRole } from './education-profile.js';

/** What an organization keeps beside its members' profiles. Times are epoch milliseconds. */

/**
 * An invitation to join an organization with a role: by e-mail, or by its code alone. `usedBy`
 * is the account it brought in; an invitation to an e-mail already of the organization only
 * changes that account's role, and is used by it at once.
 */
export interface Invitation {
  id: string;
  organization: string;
  organizationRole: OrganizationRole;
  customCode: string;
  email: string | null;
  invitedBy: string;
  usedBy: string | null;
  creationDate: number;
}

/** The learning management systems LTI 1.x credentials are made for (LmsName). */
export const LMS_NAMES = ['canvas', 'moodle', 'schoology', 'blackboard', 'desire2learn', 'sakai', 'schoolbox', 'other'] as const;
export type LmsName = (typeof LMS_NAMES)[number];

/** A consumer key and secret an LMS signs its LTI 1.x launches with; the secret is kept only as its hash. */
export interface LtiCredentials {
  id: string;
  name: string;
  lms: LmsName;
  organization: string;
  creatorId: string;
  creationDate: number;
  consumerKey: string;
}

/** LTI credentials an organization may hold at once. */
export const MAX_LTI_CREDENTIALS = 100;
