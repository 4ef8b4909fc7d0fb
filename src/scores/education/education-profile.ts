import type { ClassRole, Classroom, SyncIssueReason } from './classroom.js';

export const ORGANIZATION_ROLES = ['admin', 'billing', 'teacher', 'user'] as const;
export type OrganizationRole = (typeof ORGANIZATION_ROLES)[number];

/**
 * What the education API knows of an account beyond its name: the e-mail a roster names it
 * by, its organization and role there, and whether it pays for a personal subscription (which
 * keeps it out of an organization until the subscription ends).
 */
export interface EducationProfile {
  userId: string;
  email: string | null;
  organization: string | null;
  organizationRole: OrganizationRole | null;
  personalSubscription: boolean;
  /** Names an organization's admins give the account (absent in profiles stored before them). */
  firstname?: string;
  lastname?: string;
}

export function emptyProfile(userId: string): EducationProfile {
  return { userId, email: null, organization: null, organizationRole: null, personalSubscription: false };
}

/** The class group an account joins: organization teachers and admins teach, everyone else studies. */
export function classRoleOf(profile: EducationProfile): ClassRole {
  return profile.organizationRole === 'teacher' || profile.organizationRole === 'admin' ? 'teacher' : 'student';
}

/**
 * Whether an account may be in a class: it is of the class's organization (`member`); it has no
 * organization and could be brought into the class's (`outsider`, which only a roster
 * synchronization does); or it cannot, for a synchronization issue's reason.
 */
export function admissionOf(classroom: Classroom, profile: EducationProfile): 'member' | 'outsider' | SyncIssueReason {
  if (profile.organization === classroom.organization) return 'member';
  if (profile.organization !== null) return 'otherOrgnanization';
  return profile.personalSubscription ? 'personalSubscription' : 'outsider';
}

/** Whether the profile is of an admin of an organization. */
export function organizationAdministered(profile: EducationProfile): profile is EducationProfile & { organization: string } {
  return profile.organization !== null && profile.organizationRole === 'admin';
}

/** An e-mail address as rosters and administrators give it: something@somewhere.tld, no spaces. */
export function isEmailAddress(text: string): boolean {
  return text.length <= 254 && /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(text);
}
