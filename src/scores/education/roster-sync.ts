import type { AccountStore } from '../accounts/account-store.js';
import type { User } from '../accounts/user.js';
import type { Classroom, SyncIssue } from './classroom.js';
import { admissionOf, emptyProfile, type EducationProfile } from './education-profile.js';
import type { EducationStore } from './education-store.js';

export interface RosterEntry {
  email: string;
  role: 'teacher' | 'student';
}

/** A user name for a new account from its e-mail's local part, as user names allow it. */
function baseUsername(email: string): string {
  const local = email.slice(0, email.indexOf('@')).replace(/[^A-Za-z0-9._-]/g, '');
  return (local === '' ? 'user' : local).slice(0, 56);
}

async function newAccount(accounts: AccountStore, email: string, now: number): Promise<User> {
  const base = baseUsername(email);
  for (let n = 1; ; n++) {
    const user = await accounts.createUser(n === 1 ? base : `${base}-${n}`, now);
    if (user !== undefined) return user;
  }
}

/**
 * Brings a class in line with a roster (as a school's information system or a partner suite
 * lists it), by e-mail:
 * - an e-mail no account has becomes a new account of the class's organization;
 * - an account of the class's organization, or one without any organization or subscription
 *   (which joins the class's organization), is added with the roster's role;
 * - an account of another organization (`otherOrgnanization`) or one paying for a personal
 *   subscription (`personalSubscription`) is not added: it becomes one of the class's
 *   synchronization issues, which each synchronization replaces.
 * Accounts are only added: removing one from a class deletes their submissions, so that stays a
 * deliberate `DELETE /classes/{class}/users/{user}`.
 */
export async function synchronizeRoster(stores: { accounts: AccountStore; education: EducationStore }, classroom: Classroom, roster: readonly RosterEntry[], now: number): Promise<Classroom> {
  const issues: SyncIssue[] = [];
  const organizationRole = (entry: RosterEntry) => (classroom.organization === null ? null : entry.role === 'teacher' ? ('teacher' as const) : ('user' as const));
  for (const entry of roster) {
    let profile: EducationProfile | undefined = await stores.education.profileByEmail(entry.email);
    if (profile === undefined) {
      const user = await newAccount(stores.accounts, entry.email, now);
      profile = { ...emptyProfile(user.id), email: entry.email, organization: classroom.organization, organizationRole: organizationRole(entry) };
      await stores.education.saveProfile(profile);
    }
    const admission = admissionOf(classroom, profile);
    if (admission === 'otherOrgnanization' || admission === 'personalSubscription') {
      issues.push({ userId: profile.userId, email: entry.email, reason: admission });
      continue;
    }
    if (admission === 'outsider') await stores.education.saveProfile({ ...profile, organization: classroom.organization, organizationRole: organizationRole(entry) });
    await stores.education.addMember(classroom.id, { userId: profile.userId, role: entry.role });
  }
  const synchronized = { ...classroom, syncIssues: issues };
  await stores.education.saveClass(synchronized);
  return synchronized;
}
