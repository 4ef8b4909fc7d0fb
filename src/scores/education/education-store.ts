import type { Assignment, Submission } from './assignment.js';
import type { ClassRole, Classroom, Member } from './classroom.js';
import type { EducationProfile } from './education-profile.js';
import type { Invitation, LtiCredentials } from './organization.js';
import type { SubmissionChange, SubmissionComment } from './submission-feedback.js';

type Maybe<T> = T | Promise<T>;

/**
 * Classes, their members, assignments and submissions, and the accounts' education profiles.
 * Embedded on SQLite; PostgreSQL serves several instances, hence the possibly asynchronous
 * results. Every write is durable when it returns.
 */
export interface EducationStore {
  profileOf(userId: string): Maybe<EducationProfile | undefined>;
  profileByEmail(email: string): Maybe<EducationProfile | undefined>;
  /** Throws EmailTaken when another account has the e-mail. */
  saveProfile(profile: EducationProfile): Maybe<void>;
  /** The profiles of the organization's accounts, oldest first. */
  organizationProfiles(organization: string): Maybe<EducationProfile[]>;

  /** Oldest first. */
  invitations(organization: string): Maybe<Invitation[]>;
  invitation(organization: string, id: string): Maybe<Invitation | undefined>;
  saveInvitation(invitation: Invitation): Maybe<void>;
  deleteInvitation(id: string): Maybe<void>;
  /** Oldest first, without their secrets. */
  ltiCredentials(organization: string): Maybe<LtiCredentials[]>;
  /** Stores the credentials with their secret's hash, unless the organization holds `max` already (then false). */
  addLtiCredentials(credentials: LtiCredentials, secretHash: string, max: number): Maybe<boolean>;
  /** Whether the organization had them. */
  deleteLtiCredentials(organization: string, id: string): Maybe<boolean>;

  /** A new class with its owner as its first teacher, at once. */
  createClass(classroom: Classroom): Maybe<void>;
  saveClass(classroom: Classroom): Maybe<void>;
  getClass(id: string): Maybe<Classroom | undefined>;
  classByEnrollmentCode(code: string): Maybe<Classroom | undefined>;
  /** The class one of whose two groups (teachers, students) has this id. */
  classByGroup(groupId: string): Maybe<Classroom | undefined>;
  /** The classes the user is in, oldest first. */
  classesOf(userId: string): Maybe<Array<{ classroom: Classroom; role: ClassRole }>>;
  roleIn(classId: string, userId: string): Maybe<ClassRole | undefined>;
  /** Oldest first. */
  members(classId: string): Maybe<Member[]>;
  /** Adds the member; one already in the class keeps the role they have. */
  addMember(classId: string, member: Member): Maybe<void>;
  /** Removes the member and, at once, their submissions in the class (with their comments and history). */
  removeMember(classId: string, userId: string): Maybe<void>;

  saveAssignment(assignment: Assignment): Maybe<void>;
  getAssignment(classId: string, id: string): Maybe<Assignment | undefined>;
  /** Oldest first. */
  listAssignments(classId: string): Maybe<Assignment[]>;
  /** Every assignment, in any class, one of whose attachments is the score. */
  assignmentsAttaching(scoreId: string): Maybe<Assignment[]>;

  /**
   * Stores the submission; a second one by the same student for the same assignment throws
   * SubmissionExists. With `change`, the change joins the submission's history in the same
   * transaction, which keeps its newest `maxHistory` changes.
   */
  saveSubmission(submission: Submission, change?: SubmissionChange, maxHistory?: number): Maybe<void>;
  getSubmission(assignmentId: string, id: string): Maybe<Submission | undefined>;
  submissionBy(assignmentId: string, creatorId: string): Maybe<Submission | undefined>;
  /** Oldest first. */
  listSubmissions(assignmentId: string): Maybe<Submission[]>;
  studentSubmissions(classId: string, creatorId: string): Maybe<Submission[]>;
  /** Whether a submission, in a class the user teaches, attaches the score (a student's work handed to them). */
  teachesSubmissionAttaching(scoreId: string, userId: string): Maybe<boolean>;
  /** Deletes the submission with its comments and history. */
  deleteSubmission(id: string): Maybe<void>;
  /** The submissions attaching the score that the user sees (their own, those of classes they teach), oldest first, at most `max`. */
  submissionsAttaching(scoreId: string, userId: string, max: number): Maybe<Submission[]>;

  /** Oldest first. */
  submissionHistory(submissionId: string): Maybe<SubmissionChange[]>;

  /** Oldest first. */
  submissionComments(submissionId: string): Maybe<SubmissionComment[]>;
  submissionComment(submissionId: string, id: string): Maybe<SubmissionComment | undefined>;
  /** Stores a new comment unless the submission holds `max` already (then false). */
  addSubmissionComment(comment: SubmissionComment, max: number): Maybe<boolean>;
  saveSubmissionComment(comment: SubmissionComment): Maybe<void>;
  deleteSubmissionComment(id: string): Maybe<void>;
}

/** Another account already uses this e-mail. */
export class EmailTaken extends Error {}
/** The student already has a submission for the assignment (two creations raced). */
export class SubmissionExists extends Error {}
