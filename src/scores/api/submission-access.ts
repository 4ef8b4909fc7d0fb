import { attempt, ServiceError, unwrap } from '../../errors/index.js';
import type { ApiRequest } from '../../transports/http/handoff/index.js';
import type { Grant } from '../accounts/user.js';
import type { Assignment, Submission } from '../education/assignment.js';
import type { ScoreApiParts } from './api-parts.js';
import { assignmentFor, classFor, seesSubmission, submissionNotFound, type ClassAccess } from './education-access.js';

export type SubmissionRoutesParts = Pick<ScoreApiParts, 'accounts' | 'education' | 'classShares' | 'scores' | 'tracks' | 'absoluteUrl' | 'now'>;

/** Links of the request's host, for the attachments of a submission. */
export function linkOf(parts: SubmissionRoutesParts, request: ApiRequest): (path: string) => string {
  return (path) => parts.absoluteUrl(request, path);
}

/** The class and assignment of a request, for a member who may see the assignment. */
export function assignmentOf(parts: SubmissionRoutesParts, request: ApiRequest, grant: Grant): Promise<{ access: ClassAccess; assignment: Assignment } | ServiceError> {
  return attempt(async () => {
    const access = unwrap(await classFor(parts.education, request, grant));
    return { access, assignment: unwrap(await assignmentFor(parts.education, access, request, grant, parts.now())) };
  });
}

/** The submission a request names, for its student or a teacher of the class. */
export function submissionOf(parts: SubmissionRoutesParts, request: ApiRequest, grant: Grant): Promise<{ access: ClassAccess; assignment: Assignment; submission: Submission } | ServiceError> {
  return attempt(async () => {
    const found = unwrap(await assignmentOf(parts, request, grant));
    const submission = await parts.education.getSubmission(found.assignment.id, request.params['submission'] ?? '');
    if (submission === undefined) return submissionNotFound(request.params['submission']);
    if (!seesSubmission(found.access, grant.user.id, submission)) return new ServiceError('SC_FORBIDDEN', "a student can only see their own submission");
    return { ...found, submission };
  });
}

