import type { Assignment, Submission } from '../education/assignment.js';
import type { ClassRole, Classroom, Member } from '../education/classroom.js';
import type { EducationProfile } from '../education/education-profile.js';
import { EmailTaken, SubmissionExists, type EducationStore } from '../education/education-store.js';
import type { SubmissionChange, SubmissionComment } from '../education/submission-feedback.js';
import { executorOn, type Connection } from './connection.js';
import { doc, docs, parseDoc, row, rowAs, rowsAs, write, type Executor, type Mode, type Outcome } from './plan.js';
import { EDUCATION_QUERIES, SUBMISSION_FEEDBACK_QUERIES as F } from './queries.js';
import { SqlOrganizationRecords } from './sql-organization-records.js';

const Q = EDUCATION_QUERIES;

/**
 * Whether the error is a unique constraint failing on `column`: better-sqlite3 names the columns
 * in its message ("UNIQUE constraint failed: education_profiles.email"), PostgreSQL names the
 * constraint, which holds the columns' names ("education_profiles_email_key").
 */
function isUniqueViolation(error: unknown, column: string): boolean {
  if (!(error instanceof Error) || !('code' in error)) return false;
  if (error.code === 'SQLITE_CONSTRAINT_UNIQUE') return error.message.includes(column);
  return error.code === '23505' && 'constraint' in error && String(error.constraint).includes(column);
}

/** Classes, members, assignments, submissions and profiles as JSON documents in the score database. */
class SqlEducationStore<M extends Mode> extends SqlOrganizationRecords<M> implements EducationStore {
  private readonly db: Executor<M>;

  constructor(connection: Connection<M>) {
    super(connection);
    this.db = executorOn(connection, { ...Q, ...F });
  }

  profileOf(userId: string): Outcome<M, EducationProfile | undefined> {
    return this.db.run(() => doc(Q.profile, userId));
  }

  profileByEmail(email: string): Outcome<M, EducationProfile | undefined> {
    return this.db.run(() => doc(Q.profileByEmail, email));
  }

  saveProfile(profile: EducationProfile): Outcome<M, void> {
    return this.db.run(function* () {
      try {
        yield* write(Q.upsertProfile, profile.userId, profile.email, JSON.stringify(profile));
      } catch (error) {
        if (isUniqueViolation(error, 'email')) throw new EmailTaken(`${profile.email ?? ''} belongs to another account`);
        throw error;
      }
    });
  }

  createClass(classroom: Classroom): Outcome<M, void> {
    return this.db.transaction(function* () {
      yield* write(Q.insertClass, classroom.id, classroom.enrollmentCode, JSON.stringify(classroom));
      yield* write(Q.addMember, classroom.id, classroom.ownerId, 'teacher');
    });
  }

  saveClass(classroom: Classroom): Outcome<M, void> {
    return this.db.run(() => write(Q.updateClass, JSON.stringify(classroom), classroom.id));
  }

  getClass(id: string): Outcome<M, Classroom | undefined> {
    return this.db.run(() => doc(Q.classById, id));
  }

  classByEnrollmentCode(code: string): Outcome<M, Classroom | undefined> {
    return this.db.run(() => doc(Q.classByCode, code));
  }

  classByGroup(groupId: string): Outcome<M, Classroom | undefined> {
    return this.db.run(() => doc(Q.classByGroup, groupId, groupId));
  }

  classesOf(userId: string): Outcome<M, Array<{ classroom: Classroom; role: ClassRole }>> {
    return this.db.run(() => rowsAs((found) => ({ classroom: parseDoc(found), role: found.role }), Q.classesOf, userId));
  }

  roleIn(classId: string, userId: string): Outcome<M, ClassRole | undefined> {
    return this.db.run(() => rowAs((found) => found.role, Q.role, classId, userId));
  }

  members(classId: string): Outcome<M, Member[]> {
    return this.db.run(() => rowsAs((found) => ({ userId: found.user_id, role: found.role }), Q.members, classId));
  }

  addMember(classId: string, member: Member): Outcome<M, void> {
    return this.db.run(() => write(Q.addMember, classId, member.userId, member.role));
  }

