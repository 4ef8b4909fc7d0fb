/** A class (classroom) of the education API. Times are epoch milliseconds. */
export const CLASS_STATES = ['active', 'inactive', 'archived'] as const;
export type ClassState = (typeof CLASS_STATES)[number];

export type ClassRole = 'teacher' | 'student';

/**
 * Why a roster synchronization could not add an account, with the API's own spelling
 * (`otherOrgnanization` is how release 2.13.0 writes it).
 */
export const SYNC_ISSUE_REASONS = ['otherOrgnanization', 'personalSubscription'] as const;
export type SyncIssueReason = (typeof SYNC_ISSUE_REASONS)[number];

/** An account the last roster synchronization of a class could not add. */
export interface SyncIssue {
  userId: string;
  email: string;
  reason: SyncIssueReason;
}

export interface Classroom {
  id: string;
  name: string;
  section: string;
  state: ClassState;
  /** The organization of the teacher who created it; null for a teacher without one. */
  organization: string | null;
  ownerId: string;
  creationDate: number;
  /** What students type to join (POST /classes/enroll/{code}); shown to teachers only. */
  enrollmentCode: string;
  theme: string;
  teachersGroupId: string;
  studentsGroupId: string;
  /** Accounts the last roster synchronization could not add; replaced by each synchronization. */
  syncIssues: SyncIssue[];
}

export interface Member {
  userId: string;
  role: ClassRole;
}
