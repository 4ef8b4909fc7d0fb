import { randomUUID } from 'node:crypto';
import { ServiceError } from '../../errors/index.js';
import type { ApiRequest, ApiRoute } from '../../transports/http/handoff/index.js';
import { newId } from '../accounts/tokens.js';
import type { Grant } from '../accounts/user.js';
import { performsAssignment, type Assignment, type Submission } from '../education/assignment.js';
import { SubmissionExists } from '../education/education-store.js';
import type { ScoreApiParts } from './api-parts.js';
import { withGrant } from './access.js';
import { resolveAttachments } from './attachment-resolver.js';
import { bad, jsonObjectBody } from './body-fields.js';
import { ASSIGNMENTS_READ, ASSIGNMENTS_WRITE, assignmentFor, classFor, seesSubmission, submissionNotFound, teachersOnly, type ClassAccess } from './education-access.js';
import { studentUpdate, teacherUpdate } from './education-bodies.js';
import { submissionJson } from './education-views.js';
import { jsonResponse } from './responses.js';

export type SubmissionRoutesParts = Pick<ScoreApiParts, 'accounts' | 'education' | 'classShares' | 'scores' | 'tracks' | 'absoluteUrl' | 'now'>;

/**
 * Students' submissions: listing (a student sees only their own), a student's creation, edits
 * and turning in (`PUT …/submissions`), a teacher's grading and return (`PUT …/{submission}`),
 * a teacher's reset (`DELETE …/{submission}`, after which the student starts over), and the
 * submissions of one student in a class.
 */
