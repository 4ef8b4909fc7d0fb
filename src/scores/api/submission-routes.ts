import { randomUUID } from 'node:crypto';
import { ServiceError, unwrap } from '../../errors/index.js';
import type { ApiOutcome, ApiRequest, ApiRoute } from '../../transports/http/handoff/index.js';
import { newId } from '../accounts/tokens.js';
import type { Grant } from '../accounts/user.js';
import { performsAssignment, type Submission } from '../education/assignment.js';
import { changeOf, MAX_SUBMISSION_HISTORY } from '../education/submission-feedback.js';
import { SubmissionExists } from '../education/education-store.js';
import { grantedRoutes } from './access.js';
import { resolveAttachments } from './attachment-resolver.js';
import { bad, jsonObjectBody } from './body-fields.js';
import { ASSIGNMENTS_READ, ASSIGNMENTS_WRITE, classFor, seesSubmission, teachersOnly } from './education-access.js';
import { studentUpdate, teacherUpdate } from './education-bodies.js';
import { submissionJson } from './education-views.js';
import { jsonResponse } from './responses.js';
import { assignmentOf, linkOf, submissionOf, type SubmissionRoutesParts } from './submission-access.js';

export type { SubmissionRoutesParts } from './submission-access.js';

/**
 * Students' submissions: listing (a student sees only their own), a student's creation, edits
 * and turning in (`PUT …/submissions`), a teacher's grading and return (`PUT …/{submission}`),
 * a teacher's reset (`DELETE …/{submission}`, after which the student starts over), and the
 * submissions of one student in a class.
 */
export function submissionRoutes(parts: SubmissionRoutesParts): ApiRoute[] {
  const route = grantedRoutes(parts);
  return [
    route('GET', '/v2/classes/:class/assignments/:assignment/submissions', ASSIGNMENTS_READ, getSubmissions),
    route('PUT', '/v2/classes/:class/assignments/:assignment/submissions', ASSIGNMENTS_WRITE, createSubmission),
    route('GET', '/v2/classes/:class/assignments/:assignment/submissions/:submission', ASSIGNMENTS_READ, getSubmission),
    route('PUT', '/v2/classes/:class/assignments/:assignment/submissions/:submission', ASSIGNMENTS_WRITE, editSubmission),
    route('DELETE', '/v2/classes/:class/assignments/:assignment/submissions/:submission', ASSIGNMENTS_WRITE, deleteSubmission),
    route('GET', '/v2/classes/:class/students/:user/submissions', ASSIGNMENTS_READ, listClassStudentSubmissions),
  ];
}

async function getSubmissions(parts: SubmissionRoutesParts, request: ApiRequest, grant: Grant): Promise<ApiOutcome> {
  const { access, assignment } = unwrap(await assignmentOf(parts, request, grant));
  const submissions = (await parts.education.listSubmissions(assignment.id)).filter((s) => seesSubmission(access, grant.user.id, s));
  return jsonResponse(200, submissions.map((s) => submissionJson(s, assignment, linkOf(parts, request))));
}

/** A student's work on their submission: attachments, and turning it in with `submit`. */
async function createSubmission(parts: SubmissionRoutesParts, request: ApiRequest, grant: Grant): Promise<ApiOutcome> {
  const { access, assignment } = unwrap(await assignmentOf(parts, request, grant));
  if (access.role !== 'student') return new ServiceError('SC_FORBIDDEN', 'only students submit; teachers grade with PUT /classes/{class}/assignments/{assignment}/submissions/{submission}');
  const update = unwrap(studentUpdate(unwrap(jsonObjectBody(request))));
  const existing = await parts.education.submissionBy(assignment.id, grant.user.id);
  if (existing?.state === 'turnedIn') return new ServiceError('SC_CONFLICT', 'the submission is turned in; it can change again once the teacher returns or resets it');
  const attachments = update.attachments === undefined ? undefined : unwrap(await resolveAttachments(parts, update.attachments, grant.user.id, 'submission'));
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
    await parts.education.saveSubmission(submission, changeOf(submission, assignment.maxPoints, grant.user.id, now), MAX_SUBMISSION_HISTORY);
  } catch (error) {
    if (error instanceof SubmissionExists) return new ServiceError('SC_CONFLICT', 'another request created this submission at the same time; send the change again');
    throw error;
  }
  return jsonResponse(200, submissionJson(submission, assignment, linkOf(parts, request)));
}

async function getSubmission(parts: SubmissionRoutesParts, request: ApiRequest, grant: Grant): Promise<ApiOutcome> {
  const { assignment, submission } = unwrap(await submissionOf(parts, request, grant));
  return jsonResponse(200, submissionJson(submission, assignment, linkOf(parts, request)));
}

/** A teacher's grading (`draftGrade`, `grade`) and return of a submission. */
async function editSubmission(parts: SubmissionRoutesParts, request: ApiRequest, grant: Grant): Promise<ApiOutcome> {
  const found = unwrap(await submissionOf(parts, request, grant));
  if (found.access.role !== 'teacher') return teachersOnly('grade or return a submission');
  const update = unwrap(teacherUpdate(unwrap(jsonObjectBody(request))));
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
  await parts.education.saveSubmission(submission, changeOf(submission, assignment.maxPoints, grant.user.id, parts.now()), MAX_SUBMISSION_HISTORY);
  return jsonResponse(200, submissionJson(submission, assignment, linkOf(parts, request)));
}

/** A teacher's reset: the student starts over (the submission's comments and history go with it); their scores and recordings stay theirs. */
async function deleteSubmission(parts: SubmissionRoutesParts, request: ApiRequest, grant: Grant): Promise<ApiOutcome> {
  const { access, submission } = unwrap(await submissionOf(parts, request, grant));
  if (access.role !== 'teacher') return teachersOnly('reset a submission');
  await parts.education.deleteSubmission(submission.id);
  return { status: 204 };
}

async function listClassStudentSubmissions(parts: SubmissionRoutesParts, request: ApiRequest, grant: Grant): Promise<ApiOutcome> {
  const access = unwrap(await classFor(parts.education, request, grant));
  const student = request.params['user'] ?? '';
  if (access.role !== 'teacher' && student !== grant.user.id) return new ServiceError('SC_FORBIDDEN', "a student can only list their own submissions");
  const assignments = new Map((await parts.education.listAssignments(access.classroom.id)).map((a) => [a.id, a]));
  const bodies: Array<Record<string, unknown>> = [];
  for (const submission of await parts.education.studentSubmissions(access.classroom.id, student)) {
    const assignment = assignments.get(submission.assignmentId);
    if (assignment !== undefined) bodies.push(submissionJson(submission, assignment, linkOf(parts, request)));
  }
  return jsonResponse(200, bodies);
}
