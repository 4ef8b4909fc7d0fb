import { attempt, ServiceError, unwrap } from '../../errors/index.js';
import type { ApiRequest } from '../../transports/http/handoff/index.js';
import type { Scope } from '../accounts/scopes.js';
import type { Grant } from '../accounts/user.js';
import { isAssignedTo, isPublished, type Assignment, type Submission } from '../education/assignment.js';
import type { ClassRole, Classroom } from '../education/classroom.js';
import type { EducationStore } from '../education/education-store.js';

/** The OAuth2 alternatives of the education operations, as release 2.13.0 lists them. */
export const CLASSES_READ: readonly Scope[] = ['edu.classes', 'edu.classes.readonly'];
export const CLASSES_WRITE: readonly Scope[] = ['edu.classes'];
export const ASSIGNMENTS_READ: readonly Scope[] = ['edu.classes', 'edu.classes.readonly', 'edu.assignments', 'edu.assignments.readonly'];
export const ASSIGNMENTS_WRITE: readonly Scope[] = ['edu.classes', 'edu.assignments'];

export interface ClassAccess {
  classroom: Classroom;
  role: ClassRole;
}

export function classNotFound(id: string | undefined): ServiceError {
  return new ServiceError('SC_CLASS_NOT_FOUND', `no class ${JSON.stringify(id ?? '')}`, { param: 'class' });
}

export function teachersOnly(what: string): ServiceError {
  return new ServiceError('SC_FORBIDDEN', `only the teachers of the class may ${what}`);
}

/** The class a request names and the caller's role in it: 404 when there is none, 403 for someone not in it. */
export async function classFor(store: EducationStore, request: ApiRequest, grant: Grant): Promise<ClassAccess | ServiceError> {
  const id = request.params['class'] ?? '';
  const classroom = await store.getClass(id);
  if (classroom === undefined) return classNotFound(id);
  const role = await store.roleIn(classroom.id, grant.user.id);
  if (role === undefined) return new ServiceError('SC_FORBIDDEN', 'You are not a member of this class');
  return { classroom, role };
}

/** As classFor, for teachers of the class only (students get a 403 naming `what` they tried). */
export async function taughtClassFor(store: EducationStore, request: ApiRequest, grant: Grant, what: string): Promise<ClassAccess | ServiceError> {
  return attempt(async () => {
    const access = unwrap(await classFor(store, request, grant));
    return access.role === 'teacher' ? access : teachersOnly(what);
  });
}

/** Whether the member sees the assignment: teachers all of them, students those published for them. */
export function seesAssignment(access: ClassAccess, userId: string, assignment: Assignment, now: number): boolean {
  return access.role === 'teacher' || (isPublished(assignment, now) && isAssignedTo(assignment, userId));
}

export function assignmentNotFound(id: string | undefined): ServiceError {
  return new ServiceError('SC_ASSIGNMENT_NOT_FOUND', `the class has no assignment ${JSON.stringify(id ?? '')}`, { param: 'assignment' });
}

/** The assignment a request names, in a class the caller is in; one a student may not see yet is not found. */
export async function assignmentFor(store: EducationStore, access: ClassAccess, request: ApiRequest, grant: Grant, now: number): Promise<Assignment | ServiceError> {
  const assignment = await store.getAssignment(access.classroom.id, request.params['assignment'] ?? '');
  if (assignment === undefined || !seesAssignment(access, grant.user.id, assignment, now)) return assignmentNotFound(request.params['assignment']);
  return assignment;
}

/** Teachers see every submission of their class; a student only their own. */
export function seesSubmission(access: ClassAccess, userId: string, submission: Submission): boolean {
  return access.role === 'teacher' || submission.creatorId === userId;
}

export function submissionNotFound(id: string | undefined): ServiceError {
  return new ServiceError('SC_SUBMISSION_NOT_FOUND', `the assignment has no submission ${JSON.stringify(id ?? '')}`, { param: 'submission' });
}