export function submissionRoutes(parts: SubmissionRoutesParts): ApiRoute[] {
  const linkOf = (request: ApiRequest) => (path: string) => parts.absoluteUrl(request, path);

  /** The class and assignment of a request, for a member who may see the assignment. */
  const assignmentOf = async (request: ApiRequest, grant: Grant): Promise<{ access: ClassAccess; assignment: Assignment } | ServiceError> => {
    const access = await classFor(parts.education, request, grant);
    if (access instanceof ServiceError) return access;
    const assignment = await assignmentFor(parts.education, access, request, grant, parts.now());
    return assignment instanceof ServiceError ? assignment : { access, assignment };
  };

  /** The submission a request names, for its student or a teacher of the class. */
  const submissionOf = async (request: ApiRequest, grant: Grant): Promise<{ access: ClassAccess; assignment: Assignment; submission: Submission } | ServiceError> => {
    const found = await assignmentOf(request, grant);
    if (found instanceof ServiceError) return found;
    const submission = await parts.education.getSubmission(found.assignment.id, request.params['submission'] ?? '');
    if (submission === undefined) return submissionNotFound(request.params['submission']);
    if (!seesSubmission(found.access, grant.user.id, submission)) return new ServiceError('SC_FORBIDDEN', "a student can only see their own submission");
    return { ...found, submission };
  };

  return [
    {
      method: 'GET',
      path: '/v2/classes/:class/assignments/:assignment/submissions',
      handle: withGrant(parts, ASSIGNMENTS_READ, async (request, grant) => {
        const found = await assignmentOf(request, grant);
        if (found instanceof ServiceError) return found;
        const submissions = (await parts.education.listSubmissions(found.assignment.id)).filter((s) => seesSubmission(found.access, grant.user.id, s));
        return jsonResponse(200, submissions.map((s) => submissionJson(s, found.assignment, linkOf(request))));
      }),
    },
    {
      method: 'PUT',
      path: '/v2/classes/:class/assignments/:assignment/submissions',
      handle: withGrant(parts, ASSIGNMENTS_WRITE, async (request, grant) => {
        const found = await assignmentOf(request, grant);
        if (found instanceof ServiceError) return found;
        const { access, assignment } = found;
        if (access.role !== 'student') return new ServiceError('SC_FORBIDDEN', 'only students submit; teachers grade with PUT /classes/{class}/assignments/{assignment}/submissions/{submission}');
        const body = jsonObjectBody(request);
        if (body instanceof ServiceError) return body;
        const update = studentUpdate(body);
        if (update instanceof ServiceError) return update;
        const existing = await parts.education.submissionBy(assignment.id, grant.user.id);
        if (existing?.state === 'turnedIn') return new ServiceError('SC_CONFLICT', 'the submission is turned in; it can change again once the teacher returns or resets it');
        const attachments = update.attachments === undefined ? undefined : await resolveAttachments(parts, update.attachments, grant.user.id, 'submission');
        if (attachments instanceof ServiceError) return attachments;
        const now = parts.now();
        let submission: Submission = existing ?? {
          id: newId(),
          classId: access.classroom.id,
          assignmentId: assignment.id,
          creatorId: grant.user.id,
          state: 'created',
          attachments: [],
          creationDate: now,
          submissionDate: null,
          returnDate: null,
          returnCreatorId: null,
          grade: null,
          draftGrade: null,
          partnerGraphId: assignment.partnerGraph === null ? null : randomUUID(),
        };
        // A returned submission the student works on again is theirs again until turned in.
        submission = { ...submission, state: 'created', attachments: attachments ?? submission.attachments };
        if (update.submit) {
          if (assignment.type === 'performance' && !performsAssignment(assignment, submission)) {
            return bad('attachments', "a performance assignment is turned in with a recording of its score: an attachment with the assignment's score and the track recorded on it");
          }
          submission = { ...submission, state: 'turnedIn', submissionDate: now };
        }
        try {
          await parts.education.saveSubmission(submission);
        } catch (error) {
          if (error instanceof SubmissionExists) return new ServiceError('SC_CONFLICT', 'another request created this submission at the same time; send the change again');
          throw error;
        }
        return jsonResponse(200, submissionJson(submission, assignment, linkOf(request)));
      }),
    },
    {
      method: 'GET',
      path: '/v2/classes/:class/assignments/:assignment/submissions/:submission',
      handle: withGrant(parts, ASSIGNMENTS_READ, async (request, grant) => {
        const found = await submissionOf(request, grant);
        return found instanceof ServiceError ? found : jsonResponse(200, submissionJson(found.submission, found.assignment, linkOf(request)));
      }),
    },
    {
      method: 'PUT',
      path: '/v2/classes/:class/assignments/:assignment/submissions/:submission',
      handle: withGrant(parts, ASSIGNMENTS_WRITE, async (request, grant) => {
        const found = await submissionOf(request, grant);
        if (found instanceof ServiceError) return found;
        if (found.access.role !== 'teacher') return teachersOnly('grade or return a submission');
        const body = jsonObjectBody(request);
        if (body instanceof ServiceError) return body;
        const update = teacherUpdate(body);
        if (update instanceof ServiceError) return update;
        const { assignment } = found;
        for (const [name, value] of [['draftGrade', update.draftGrade], ['grade', update.grade]] as const) {
          if (typeof value === 'number' && assignment.maxPoints !== null && value > assignment.maxPoints) return bad(name, `${name} must be at most the assignment's maxPoints (${assignment.maxPoints})`);
        }
        let submission: Submission = {
          ...found.submission,
          draftGrade: update.draftGrade === undefined ? found.submission.draftGrade : update.draftGrade,
          grade: update.grade === undefined ? found.submission.grade : update.grade,
        };
        if (update.returned) {
          if (submission.state !== 'turnedIn') return new ServiceError('SC_CONFLICT', `only a turned-in submission can be returned; this one is ${submission.state}`);
          submission = { ...submission, state: 'returned', returnDate: parts.now(), returnCreatorId: grant.user.id, grade: submission.grade ?? submission.draftGrade };
        }
        await parts.education.saveSubmission(submission);
        return jsonResponse(200, submissionJson(submission, assignment, linkOf(request)));
      }),
    },
    {
      method: 'DELETE',
      path: '/v2/classes/:class/assignments/:assignment/submissions/:submission',
      handle: withGrant(parts, ASSIGNMENTS_WRITE, async (request, grant) => {
        const found = await submissionOf(request, grant);
        if (found instanceof ServiceError) return found;
        if (found.access.role !== 'teacher') return teachersOnly('reset a submission');
        // The student's scores and recordings stay theirs; only the submission goes.
        await parts.education.deleteSubmission(found.submission.id);
        return { status: 204 };
      }),
    },
    {
      method: 'GET',
      path: '/v2/classes/:class/students/:user/submissions',
      handle: withGrant(parts, ASSIGNMENTS_READ, async (request, grant) => {
        const access = await classFor(parts.education, request, grant);
        if (access instanceof ServiceError) return access;
        const student = request.params['user'] ?? '';
        if (access.role !== 'teacher' && student !== grant.user.id) return new ServiceError('SC_FORBIDDEN', "a student can only list their own submissions");
        const assignments = new Map((await parts.education.listAssignments(access.classroom.id)).map((a) => [a.id, a]));
        const bodies: Array<Record<string, unknown>> = [];
        for (const submission of await parts.education.studentSubmissions(access.classroom.id, student)) {
          const assignment = assignments.get(submission.assignmentId);
          if (assignment !== undefined) bodies.push(submissionJson(submission, assignment, linkOf(request)));
        }
        return jsonResponse(200, bodies);
      }),
    },
  ];
}
