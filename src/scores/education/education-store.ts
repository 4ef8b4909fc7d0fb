import type { Assignment, Submission } from './assignment.js';
import type { ClassRole, Classroom, Member } from './classroom.js';
import type { EducationProfile } from './education-profile.js';

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
  /** Removes the member and, at once, their submissions in the class. */
  removeMember(classId: string, userId: string): Maybe<void>;

  saveAssignment(assignment: Assignment): Maybe<void>;
  getAssignment(classId: string, id: string): Maybe<Assignment | undefined>;
  /** Oldest first. */
  listAssignments(classId: string): Maybe<Assignment[]>;
  /** Every assignment, in any class, one of whose attachments is the score. */
  assignmentsAttaching(scoreId: string): Maybe<Assignment[]>;

  /** Stores the submission; a second one by the same student for the same assignment throws SubmissionExists. */
  saveSubmission(submission: Submission): Maybe<void>;
  getSubmission(assignmentId: string, id: string): Maybe<Submission | undefined>;
  submissionBy(assignmentId: string, creatorId: string): Maybe<Submission | undefined>;
  /** Oldest first. */
  listSubmissions(assignmentId: string): Maybe<Submission[]>;
  studentSubmissions(classId: string, creatorId: string): Maybe<Submission[]>;
  /** Whether a submission, in a class the user teaches, attaches the score (a student's work handed to them). */
  teachesSubmissionAttaching(scoreId: string, userId: string): Maybe<boolean>;
  deleteSubmission(id: string): Maybe<void>;
  /** The submissions attaching the score that the user sees (their own, those of classes they teach), oldest first, at most `max`. */
  submissionsAttaching(scoreId: string, userId: string, max: number): Maybe<Submission[]>;
}

/** Another account already uses this e-mail. */
export class EmailTaken extends Error {}
/** The student already has a submission for the assignment (two creations raced). */
export class SubmissionExists extends Error {}