  removeMember(classId: string, userId: string): Outcome<M, void> {
    return this.db.transaction(function* () {
      yield* write(Q.removeStudentComments, classId, userId);
      yield* write(Q.removeStudentHistory, classId, userId);
      yield* write(Q.removeStudentWork, classId, userId);
      yield* write(Q.removeMember, classId, userId);
    });
  }

  saveAssignment(assignment: Assignment): Outcome<M, void> {
    return this.db.run(() => write(Q.upsertAssignment, assignment.id, assignment.classId, JSON.stringify(assignment)));
  }

  getAssignment(classId: string, id: string): Outcome<M, Assignment | undefined> {
    return this.db.run(() => doc(Q.assignment, classId, id));
  }

  listAssignments(classId: string): Outcome<M, Assignment[]> {
    return this.db.run(() => docs(Q.assignments, classId));
  }

  assignmentsAttaching(scoreId: string): Outcome<M, Assignment[]> {
    return this.db.run(() => docs(Q.assignmentsAttaching, scoreId));
  }

  saveSubmission(submission: Submission, change?: SubmissionChange, maxHistory = 0): Outcome<M, void> {
    return this.db.transaction(function* () {
      try {
        yield* write(Q.upsertSubmission, submission.id, submission.classId, submission.assignmentId, submission.creatorId, JSON.stringify(submission));
      } catch (error) {
        if (isUniqueViolation(error, 'creator_id')) throw new SubmissionExists('the student already has a submission for this assignment');
        throw error;
      }
      if (change === undefined) return;
      yield* write(F.addChange, submission.id, JSON.stringify(change));
      yield* write(F.trimHistory, submission.id, submission.id, maxHistory);
    });
  }

  getSubmission(assignmentId: string, id: string): Outcome<M, Submission | undefined> {
    return this.db.run(() => doc(Q.submission, assignmentId, id));
  }

  submissionBy(assignmentId: string, creatorId: string): Outcome<M, Submission | undefined> {
    return this.db.run(() => doc(Q.submissionBy, assignmentId, creatorId));
  }

  listSubmissions(assignmentId: string): Outcome<M, Submission[]> {
    return this.db.run(() => docs(Q.submissions, assignmentId));
  }

  studentSubmissions(classId: string, creatorId: string): Outcome<M, Submission[]> {
    return this.db.run(() => docs(Q.studentSubmissions, classId, creatorId));
  }

  teachesSubmissionAttaching(scoreId: string, userId: string): Outcome<M, boolean> {
    return this.db.run(function* () {
      return (yield* row(Q.taughtSubmissionAttaching, userId, scoreId)) !== undefined;
    });
  }

  deleteSubmission(id: string): Outcome<M, void> {
    return this.db.transaction(function* () {
      yield* write(Q.deleteSubmissionComments, id);
      yield* write(Q.deleteSubmissionHistory, id);
      yield* write(Q.deleteSubmission, id);
    });
  }

  submissionHistory(submissionId: string): Outcome<M, SubmissionChange[]> {
    return this.db.run(() => docs(F.history, submissionId));
  }

  submissionComments(submissionId: string): Outcome<M, SubmissionComment[]> {
    return this.db.run(() => docs(F.comments, submissionId));
  }

  submissionComment(submissionId: string, id: string): Outcome<M, SubmissionComment | undefined> {
    return this.db.run(() => doc(F.comment, submissionId, id));
  }

  addSubmissionComment(comment: SubmissionComment, max: number): Outcome<M, boolean> {
    return this.db.run(function* () {
      return (yield* row(F.addComment, comment.id, comment.submissionId, JSON.stringify(comment), comment.submissionId, max)) !== undefined;
    });
  }

  saveSubmissionComment(comment: SubmissionComment): Outcome<M, void> {
    return this.db.run(() => write(F.updateComment, JSON.stringify(comment), comment.id));
  }

  deleteSubmissionComment(id: string): Outcome<M, void> {
    return this.db.run(() => write(F.deleteComment, id));
  }

  submissionsAttaching(scoreId: string, userId: string, max: number): Outcome<M, Submission[]> {
    return this.db.run(() => docs(Q.submissionsAttaching, scoreId, userId, userId, max));
  }
}

export class SqliteEducationStore extends SqlEducationStore<'sync'> {}
export class PgEducationStore extends SqlEducationStore<'async'> {}
