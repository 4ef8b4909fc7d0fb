import type Database from 'better-sqlite3';
import type { Assignment, Submission } from '../education/assignment.js';
import type { ClassRole, Classroom, Member } from '../education/classroom.js';
import type { EducationProfile } from '../education/education-profile.js';
import { EmailTaken, SubmissionExists, type EducationStore } from '../education/education-store.js';

type Doc = { doc: string };
const parse = <T>(row: Doc | undefined): T | undefined => (row === undefined ? undefined : (JSON.parse(row.doc) as T));

function isUniqueViolation(error: unknown, column: string): boolean {
  return error instanceof Error && 'code' in error && error.code === 'SQLITE_CONSTRAINT_UNIQUE' && error.message.includes(column);
}

/** Classes, members, assignments, submissions and profiles as JSON documents in the score API's SQLite database. */
export class SqliteEducationStore implements EducationStore {
  private readonly statements;
  private readonly createWithOwner: (classroom: Classroom) => void;
  private readonly dropMember: (classId: string, userId: string) => void;

  constructor(db: Database.Database) {
    this.statements = {
      profile: db.prepare<[string], Doc>('SELECT doc FROM education_profiles WHERE user_id = ?'),
      profileByEmail: db.prepare<[string], Doc>('SELECT doc FROM education_profiles WHERE email = ?'),
      upsertProfile: db.prepare<[string, string | null, string]>('INSERT INTO education_profiles (user_id, email, doc) VALUES (?, ?, ?) ON CONFLICT (user_id) DO UPDATE SET email = excluded.email, doc = excluded.doc'),
      insertClass: db.prepare<[string, string, string]>('INSERT INTO classes (id, enrollment_code, doc) VALUES (?, ?, ?)'),
      updateClass: db.prepare<[string, string]>('UPDATE classes SET doc = ? WHERE id = ?'),
      classById: db.prepare<[string], Doc>('SELECT doc FROM classes WHERE id = ?'),
      classByCode: db.prepare<[string], Doc>('SELECT doc FROM classes WHERE enrollment_code = ?'),
      classByGroup: db.prepare<[string, string], Doc>("SELECT doc FROM classes WHERE json_extract(doc, '$.teachersGroupId') = ? OR json_extract(doc, '$.studentsGroupId') = ?"),
      classesOf: db.prepare<[string], Doc & { role: ClassRole }>('SELECT classes.doc, class_members.role FROM class_members JOIN classes ON classes.id = class_members.class_id WHERE class_members.user_id = ? ORDER BY classes.seq'),
      role: db.prepare<[string, string], { role: ClassRole }>('SELECT role FROM class_members WHERE class_id = ? AND user_id = ?'),
      members: db.prepare<[string], { user_id: string; role: ClassRole }>('SELECT user_id, role FROM class_members WHERE class_id = ? ORDER BY seq'),
      addMember: db.prepare<[string, string, string]>('INSERT INTO class_members (class_id, user_id, role) VALUES (?, ?, ?) ON CONFLICT (class_id, user_id) DO NOTHING'),
      removeMember: db.prepare<[string, string]>('DELETE FROM class_members WHERE class_id = ? AND user_id = ?'),
      removeStudentWork: db.prepare<[string, string]>('DELETE FROM submissions WHERE class_id = ? AND creator_id = ?'),
      upsertAssignment: db.prepare<[string, string, string]>('INSERT INTO assignments (id, class_id, doc) VALUES (?, ?, ?) ON CONFLICT (id) DO UPDATE SET doc = excluded.doc'),
      assignment: db.prepare<[string, string], Doc>('SELECT doc FROM assignments WHERE class_id = ? AND id = ?'),
      assignments: db.prepare<[string], Doc>('SELECT doc FROM assignments WHERE class_id = ? ORDER BY seq'),
      attaching: db.prepare<[string], Doc>("SELECT doc FROM assignments WHERE EXISTS (SELECT 1 FROM json_each(doc, '$.attachments') WHERE json_extract(value, '$.score') = ?) ORDER BY seq"),
      upsertSubmission: db.prepare<[string, string, string, string, string]>(
        'INSERT INTO submissions (id, class_id, assignment_id, creator_id, doc) VALUES (?, ?, ?, ?, ?) ON CONFLICT (id) DO UPDATE SET doc = excluded.doc',
      ),
      submission: db.prepare<[string, string], Doc>('SELECT doc FROM submissions WHERE assignment_id = ? AND id = ?'),
      submissionBy: db.prepare<[string, string], Doc>('SELECT doc FROM submissions WHERE assignment_id = ? AND creator_id = ?'),
      submissions: db.prepare<[string], Doc>('SELECT doc FROM submissions WHERE assignment_id = ? ORDER BY seq'),
      studentSubmissions: db.prepare<[string, string], Doc>('SELECT doc FROM submissions WHERE class_id = ? AND creator_id = ? ORDER BY seq'),
      deleteSubmission: db.prepare<[string]>('DELETE FROM submissions WHERE id = ?'),
      // From the teacher's classes (class_members_by_user) to their submissions (submissions_by_student).
      taughtSubmissionAttaching: db.prepare<[string, string], { found: number }>(
        "SELECT 1 AS found FROM class_members JOIN submissions ON submissions.class_id = class_members.class_id WHERE class_members.user_id = ? AND class_members.role = 'teacher' AND EXISTS (SELECT 1 FROM json_each(submissions.doc, '$.attachments') WHERE json_extract(value, '$.score') = ?) LIMIT 1",
      ),
    };
    const s = this.statements;
    this.createWithOwner = db.transaction((classroom: Classroom) => {
      s.insertClass.run(classroom.id, classroom.enrollmentCode, JSON.stringify(classroom));
      s.addMember.run(classroom.id, classroom.ownerId, 'teacher');
    });
    this.dropMember = db.transaction((classId: string, userId: string) => {
      s.removeStudentWork.run(classId, userId);
      s.removeMember.run(classId, userId);
    });
  }

