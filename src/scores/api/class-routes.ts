import { randomBytes } from 'node:crypto';
import { ServiceError } from '../../errors/index.js';
import type { ApiRequest, ApiRoute } from '../../transports/http/handoff/index.js';
import { newId } from '../accounts/tokens.js';
import type { Grant } from '../accounts/user.js';
import { CLASS_STATES, type ClassRole, type Classroom, type ClassState } from '../education/classroom.js';
import { admissionOf, classRoleOf, emptyProfile, type EducationProfile } from '../education/education-profile.js';
import { synchronizeRoster } from '../education/roster-sync.js';
import type { ScoreApiParts } from './api-parts.js';
import { withGrant } from './access.js';
import { jsonObjectBody } from './body-fields.js';
import { CLASSES_READ, CLASSES_WRITE, classFor, seesAssignment, taughtClassFor, type ClassAccess } from './education-access.js';
import { classFields, rosterEntries } from './education-bodies.js';
import { classDetailsJson, groupJson, type GroupKind } from './education-views.js';
import { jsonResponse } from './responses.js';
import { pictureUrls } from './account-routes.js';
import { userPublicJson } from './user-views.js';

export type ClassRoutesParts = Pick<ScoreApiParts, 'accounts' | 'education' | 'absoluteUrl' | 'now' | 'enrolmentGuard'>;

const THEMES = ['blue-8', 'green-7', 'orange-6', 'purple-7', 'red-7', 'teal-7'] as const;

/** Eight characters from an alphabet without look-alikes (0/O, 1/I/L), for students to type. */
function newEnrollmentCode(): string {
  const alphabet = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';
  return Array.from(randomBytes(8), (byte) => alphabet[byte % alphabet.length]).join('');
}

/** The answer to an account that gave too many unknown codes: when it may try again, and no lookup. */
function tooManyFailures(waitSeconds: number): ServiceError {
  return new ServiceError('SC_TOO_MANY_ENROLLMENT_FAILURES', `Too many unknown enrollment codes from this account; try again in ${waitSeconds} s`, {
    param: 'enrollmentCode',
    retryAfterSeconds: waitSeconds,
  });
}

/** Why an account cannot be in the class, worded for the one who tried to add it. */
function refusal(classroom: Classroom, profile: EducationProfile, who: string): ServiceError | undefined {
  const admission = admissionOf(classroom, profile);
  if (admission === 'member') return undefined;
  const organization = classroom.organization === null ? 'personal accounts' : `organization ${classroom.organization}`;
  const why =
    admission === 'otherOrgnanization'
      ? `${who} belongs to another organization`
      : admission === 'personalSubscription'
        ? `${who} has a personal subscription`
        : `${who} is not part of ${organization}`;
  return new ServiceError('SC_FORBIDDEN', `${why}; only accounts of ${organization} can be in this class`);
}

/**
 * Classes (listClasses, createClass, getClass, updateClass, archive/unarchive/activate), their
 * members (addClassUser, deleteClassUser, enrollClass, the two groups and their users) and the
 * roster synchronization that fills `issues.sync`.
 */
