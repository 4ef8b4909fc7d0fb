/** The two groups of a class, its teachers and its students: getGroupDetails and listGroupUsers, for members of the class. */
import { ServiceError, unwrap } from '../../errors/index.js';
import type { ApiOutcome, ApiRequest } from '../../transports/http/handoff/index.js';
import type { ClassRole } from '../education/classroom.js';
import type { EducationStore } from '../education/education-store.js';
import type { Grant } from '../accounts/user.js';
import { pictureUrls } from './account-routes.js';
import { profileOf, type ClassRoutesParts } from './class-details.js';
import type { ClassAccess } from './education-access.js';
import { groupJson, type GroupKind } from './education-views.js';
import { jsonResponse } from './responses.js';
import { userPublicJson } from './user-views.js';

/** The class of group `id` and the caller's role in it: 404 without such a group, 403 for an account not in its class. */
export async function groupClass(education: EducationStore, id: string, userId: string): Promise<{ access: ClassAccess; teachers: boolean } | ServiceError> {
  const classroom = await education.classByGroup(id);
  if (classroom === undefined) return new ServiceError('SC_CLASS_NOT_FOUND', `no group ${JSON.stringify(id)}`, { param: 'group' });
  const role = await education.roleIn(classroom.id, userId);
  if (role === undefined) return new ServiceError('SC_FORBIDDEN', 'You are not a member of the class of this group');
  return { access: { classroom, role }, teachers: classroom.teachersGroupId === id };
}

/** The class of the group a request names, for one of its members. */
async function groupFor(parts: ClassRoutesParts, request: ApiRequest, grant: Grant): Promise<{ access: ClassAccess; kind: GroupKind; members: ClassRole } | ServiceError> {
  const group = await groupClass(parts.education, request.params['group'] ?? '', grant.user.id);
  if (group instanceof ServiceError) return group;
  return { access: group.access, kind: group.teachers ? 'teachers' : 'students', members: group.teachers ? 'teacher' : 'student' };
}

export async function getGroupDetails(parts: ClassRoutesParts, request: ApiRequest, grant: Grant): Promise<ApiOutcome> {
  const group = unwrap(await groupFor(parts, request, grant));
  const members = await parts.education.members(group.access.classroom.id);
  return jsonResponse(200, groupJson(group.access.classroom, group.kind, members.filter((m) => m.role === group.members).length));
}

export async function listGroupUsers(parts: ClassRoutesParts, request: ApiRequest, grant: Grant): Promise<ApiOutcome> {
  const group = unwrap(await groupFor(parts, request, grant));
  const users: Array<Record<string, unknown>> = [];
  for (const member of await parts.education.members(group.access.classroom.id)) {
    if (member.role !== group.members) continue;
    const user = await parts.accounts.userById(member.userId);
    if (user === undefined) continue;
    const profile = await profileOf(parts, user.id);
    users.push(userPublicJson(user, pictureUrls(parts, request, user), { organization: profile.organization, organizationRole: profile.organizationRole, classRole: group.members }));
  }
  return jsonResponse(200, users);
}
