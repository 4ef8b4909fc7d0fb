import { randomUUID } from 'node:crypto';
import { attempt, ServiceError, unwrap } from '../../errors/index.js';
import type { ApiOutcome, ApiRequest, ApiRoute } from '../../transports/http/handoff/index.js';
import { newId } from '../accounts/tokens.js';
import type { Grant } from '../accounts/user.js';
import type { Assignment, AssignmentState, Attachment } from '../education/assignment.js';
import type { ScoreApiParts } from './api-parts.js';
import { grantedRoutes, type Operation } from './access.js';
import { resolveAttachments } from './attachment-resolver.js';
import { jsonObjectBody, optionalJsonObjectBody } from './body-fields.js';
import { ASSIGNMENTS_READ, ASSIGNMENTS_WRITE, assignmentFor, classFor, classNotFound, seesAssignment, seesSubmission, taughtClassFor, type ClassAccess } from './education-access.js';
import { assignmentFields, copyFields, type AssignmentFields } from './education-bodies.js';
import { assignmentJson } from './education-views.js';
import { jsonResponse } from './responses.js';

export type AssignmentRoutesParts = Pick<ScoreApiParts, 'accounts' | 'education' | 'classShares' | 'scores' | 'tracks' | 'absoluteUrl' | 'now'>;

/** `fields` applied to `assignment` (whose attachments are already resolved). */
function applied(assignment: Assignment, fields: AssignmentFields): Assignment {
  const next: Assignment = { ...assignment };
  const take = <K extends keyof Assignment & keyof AssignmentFields>(name: K) => {
    if (fields[name] !== undefined) next[name] = fields[name] as Assignment[K];
  };
  for (const name of ['type', 'state', 'title', 'description', 'dueDate', 'scheduledDate', 'nbPlaybackAuthorized', 'toolset', 'coverFile', 'cover', 'maxPoints', 'assigneeMode', 'assignedStudents'] as const) take(name);
  if (fields.partnerCategories !== undefined) {
    next.partnerGraph = fields.partnerCategories === null ? null : { id: assignment.partnerGraph?.id ?? randomUUID(), categories: fields.partnerCategories };
  }
  return next;
}

/** An assignment as the member sees it, with the submissions they see. */
async function assignmentView(parts: AssignmentRoutesParts, request: ApiRequest, access: ClassAccess, grant: Grant, assignment: Assignment): Promise<Record<string, unknown>> {
  const submissions = (await parts.education.listSubmissions(assignment.id)).filter((s) => seesSubmission(access, grant.user.id, s));
  return assignmentJson(assignment, submissions, parts.now(), (path) => parts.absoluteUrl(request, path));
}

/** The attachments a body sends, resolved; undefined when it sends none. */
async function resolvedAttachments(parts: AssignmentRoutesParts, fields: AssignmentFields, grant: Grant): Promise<Attachment[] | undefined | ServiceError> {
  return fields.attachments === undefined ? undefined : resolveAttachments(parts, fields.attachments, grant.user.id, 'assignment');
}

/** The assignment a teacher's request names. */
function taughtAssignment(parts: AssignmentRoutesParts, request: ApiRequest, grant: Grant, what: string): Promise<{ access: ClassAccess; assignment: Assignment } | ServiceError> {
  return attempt(async () => {
    const access = unwrap(await taughtClassFor(parts.education, request, grant, what));
    return { access, assignment: unwrap(await assignmentFor(parts.education, access, request, grant, parts.now())) };
  });
}

/** A teacher's archiving or unarchiving of an assignment. */
function assignmentStateChange(state: AssignmentState): Operation<AssignmentRoutesParts> {
  return async (parts, request, grant) => {
    const { access, assignment } = unwrap(await taughtAssignment(parts, request, grant, 'archive or unarchive assignments'));
    const changed = { ...assignment, state };
    await parts.education.saveAssignment(changed);
    return jsonResponse(200, await assignmentView(parts, request, access, grant, changed));
  };
}

const archiveAssignment = assignmentStateChange('archived');
const unarchiveAssignment = assignmentStateChange('active');

/**
 * Assignments of a class: listAssignments, createAssignment, copyAssignment (with
 * `scheduledDate`), archive/unarchive, and, beyond release 2.13.0's list, getting and updating
 * one. Students see an assignment once it is active and its scheduled date has come.
 */
export function assignmentRoutes(parts: AssignmentRoutesParts): ApiRoute[] {
  const route = grantedRoutes(parts);
  return [
    route('GET', '/v2/classes/:class/assignments', ASSIGNMENTS_READ, listAssignments),
    route('POST', '/v2/classes/:class/assignments', ASSIGNMENTS_WRITE, createAssignment),
    route('GET', '/v2/classes/:class/assignments/:assignment', ASSIGNMENTS_READ, getAssignment),
    route('PUT', '/v2/classes/:class/assignments/:assignment', ASSIGNMENTS_WRITE, updateAssignment),
    route('POST', '/v2/classes/:class/assignments/:assignment/copy', ASSIGNMENTS_WRITE, copyAssignment),
    route('POST', '/v2/classes/:class/assignments/:assignment/archive', ASSIGNMENTS_WRITE, archiveAssignment),
    route('DELETE', '/v2/classes/:class/assignments/:assignment/archive', ASSIGNMENTS_WRITE, unarchiveAssignment),
  ];
}