  profileOf(userId: string): EducationProfile | undefined {
    return parse(this.statements.profile.get(userId));
  }

  profileByEmail(email: string): EducationProfile | undefined {
    return parse(this.statements.profileByEmail.get(email));
  }

  saveProfile(profile: EducationProfile): void {
    try {
      this.statements.upsertProfile.run(profile.userId, profile.email, JSON.stringify(profile));
    } catch (error) {
      if (isUniqueViolation(error, 'email')) throw new EmailTaken(`${profile.email ?? ''} belongs to another account`);
      throw error;
    }
  }

  createClass(classroom: Classroom): void {
    this.createWithOwner(classroom);
  }

  saveClass(classroom: Classroom): void {
    this.statements.updateClass.run(JSON.stringify(classroom), classroom.id);
  }

  getClass(id: string): Classroom | undefined {
    return parse(this.statements.classById.get(id));
  }

  classByEnrollmentCode(code: string): Classroom | undefined {
    return parse(this.statements.classByCode.get(code));
  }

  classByGroup(groupId: string): Classroom | undefined {
    return parse(this.statements.classByGroup.get(groupId, groupId));
  }

  classesOf(userId: string): Array<{ classroom: Classroom; role: ClassRole }> {
    return this.statements.classesOf.all(userId).map((row) => ({ classroom: JSON.parse(row.doc) as Classroom, role: row.role }));
  }

  roleIn(classId: string, userId: string): ClassRole | undefined {
    return this.statements.role.get(classId, userId)?.role;
  }

  members(classId: string): Member[] {
    return this.statements.members.all(classId).map((row) => ({ userId: row.user_id, role: row.role }));
  }

  addMember(classId: string, member: Member): void {
    this.statements.addMember.run(classId, member.userId, member.role);
  }

  removeMember(classId: string, userId: string): void {
    this.dropMember(classId, userId);
  }

  saveAssignment(assignment: Assignment): void {
    this.statements.upsertAssignment.run(assignment.id, assignment.classId, JSON.stringify(assignment));
  }

  getAssignment(classId: string, id: string): Assignment | undefined {
    return parse(this.statements.assignment.get(classId, id));
  }

  listAssignments(classId: string): Assignment[] {
    return this.statements.assignments.all(classId).map((row) => JSON.parse(row.doc) as Assignment);
  }

  assignmentsAttaching(scoreId: string): Assignment[] {
    return this.statements.attaching.all(scoreId).map((row) => JSON.parse(row.doc) as Assignment);
  }

  teachesSubmissionAttaching(scoreId: string, userId: string): boolean {
    return this.statements.taughtSubmissionAttaching.get(userId, scoreId) !== undefined;
  }

  saveSubmission(submission: Submission): void {
    try {
      this.statements.upsertSubmission.run(submission.id, submission.classId, submission.assignmentId, submission.creatorId, JSON.stringify(submission));
    } catch (error) {
      if (isUniqueViolation(error, 'creator_id')) throw new SubmissionExists('the student already has a submission for this assignment');
      throw error;
    }
  }

  getSubmission(assignmentId: string, id: string): Submission | undefined {
    return parse(this.statements.submission.get(assignmentId, id));
  }

  submissionBy(assignmentId: string, creatorId: string): Submission | undefined {
    return parse(this.statements.submissionBy.get(assignmentId, creatorId));
  }

  listSubmissions(assignmentId: string): Submission[] {
    return this.statements.submissions.all(assignmentId).map((row) => JSON.parse(row.doc) as Submission);
  }

  studentSubmissions(classId: string, creatorId: string): Submission[] {
    return this.statements.studentSubmissions.all(classId, creatorId).map((row) => JSON.parse(row.doc) as Submission);
  }

  deleteSubmission(id: string): void {
    this.statements.deleteSubmission.run(id);
  }
}
