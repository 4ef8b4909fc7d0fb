import { partnerState, partnerSubmissionState, submittedTrack, type Assignment, type Submission } from '../education/assignment.js';
import type { ClassRole, Classroom } from '../education/classroom.js';

const iso = (ms: number) => new Date(ms).toISOString();

/** Spreads `{[name]: value}` when the value is there: fields the schema does not make nullable are left out instead. */
const present = (name: string, value: unknown): Record<string, unknown> => (value === null || value === undefined ? {} : { [name]: value });

export type GroupKind = 'teachers' | 'students';

/** GroupDetails of one of the two groups a class has. */
export function groupJson(classroom: Classroom, kind: GroupKind, usersCount: number): Record<string, unknown> {
  return {
    id: kind === 'teachers' ? classroom.teachersGroupId : classroom.studentsGroupId,
    name: `${classroom.name} (${kind})`,
    type: kind === 'teachers' ? 'classTeachers' : 'classStudents',
    ...present('organization', classroom.organization),
    creationDate: iso(classroom.creationDate),
    usersCount,
    // Membership follows the class: it changes through the class's routes, not the group's.
    readOnly: true,
  };
}

export interface ClassCounts {
  teachers: number;
  students: number;
  /** The assignments the viewer sees. */
  assignments: number;
}

/** ClassDetails; the enrollment code and the synchronization issues are for the class's teachers. */
export function classDetailsJson(classroom: Classroom, viewerRole: ClassRole, counts: ClassCounts): Record<string, unknown> {
  const teacher = viewerRole === 'teacher';
  return {
    id: classroom.id,
    state: classroom.state,
    name: classroom.name,
    section: classroom.section,
    ...present('organization', classroom.organization),
    owner: classroom.ownerId,
    creationDate: iso(classroom.creationDate),
    ...(teacher ? { enrollmentCode: classroom.enrollmentCode } : {}),
    theme: classroom.theme,
    assignmentsCount: counts.assignments,
    studentsGroup: groupJson(classroom, 'students', counts.students),
    teachersGroup: groupJson(classroom, 'teachers', counts.teachers),
    issues: { sync: teacher ? classroom.syncIssues.map((issue) => ({ id: issue.userId, email: issue.email, reason: issue.reason })) : [] },
  };
}

/** Where the partner suite would link to: the resource on this service. */
export type LinkOf = (path: string) => string;

/** The partner link under both its names: `partnerGraph`, and `microsoftGraph` as release 2.13.0 names it. */
const bothNames = (link: Record<string, unknown>) => ({ partnerGraph: link, microsoftGraph: link });

const assignmentPath = (a: { classId: string; id: string }) => `/v2/classes/${a.classId}/assignments/${a.id}`;

/** AssignmentSubmission, with the recorded performance also as a top-level `track`. */
export function submissionJson(submission: Submission, assignment: Assignment, linkOf: LinkOf): Record<string, unknown> {
  const partner =
    assignment.partnerGraph !== null && submission.partnerGraphId !== null
      ? bothNames({ id: submission.partnerGraphId, state: partnerSubmissionState(submission), alternateLink: linkOf(`${assignmentPath(assignment)}/submissions/${submission.id}`) })
      : {};
  return {
    id: submission.id,
    state: submission.state,
    classroom: submission.classId,
    assignment: submission.assignmentId,
    creator: submission.creatorId,
    creationDate: iso(submission.creationDate),
    // Stored attachments already have MediaAttachment's shape.
    attachments: submission.attachments,
    ...present('submissionDate', submission.submissionDate === null ? null : iso(submission.submissionDate)),
    ...present('returnDate', submission.returnDate === null ? null : iso(submission.returnDate)),
    ...present('returnCreator', submission.returnCreatorId),
    grade: submission.grade,
    draftGrade: submission.draftGrade,
    ...present('maxPoints', assignment.maxPoints),
    ...present('track', submittedTrack(submission)),
    ...partner,
  };
}

/** Assignment (with `id`, which the paths need) and the submissions the viewer may see. */
export function assignmentJson(assignment: Assignment, submissions: readonly Submission[], now: number, linkOf: LinkOf): Record<string, unknown> {
  const partner =
    assignment.partnerGraph === null
      ? {}
      : bothNames({ id: assignment.partnerGraph.id, state: partnerState(assignment, now), alternateLink: linkOf(assignmentPath(assignment)), categories: assignment.partnerGraph.categories });
  return {
    id: assignment.id,
    state: assignment.state,
    type: assignment.type,
    title: assignment.title,
    classroom: assignment.classId,
    description: assignment.description,
    ...present('cover', assignment.cover),
    ...present('coverFile', assignment.coverFile),
    attachments: assignment.attachments,
    submissions: submissions.map((submission) => submissionJson(submission, assignment, linkOf)),
    creator: assignment.creatorId,
    creationDate: iso(assignment.creationDate),
    ...present('scheduledDate', assignment.scheduledDate === null ? null : iso(assignment.scheduledDate)),
    ...present('dueDate', assignment.dueDate === null ? null : iso(assignment.dueDate)),
    ...present('maxPoints', assignment.maxPoints),
    ...present('toolset', assignment.toolset),
    ...present('nbPlaybackAuthorized', assignment.nbPlaybackAuthorized),
    assigneeMode: assignment.assigneeMode,
    ...(assignment.assigneeMode === 'selected' ? { assignedStudents: assignment.assignedStudents } : {}),
    ...partner,
  };
}
