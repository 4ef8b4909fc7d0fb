/**
 * Who is in a class: a teacher adds an account (addClassUser) or synchronizes the roster, a
 * teacher removes anyone and a student leaves (deleteClassUser), and a student joins with the
 * class's enrollment code (enrollClass), guessing codes being bounded per account.
 */
import { ServiceError, unwrap } from '../../errors/index.js';
import type { ApiOutcome, ApiRequest } from '../../transports/http/handoff/index.js';
import type { Grant } from '../accounts/user.js';
import type { ClassRole, Classroom } from '../education/classroom.js';
import { admissionOf, classRoleOf, type EducationProfile } from '../education/education-profile.js';
import { synchronizeRoster } from '../education/roster-sync.js';
import { jsonObjectBody } from './body-fields.js';
import { classAnswer, profileOf, type ClassRoutesParts } from './class-details.js';
import { classFor, taughtClassFor } from './education-access.js';
import { rosterEntries } from './education-bodies.js';

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

export async function addClassUser(parts: ClassRoutesParts, request: ApiRequest, grant: Grant): Promise<ApiOutcome> {
  const access = unwrap(await taughtClassFor(parts.education, request, grant, 'add users to the class'));
  const userId = request.params['user'] ?? '';
  if ((await parts.accounts.userById(userId)) === undefined) return new ServiceError('SC_USER_NOT_FOUND', `no user ${JSON.stringify(userId)}`, { param: 'user' });
  const profile = await profileOf(parts, userId);
  const refused = refusal(access.classroom, profile, `user ${userId}`);
  if (refused !== undefined) return refused;
  await parts.education.addMember(access.classroom.id, { userId, role: classRoleOf(profile) });
  return { status: 204 };
}

export async function deleteClassUser(parts: ClassRoutesParts, request: ApiRequest, grant: Grant): Promise<ApiOutcome> {
  const access = unwrap(await classFor(parts.education, request, grant));
  const userId = request.params['user'] ?? '';
  // Teachers remove anyone; a student only leaves.
  if (access.role !== 'teacher' && userId !== grant.user.id) return new ServiceError('SC_FORBIDDEN', 'students can only remove themselves from a class');
  if (userId === access.classroom.ownerId) return new ServiceError('SC_BAD_REQUEST', 'the teacher who created the class cannot be removed from it', { param: 'user' });
  if ((await parts.education.roleIn(access.classroom.id, userId)) === undefined) return new ServiceError('SC_USER_NOT_FOUND', `user ${JSON.stringify(userId)} is not in the class`, { param: 'user' });
  await parts.education.removeMember(access.classroom.id, userId);
  return { status: 204 };
}

export async function enrollClass(parts: ClassRoutesParts, request: ApiRequest, grant: Grant): Promise<ApiOutcome> {
  const wait = await parts.enrolmentGuard.waitSeconds(grant.user.id);
  if (wait > 0) return tooManyFailures(wait);
  const code = (request.params['enrollmentCode'] ?? '').toUpperCase();
  const classroom = await parts.education.classByEnrollmentCode(code);
  if (classroom === undefined) {
    await parts.enrolmentGuard.recordFailure(grant.user.id);
    return new ServiceError('SC_CLASS_NOT_FOUND', `no class has the enrollment code ${JSON.stringify(code)}`, { param: 'enrollmentCode' });
  }
  const existing = await parts.education.roleIn(classroom.id, grant.user.id);
  if (existing !== undefined) return classAnswer(parts, { classroom, role: existing }, grant);
  if (classroom.state !== 'active') return new ServiceError('SC_FORBIDDEN', `the class is ${classroom.state}; it cannot be joined`);
  const profile = await profileOf(parts, grant.user.id);
  const refused = refusal(classroom, profile, 'your account');
  if (refused !== undefined) return refused;
  const role: ClassRole = classRoleOf(profile);
  await parts.education.addMember(classroom.id, { userId: grant.user.id, role });
  return classAnswer(parts, { classroom, role }, grant);
}

/** Adds the accounts of a roster (`{users: [{email, role}]}`) to the class; those that cannot join become its `issues.sync`. */
export async function synchronizeClassRoster(parts: ClassRoutesParts, request: ApiRequest, grant: Grant): Promise<ApiOutcome> {
  const access = unwrap(await taughtClassFor(parts.education, request, grant, 'synchronize its roster'));
  const roster = unwrap(rosterEntries(unwrap(jsonObjectBody(request))));
  const classroom = await synchronizeRoster(parts, access.classroom, roster, parts.now());
  return classAnswer(parts, { ...access, classroom }, grant);
}
