import { attempt, ServiceError, unwrap } from '../../errors/index.js';
import type { EducationProfile } from '../education/education-profile.js';
import type { EducationStore } from '../education/education-store.js';
import { booleanParam } from './query-params.js';

/** What listOrganizationUsers and countOrgaUsers filter an organization's accounts by. */
export interface UserFilters {
  roles: readonly string[];
  search: string;
  /** Accounts in every one of these class groups' classes with the group's role; empty for no filter. */
  groupMembers: ReadonlyArray<ReadonlySet<string>>;
  /** `licenseExpirationDate`: `notActive` keeps every account; `active` or a date none. */
  licensedOnly: boolean;
}

const FILTER_ROLES = ['user', 'teacher', 'admin'];

/** The filters of the request's query, each checked (`group` must name a class group of the organization). */
export async function userFilters(query: URLSearchParams, education: EducationStore, organization: string): Promise<UserFilters | ServiceError> {
  return attempt(async () => {
    const roles = query.getAll('role');
    const unknown = roles.find((role) => !FILTER_ROLES.includes(role));
    if (unknown !== undefined) return new ServiceError('SC_BAD_REQUEST', `role must be one of ${FILTER_ROLES.join(', ')}, not ${JSON.stringify(unknown)}`, { param: 'role' });
    const groupMembers: Array<Set<string>> = [];
    for (const group of query.getAll('group')) {
      const classroom = await education.classByGroup(group);
      if (classroom === undefined || classroom.organization !== organization) return new ServiceError('SC_BAD_REQUEST', `group ${JSON.stringify(group)} is not a group of the organization`, { param: 'group' });
      const role = classroom.teachersGroupId === group ? 'teacher' : 'student';
      groupMembers.push(new Set((await education.members(classroom.id)).filter((m) => m.role === role).map((m) => m.userId)));
    }
    // The service keeps no licenses: every account is without an active one, so noActiveLicense keeps them all.
    unwrap(booleanParam(query, 'noActiveLicense', false));
    let licensedOnly = false;
    for (const value of query.getAll('licenseExpirationDate')) {
      if (value === 'notActive') continue;
      if (value !== 'active' && Number.isNaN(Date.parse(value))) return new ServiceError('SC_BAD_REQUEST', 'licenseExpirationDate must be active, notActive or a date', { param: 'licenseExpirationDate' });
      licensedOnly = true;
    }
    return { roles, search: (query.get('q') ?? '').toLowerCase(), groupMembers, licensedOnly };
  });
}

/** Whether the account passes the filters; `username` is searched with its names and e-mail. */
export function passes(filters: UserFilters, profile: EducationProfile, username: string): boolean {
  if (filters.licensedOnly) return false;
  if (filters.roles.length > 0 && !filters.roles.includes(profile.organizationRole ?? 'user')) return false;
  if (!filters.groupMembers.every((members) => members.has(profile.userId))) return false;
  if (filters.search === '') return true;
  return [username, profile.firstname ?? '', profile.lastname ?? '', profile.email ?? ''].some((text) => text.toLowerCase().includes(filters.search));
}
