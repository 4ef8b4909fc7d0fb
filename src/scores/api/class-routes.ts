import { randomBytes } from 'node:crypto';
import { ServiceError, unwrap } from '../../errors/index.js';
import type { ApiOutcome, ApiRequest, ApiRoute } from '../../transports/http/handoff/index.js';
import { newId } from '../accounts/tokens.js';
import type { Grant } from '../accounts/user.js';
import { CLASS_STATES, type Classroom, type ClassState } from '../education/classroom.js';
import { classRoleOf } from '../education/education-profile.js';
import { grantedRoutes, type Operation } from './access.js';
import { jsonObjectBody } from './body-fields.js';
import { classAnswer, classDetails, profileOf, type ClassRoutesParts } from './class-details.js';
import { getGroupDetails, listGroupUsers } from './class-groups.js';
import { addClassUser, deleteClassUser, enrollClass, synchronizeClassRoster } from './class-members.js';
import { CLASSES_READ, CLASSES_WRITE, classFor, taughtClassFor } from './education-access.js';
import { classFields } from './education-bodies.js';
import { jsonResponse } from './responses.js';

export type { ClassRoutesParts } from './class-details.js';

const THEMES = ['blue-8', 'green-7', 'orange-6', 'purple-7', 'red-7', 'teal-7'] as const;

/** Eight characters from an alphabet without look-alikes (0/O, 1/I/L), for students to type. */
function newEnrollmentCode(): string {
  const alphabet = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';
  return Array.from(randomBytes(8), (byte) => alphabet[byte % alphabet.length]).join('');
}

/** A teacher's change of the class's state, answered with the class. */
function classStateChange(state: ClassState): Operation<ClassRoutesParts> {
  return async (parts, request, grant) => {
    const access = unwrap(await taughtClassFor(parts.education, request, grant, 'change the state of the class'));
    const classroom = { ...access.classroom, state };
    await parts.education.saveClass(classroom);
    return classAnswer(parts, { ...access, classroom }, grant);
  };
}

const archiveClass = classStateChange('archived');
const unarchiveClass = classStateChange('active');
const activateClass = classStateChange('active');

/**
 * Classes (listClasses, createClass, getClass, updateClass, archive/unarchive/activate), their
 * members (addClassUser, deleteClassUser, enrollClass, the two groups and their users) and the
 * roster synchronization that fills `issues.sync`.
 */
export function classRoutes(parts: ClassRoutesParts): ApiRoute[] {
  const route = grantedRoutes(parts);
  return [
    route('GET', '/v2/classes', CLASSES_READ, listClasses),
    route('POST', '/v2/classes', CLASSES_WRITE, createClass),
    route('GET', '/v2/classes/:class', CLASSES_READ, getClass),
    route('PUT', '/v2/classes/:class', CLASSES_WRITE, updateClass),
    route('POST', '/v2/classes/:class/archive', CLASSES_WRITE, archiveClass),
    route('DELETE', '/v2/classes/:class/archive', CLASSES_WRITE, unarchiveClass),
    route('POST', '/v2/classes/:class/activate', CLASSES_WRITE, activateClass),
    route('PUT', '/v2/classes/:class/users/:user', CLASSES_WRITE, addClassUser),
    route('DELETE', '/v2/classes/:class/users/:user', CLASSES_WRITE, deleteClassUser),
    route('POST', '/v2/classes/enroll/:enrollmentCode', CLASSES_WRITE, enrollClass),
    route('POST', '/v2/classes/:class/roster', CLASSES_WRITE, synchronizeClassRoster),
    route('GET', '/v2/groups/:group', CLASSES_READ, getGroupDetails),
    route('GET', '/v2/groups/:group/users', CLASSES_READ, listGroupUsers),
  ];
}

async function listClasses(parts: ClassRoutesParts, request: ApiRequest, grant: Grant): Promise<ApiOutcome> {
  const state = request.query.get('state') ?? 'active';
  if (!(CLASS_STATES as readonly string[]).includes(state)) return new ServiceError('SC_BAD_REQUEST', `state must be one of ${CLASS_STATES.join(', ')}`, { param: 'state' });
  const listed = (await parts.education.classesOf(grant.user.id)).filter(({ classroom }) => classroom.state === state);
  const bodies: Array<Record<string, unknown>> = [];
  for (const access of listed) bodies.push(await classDetails(parts, access, grant.user.id));
  return jsonResponse(200, bodies);
}

async function createClass(parts: ClassRoutesParts, request: ApiRequest, grant: Grant): Promise<ApiOutcome> {
  const fields = unwrap(classFields(unwrap(jsonObjectBody(request)), true));
  const creator = await profileOf(parts, grant.user.id);
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
  return classAnswer(parts, { classroom, role: 'teacher' }, grant);
}

async function getClass(parts: ClassRoutesParts, request: ApiRequest, grant: Grant): Promise<ApiOutcome> {
  return classAnswer(parts, unwrap(await classFor(parts.education, request, grant)), grant);
}

async function updateClass(parts: ClassRoutesParts, request: ApiRequest, grant: Grant): Promise<ApiOutcome> {
  const access = unwrap(await taughtClassFor(parts.education, request, grant, 'update the class'));
  const fields = unwrap(classFields(unwrap(jsonObjectBody(request)), false));
  const classroom = { ...access.classroom, name: fields.name ?? access.classroom.name, section: fields.section ?? access.classroom.section };
  await parts.education.saveClass(classroom);
  return classAnswer(parts, { ...access, classroom }, grant);
}
