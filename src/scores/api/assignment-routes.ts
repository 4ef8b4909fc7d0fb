import { randomUUID } from 'node:crypto';
import { ServiceError } from '../../errors/index.js';
import type { ApiRequest, ApiRoute } from '../../transports/http/handoff/index.js';
import { newId } from '../accounts/tokens.js';
import type { Grant } from '../accounts/user.js';
import type { Assignment, AssignmentState } from '../education/assignment.js';
import type { ScoreApiParts } from './api-parts.js';
import { withGrant } from './access.js';
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

/**
 * Assignments of a class: listAssignments, createAssignment, copyAssignment (with
 * `scheduledDate`), archive/unarchive, and, beyond release 2.13.0's list, getting and updating
 * one. Students see an assignment once it is active and its scheduled date has come.
 */
export function assignmentRoutes(parts: AssignmentRoutesParts): ApiRoute[] {
  const view = async (request: ApiRequest, access: ClassAccess, grant: Grant, assignment: Assignment) => {
    const submissions = (await parts.education.listSubmissions(assignment.id)).filter((s) => seesSubmission(access, grant.user.id, s));
    return assignmentJson(assignment, submissions, parts.now(), (path) => parts.absoluteUrl(request, path));
  };
  const resolved = async (fields: AssignmentFields, grant: Grant) =>
    fields.attachments === undefined ? undefined : resolveAttachments(parts, fields.attachments, grant.user.id, 'assignment');

  /** The assignment a teacher's request names. */
  const taughtAssignment = async (request: ApiRequest, grant: Grant, what: string): Promise<{ access: ClassAccess; assignment: Assignment } | ServiceError> => {
    const access = await taughtClassFor(parts.education, request, grant, what);
    if (access instanceof ServiceError) return access;
    const assignment = await assignmentFor(parts.education, access, request, grant, parts.now());
    return assignment instanceof ServiceError ? assignment : { access, assignment };
  };

  const setState = (state: AssignmentState) =>
    withGrant(parts, ASSIGNMENTS_WRITE, async (request, grant) => {
      const found = await taughtAssignment(request, grant, 'archive or unarchive assignments');
      if (found instanceof ServiceError) return found;
      const assignment = { ...found.assignment, state };
      await parts.education.saveAssignment(assignment);
      return jsonResponse(200, await view(request, found.access, grant, assignment));
    });

  return [
    {
      method: 'GET',
      path: '/v2/classes/:class/assignments',
      handle: withGrant(parts, ASSIGNMENTS_READ, async (request, grant) => {
        const access = await classFor(parts.education, request, grant);
        if (access instanceof ServiceError) return access;
        const now = parts.now();
        const listed = (await parts.education.listAssignments(access.classroom.id)).filter((a) => seesAssignment(access, grant.user.id, a, now));
        const bodies: Array<Record<string, unknown>> = [];
        for (const assignment of listed) bodies.push(await view(request, access, grant, assignment));
        return jsonResponse(200, bodies);
      }),
    },
    {
      method: 'POST',
      path: '/v2/classes/:class/assignments',
      handle: withGrant(parts, ASSIGNMENTS_WRITE, async (request, grant) => {
        const access = await taughtClassFor(parts.education, request, grant, 'create assignments');
        if (access instanceof ServiceError) return access;
        const body = optionalJsonObjectBody(request);
        if (body instanceof ServiceError) return body;
        const fields = assignmentFields(body);
        if (fields instanceof ServiceError) return fields;
        const attachments = await resolved(fields, grant);
        if (attachments instanceof ServiceError) return attachments;
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
        return jsonResponse(200, await view(request, access, grant, assignment));
      }),
    },
    {
      method: 'GET',
      path: '/v2/classes/:class/assignments/:assignment',
      handle: withGrant(parts, ASSIGNMENTS_READ, async (request, grant) => {
        const access = await classFor(parts.education, request, grant);
        if (access instanceof ServiceError) return access;
        const assignment = await assignmentFor(parts.education, access, request, grant, parts.now());
        return assignment instanceof ServiceError ? assignment : jsonResponse(200, await view(request, access, grant, assignment));
      }),
    },
    {
      method: 'PUT',
      path: '/v2/classes/:class/assignments/:assignment',
      handle: withGrant(parts, ASSIGNMENTS_WRITE, async (request, grant) => {
        const found = await taughtAssignment(request, grant, 'update assignments');
        if (found instanceof ServiceError) return found;
        const body = jsonObjectBody(request);
        if (body instanceof ServiceError) return body;
        const fields = assignmentFields(body);
        if (fields instanceof ServiceError) return fields;
        const attachments = await resolved(fields, grant);
        if (attachments instanceof ServiceError) return attachments;
        const assignment = applied({ ...found.assignment, attachments: attachments ?? found.assignment.attachments }, fields);
        await parts.education.saveAssignment(assignment);
        return jsonResponse(200, await view(request, found.access, grant, assignment));
      }),
    },
    {
      method: 'POST',
      path: '/v2/classes/:class/assignments/:assignment/copy',
      handle: withGrant(parts, ASSIGNMENTS_WRITE, async (request, grant) => {
        const found = await taughtAssignment(request, grant, 'copy assignments');
        if (found instanceof ServiceError) return found;
        const body = jsonObjectBody(request);
        if (body instanceof ServiceError) return body;
        const fields = copyFields(body);
        if (fields instanceof ServiceError) return fields;
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
        const source = found.assignment;
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
        return jsonResponse(200, await view(request, { classroom: destination, role: 'teacher' }, grant, copy));
      }),
    },
    { method: 'POST', path: '/v2/classes/:class/assignments/:assignment/archive', handle: setState('archived') },
    { method: 'DELETE', path: '/v2/classes/:class/assignments/:assignment/archive', handle: setState('active') },
  ];
}
