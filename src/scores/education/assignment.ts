/** Assignments of a class and the students' submissions to them. Times are epoch milliseconds. */
export const ASSIGNMENT_TYPES = ['none', 'newScore', 'scoreTemplate', 'sharedWriting', 'worksheet', 'performance'] as const;
export type AssignmentType = (typeof ASSIGNMENT_TYPES)[number];

export const ASSIGNMENT_STATES = ['draft', 'active', 'archived'] as const;
export type AssignmentState = (typeof ASSIGNMENT_STATES)[number];

export const SHARING_MODES = ['read', 'write', 'copy', 'performance'] as const;
export type SharingMode = (typeof SHARING_MODES)[number];

/** The attachment types a client sends (ClassAttachmentCreation). */
export const ATTACHMENT_TYPES = ['flat', 'link', 'googleDrive', 'worksheet'] as const;

/**
 * An attachment as stored, resolved from what the client sent: a score is pinned to the revision
 * it had then; one carrying a track (a recording of the score) is a `performance`.
 */
export interface Attachment {
  type: 'flat' | 'link' | 'googleDrive' | 'worksheet' | 'performance';
  score?: string;
  revision?: string;
  track?: string;
  title?: string;
  sharingMode?: SharingMode;
  lockScoreTemplate?: boolean;
  url?: string;
  worksheet?: string;
  googleDriveFileId?: string;
}

/** The link of an assignment with a third-party collaboration suite; `state` and `alternateLink` are derived. */
export interface PartnerLink {
  id: string;
  categories: string[];
}

export interface Assignment {
  id: string;
  classId: string;
  creatorId: string;
  type: AssignmentType;
  state: AssignmentState;
  title: string;
  description: string;
  cover: string | null;
  coverFile: string | null;
  toolset: string | null;
  nbPlaybackAuthorized: number | null;
  attachments: Attachment[];
  creationDate: number;
  /** Until then the assignment is listed to the class's teachers only. */
  scheduledDate: number | null;
  dueDate: number | null;
  maxPoints: number | null;
  assigneeMode: 'everyone' | 'selected';
  /** The students an assignment in `selected` mode is for. */
  assignedStudents: string[];
  partnerGraph: PartnerLink | null;
}

/** Whether students see it: active, and its scheduled date (if any) has come. */
export function isPublished(assignment: Assignment, now: number): boolean {
  return assignment.state === 'active' && (assignment.scheduledDate === null || assignment.scheduledDate <= now);
}

export function isAssignedTo(assignment: Assignment, studentId: string): boolean {
  return assignment.assigneeMode === 'everyone' || assignment.assignedStudents.includes(studentId);
}

/** The assignment's state as the partner suite shows it. */
export function partnerState(assignment: Assignment, now: number): 'draft' | 'scheduled' | 'assigned' | 'inactive' {
  if (assignment.state === 'draft') return 'draft';
  if (assignment.state === 'archived') return 'inactive';
  return isPublished(assignment, now) ? 'assigned' : 'scheduled';
}

export const SUBMISSION_STATES = ['created', 'turnedIn', 'returned'] as const;
export type SubmissionState = (typeof SUBMISSION_STATES)[number];

/** A student's work on an assignment; one per student and assignment. */
export interface Submission {
  id: string;
  classId: string;
  assignmentId: string;
  creatorId: string;
  state: SubmissionState;
  attachments: Attachment[];
  creationDate: number;
  submissionDate: number | null;
  returnDate: number | null;
  returnCreatorId: string | null;
  grade: number | null;
  draftGrade: number | null;
  /** The submission's id in the partner suite, when its assignment is linked with one. */
  partnerGraphId: string | null;
}

/** The submission's state as the partner suite names it. */
export function partnerSubmissionState(submission: Submission): 'working' | 'submitted' | 'returned' {
  return submission.state === 'created' ? 'working' : submission.state === 'turnedIn' ? 'submitted' : 'returned';
}

/**
 * Whether the submission carries a recording of what the assignment asks to perform: a track of
 * one of the scores it attaches (any recording when it attaches none).
 */
export function performsAssignment(assignment: Assignment, submission: Submission): boolean {
  const scores = new Set(assignment.attachments.flatMap((a) => (a.score === undefined ? [] : [a.score])));
  return submission.attachments.some((a) => a.track !== undefined && (scores.size === 0 || (a.score !== undefined && scores.has(a.score))));
}

/** The recorded performance a submission carries (its first attachment with a track). */
export function submittedTrack(submission: Submission): string | null {
  return submission.attachments.find((attachment) => attachment.track !== undefined)?.track ?? null;
}