export function classRoutes(parts: ClassRoutesParts): ApiRoute[] {
  const profileOf = async (userId: string) => (await parts.education.profileOf(userId)) ?? emptyProfile(userId);

  const details = async (access: ClassAccess, viewer: string): Promise<Record<string, unknown>> => {
    const members = await parts.education.members(access.classroom.id);
    const now = parts.now();
    const assignments = (await parts.education.listAssignments(access.classroom.id)).filter((a) => seesAssignment(access, viewer, a, now));
    const teachers = members.filter((m) => m.role === 'teacher').length;
    return classDetailsJson(access.classroom, access.role, { teachers, students: members.length - teachers, assignments: assignments.length });
  };
  const answer = async (access: ClassAccess, grant: Grant) => jsonResponse(200, await details(access, grant.user.id));

  /** A teacher's change of the class's state. */
  const setState = (state: ClassState) =>
    withGrant(parts, CLASSES_WRITE, async (request, grant) => {
      const access = await taughtClassFor(parts.education, request, grant, `change the state of the class`);
      if (access instanceof ServiceError) return access;
      const classroom = { ...access.classroom, state };
      await parts.education.saveClass(classroom);
      return answer({ ...access, classroom }, grant);
    });

  /** The class of a group, for one of its members. */
  const groupFor = async (request: ApiRequest, grant: Grant): Promise<{ access: ClassAccess; kind: GroupKind; members: ClassRole } | ServiceError> => {
    const id = request.params['group'] ?? '';
    const classroom = await parts.education.classByGroup(id);
    if (classroom === undefined) return new ServiceError('SC_CLASS_NOT_FOUND', `no group ${JSON.stringify(id)}`, { param: 'group' });
    const role = await parts.education.roleIn(classroom.id, grant.user.id);
    if (role === undefined) return new ServiceError('SC_FORBIDDEN', 'You are not a member of the class of this group');
    const teachers = classroom.teachersGroupId === id;
    return { access: { classroom, role }, kind: teachers ? 'teachers' : 'students', members: teachers ? 'teacher' : 'student' };
  };

  return [
    {
      method: 'GET',
      path: '/v2/classes',
      handle: withGrant(parts, CLASSES_READ, async (request, grant) => {
        const state = request.query.get('state') ?? 'active';
        if (!(CLASS_STATES as readonly string[]).includes(state)) return new ServiceError('SC_BAD_REQUEST', `state must be one of ${CLASS_STATES.join(', ')}`, { param: 'state' });
        const listed = (await parts.education.classesOf(grant.user.id)).filter(({ classroom }) => classroom.state === state);
        const bodies: Array<Record<string, unknown>> = [];
        for (const access of listed) bodies.push(await details(access, grant.user.id));
        return jsonResponse(200, bodies);
      }),
    },
    {
      method: 'POST',
      path: '/v2/classes',
      handle: withGrant(parts, CLASSES_WRITE, async (request, grant) => {
        const body = jsonObjectBody(request);
        if (body instanceof ServiceError) return body;
        const fields = classFields(body, true);
        if (fields instanceof ServiceError) return fields;
        const creator = await profileOf(grant.user.id);
        if (creator.organization !== null && classRoleOf(creator) !== 'teacher') {
          return new ServiceError('SC_FORBIDDEN', `only the teachers and admins of organization ${creator.organization} create classes`);
        }
        const id = newId();
        const classroom: Classroom = {
          id,
          name: fields.name ?? '',
          section: fields.section ?? '',
          state: 'active',
          organization: creator.organization,
          ownerId: grant.user.id,
          creationDate: parts.now(),
          enrollmentCode: newEnrollmentCode(),
          theme: THEMES[parseInt(id.slice(-2), 16) % THEMES.length] ?? 'blue-8',
          teachersGroupId: newId(),
          studentsGroupId: newId(),
          syncIssues: [],
        };
        await parts.education.createClass(classroom);
        return answer({ classroom, role: 'teacher' }, grant);
      }),
    },
    {
      method: 'GET',
      path: '/v2/classes/:class',
      handle: withGrant(parts, CLASSES_READ, async (request, grant) => {
        const access = await classFor(parts.education, request, grant);
        return access instanceof ServiceError ? access : answer(access, grant);
      }),
    },
    {
      method: 'PUT',
      path: '/v2/classes/:class',
      handle: withGrant(parts, CLASSES_WRITE, async (request, grant) => {
        const access = await taughtClassFor(parts.education, request, grant, 'update the class');
        if (access instanceof ServiceError) return access;
        const body = jsonObjectBody(request);
        if (body instanceof ServiceError) return body;
        const fields = classFields(body, false);
        if (fields instanceof ServiceError) return fields;
        const classroom = { ...access.classroom, name: fields.name ?? access.classroom.name, section: fields.section ?? access.classroom.section };
        await parts.education.saveClass(classroom);
        return answer({ ...access, classroom }, grant);
      }),
    },
    { method: 'POST', path: '/v2/classes/:class/archive', handle: setState('archived') },
    { method: 'DELETE', path: '/v2/classes/:class/archive', handle: setState('active') },
    { method: 'POST', path: '/v2/classes/:class/activate', handle: setState('active') },
    {
      method: 'PUT',
      path: '/v2/classes/:class/users/:user',
      handle: withGrant(parts, CLASSES_WRITE, async (request, grant) => {
        const access = await taughtClassFor(parts.education, request, grant, 'add users to the class');
        if (access instanceof ServiceError) return access;
        const userId = request.params['user'] ?? '';
        if ((await parts.accounts.userById(userId)) === undefined) return new ServiceError('SC_USER_NOT_FOUND', `no user ${JSON.stringify(userId)}`, { param: 'user' });
        const profile = await profileOf(userId);
        const refused = refusal(access.classroom, profile, `user ${userId}`);
        if (refused !== undefined) return refused;
        await parts.education.addMember(access.classroom.id, { userId, role: classRoleOf(profile) });
        return { status: 204 };
      }),
    },
    {
      method: 'DELETE',
      path: '/v2/classes/:class/users/:user',
      handle: withGrant(parts, CLASSES_WRITE, async (request, grant) => {
        const access = await classFor(parts.education, request, grant);
        if (access instanceof ServiceError) return access;
        const userId = request.params['user'] ?? '';
        // Teachers remove anyone; a student only leaves.
        if (access.role !== 'teacher' && userId !== grant.user.id) return new ServiceError('SC_FORBIDDEN', 'students can only remove themselves from a class');
        if (userId === access.classroom.ownerId) return new ServiceError('SC_BAD_REQUEST', 'the teacher who created the class cannot be removed from it', { param: 'user' });
        if ((await parts.education.roleIn(access.classroom.id, userId)) === undefined) return new ServiceError('SC_USER_NOT_FOUND', `user ${JSON.stringify(userId)} is not in the class`, { param: 'user' });
        await parts.education.removeMember(access.classroom.id, userId);
        return { status: 204 };
      }),
    },
    {
      method: 'POST',
      path: '/v2/classes/enroll/:enrollmentCode',
      handle: withGrant(parts, CLASSES_WRITE, async (request, grant) => {
        const wait = await parts.enrolmentGuard.waitSeconds(grant.user.id);
        if (wait > 0) return tooManyFailures(wait);
        const code = (request.params['enrollmentCode'] ?? '').toUpperCase();
        const classroom = await parts.education.classByEnrollmentCode(code);
        if (classroom === undefined) {
          await parts.enrolmentGuard.recordFailure(grant.user.id);
          return new ServiceError('SC_CLASS_NOT_FOUND', `no class has the enrollment code ${JSON.stringify(code)}`, { param: 'enrollmentCode' });
        }
        const existing = await parts.education.roleIn(classroom.id, grant.user.id);
        if (existing !== undefined) return answer({ classroom, role: existing }, grant);
        if (classroom.state !== 'active') return new ServiceError('SC_FORBIDDEN', `the class is ${classroom.state}; it cannot be joined`);
        const profile = await profileOf(grant.user.id);
        const refused = refusal(classroom, profile, 'your account');
        if (refused !== undefined) return refused;
        const role: ClassRole = classRoleOf(profile);
        await parts.education.addMember(classroom.id, { userId: grant.user.id, role });
        return answer({ classroom, role }, grant);
      }),
    },
    {
      method: 'POST',
      path: '/v2/classes/:class/roster',
      handle: withGrant(parts, CLASSES_WRITE, async (request, grant) => {
        const access = await taughtClassFor(parts.education, request, grant, 'synchronize its roster');
        if (access instanceof ServiceError) return access;
        const body = jsonObjectBody(request);
        if (body instanceof ServiceError) return body;
        const roster = rosterEntries(body);
        if (roster instanceof ServiceError) return roster;
        const classroom = await synchronizeRoster(parts, access.classroom, roster, parts.now());
        return answer({ ...access, classroom }, grant);
      }),
    },
    {
      method: 'GET',
      path: '/v2/groups/:group',
      handle: withGrant(parts, CLASSES_READ, async (request, grant) => {
        const found = await groupFor(request, grant);
        if (found instanceof ServiceError) return found;
        const members = await parts.education.members(found.access.classroom.id);
        return jsonResponse(200, groupJson(found.access.classroom, found.kind, members.filter((m) => m.role === found.members).length));
      }),
    },
    {
      method: 'GET',
      path: '/v2/groups/:group/users',
      handle: withGrant(parts, CLASSES_READ, async (request, grant) => {
        const found = await groupFor(request, grant);
        if (found instanceof ServiceError) return found;
        const users: Array<Record<string, unknown>> = [];
        for (const member of await parts.education.members(found.access.classroom.id)) {
          if (member.role !== found.members) continue;
          const user = await parts.accounts.userById(member.userId);
          if (user === undefined) continue;
          const profile = await profileOf(user.id);
          users.push(userPublicJson(user, pictureUrls(parts, request, user), { organization: profile.organization, organizationRole: profile.organizationRole, classRole: found.members }));
        }
        return jsonResponse(200, users);
      }),
    },
  ];
}