async function listAssignments(parts: AssignmentRoutesParts, request: ApiRequest, grant: Grant): Promise<ApiOutcome> {
  const access = unwrap(await classFor(parts.education, request, grant));
  const now = parts.now();
  const listed = (await parts.education.listAssignments(access.classroom.id)).filter((a) => seesAssignment(access, grant.user.id, a, now));
  const bodies: Array<Record<string, unknown>> = [];
  for (const assignment of listed) bodies.push(await assignmentView(parts, request, access, grant, assignment));
  return jsonResponse(200, bodies);
}

async function createAssignment(parts: AssignmentRoutesParts, request: ApiRequest, grant: Grant): Promise<ApiOutcome> {
  const access = unwrap(await taughtClassFor(parts.education, request, grant, 'create assignments'));
  const fields = unwrap(assignmentFields(unwrap(optionalJsonObjectBody(request))));
  const attachments = unwrap(await resolvedAttachments(parts, fields, grant));
  const blank: Assignment = {
    id: newId(),
    classId: access.classroom.id,
    creatorId: grant.user.id,
    type: 'none',
    state: 'active',
    title: '',
    description: '',
    cover: null,
    coverFile: null,
    toolset: null,
    nbPlaybackAuthorized: null,
    attachments: attachments ?? [],
    creationDate: parts.now(),
    scheduledDate: null,
    dueDate: null,
    maxPoints: null,
    assigneeMode: 'everyone',
    assignedStudents: [],
    partnerGraph: null,
  };
  const assignment = applied(blank, fields);
  await parts.education.saveAssignment(assignment);
  return jsonResponse(200, await assignmentView(parts, request, access, grant, assignment));
}

async function getAssignment(parts: AssignmentRoutesParts, request: ApiRequest, grant: Grant): Promise<ApiOutcome> {
  const access = unwrap(await classFor(parts.education, request, grant));
  const assignment = unwrap(await assignmentFor(parts.education, access, request, grant, parts.now()));
  return jsonResponse(200, await assignmentView(parts, request, access, grant, assignment));
}

async function updateAssignment(parts: AssignmentRoutesParts, request: ApiRequest, grant: Grant): Promise<ApiOutcome> {
  const found = unwrap(await taughtAssignment(parts, request, grant, 'update assignments'));
  const fields = unwrap(assignmentFields(unwrap(jsonObjectBody(request))));
  const attachments = unwrap(await resolvedAttachments(parts, fields, grant));
  const assignment = applied({ ...found.assignment, attachments: attachments ?? found.assignment.attachments }, fields);
  await parts.education.saveAssignment(assignment);
  return jsonResponse(200, await assignmentView(parts, request, found.access, grant, assignment));
}

/** A copy in a class the caller teaches, new or over one of its drafts, for every student of that class. */
async function copyAssignment(parts: AssignmentRoutesParts, request: ApiRequest, grant: Grant): Promise<ApiOutcome> {
  const source = unwrap(await taughtAssignment(parts, request, grant, 'copy assignments')).assignment;
  const fields = unwrap(copyFields(unwrap(jsonObjectBody(request))));
  const destination = await parts.education.getClass(fields.classroom);
  if (destination === undefined) return classNotFound(fields.classroom);
  if ((await parts.education.roleIn(destination.id, grant.user.id)) !== 'teacher') return new ServiceError('SC_FORBIDDEN', 'only the teachers of the destination class may copy assignments to it');
  let id = newId();
  if (fields.assignment !== undefined) {
    const target = await parts.education.getAssignment(destination.id, fields.assignment);
    if (target === undefined) return new ServiceError('SC_ASSIGNMENT_NOT_FOUND', `the destination class has no assignment ${JSON.stringify(fields.assignment)}`, { param: 'assignment' });
    if (target.state !== 'draft') return new ServiceError('SC_BAD_REQUEST', 'only a draft assignment can be overwritten by a copy', { param: 'assignment' });
    id = target.id;
  }
  const now = parts.now();
  const copy: Assignment = {
    ...source,
    id,
    classId: destination.id,
    creatorId: grant.user.id,
    state: source.state === 'draft' ? 'draft' : 'active',
    creationDate: now,
    // A due date already past would make the copy late from the start: it goes.
    dueDate: source.dueDate !== null && source.dueDate < now ? null : source.dueDate,
    scheduledDate: fields.scheduledDate ?? source.scheduledDate,
    // The selected students are the source class's; the copy is for every student of its own.
    assigneeMode: 'everyone',
    assignedStudents: [],
    partnerGraph: source.partnerGraph === null ? null : { id: randomUUID(), categories: source.partnerGraph.categories },
  };
  await parts.education.saveAssignment(copy);
  return jsonResponse(200, await assignmentView(parts, request, { classroom: destination, role: 'teacher' }, grant, copy));
}
