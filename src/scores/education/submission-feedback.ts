import type { Submission, SubmissionState } from './assignment.js';

/** What a submission carries beside its work: its teachers' and student's comments, and its history. Times are epoch milliseconds. */

export interface SubmissionComment {
  id: string;
  submissionId: string;
  authorId: string;
  date: number;
  modificationDate: number | null;
  comment: string;
  /** The accounts that listed the comment since it was last written (its author reads it as they write it). */
  readBy: string[];
}

/** Comments a submission may hold. */
export const MAX_SUBMISSION_COMMENTS = 500;
/** Characters of one comment. */
export const MAX_COMMENT_LENGTH = 10_000;

/** One change of a submission: who made it, and the submission's state, grades and work after it. */
export interface SubmissionChange {
  date: number;
  userId: string;
  state: SubmissionState;
  draftGrade: number | null;
  grade: number | null;
  maxPoints: number | null;
  attachment: { score: string; revision: string } | null;
}

/** Changes a submission's history keeps: the newest ones. */
export const MAX_SUBMISSION_HISTORY = 200;

/** The change `userId` made at `date`, leaving the submission as it is. */
export function changeOf(submission: Submission, maxPoints: number | null, userId: string, date: number): SubmissionChange {
  const scored = submission.attachments.find((a) => a.score !== undefined && a.revision !== undefined);
  return {
    date,
    userId,
    state: submission.state,
    draftGrade: submission.draftGrade,
    grade: submission.grade,
    maxPoints,
    attachment: scored === undefined ? null : { score: scored.score ?? '', revision: scored.revision ?? '' },
  };
}
