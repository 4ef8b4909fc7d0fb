import type pg from 'pg';
import type { Assignment, Submission } from '../education/assignment.js';
import type { ClassRole, Classroom, Member } from '../education/classroom.js';
import type { EducationProfile } from '../education/education-profile.js';
import { EmailTaken, SubmissionExists, type EducationStore } from '../education/education-store.js';
import { inTransaction } from './pg-database.js';

function isUniqueViolation(error: unknown, constraintPart: string): boolean {
  return error instanceof Error && 'code' in error && error.code === '23505' && 'constraint' in error && String(error.constraint).includes(constraintPart);
}

/** Classes, members, assignments, submissions and profiles as JSONB documents on PostgreSQL. */
export class PgEducationStore implements EducationStore {
  constructor(private readonly pool: pg.Pool) {}

  private async one<T>(sql: string, values: unknown[]): Promise<T | undefined> {
    const { rows } = await this.pool.query<{ doc: T }>(sql, values);
    return rows[0]?.doc;
  }

  private async all<T>(sql: string, values: unknown[]): Promise<T[]> {
    const { rows } = await this.pool.query<{ doc: T }>(sql, values);
    return rows.map((row) => row.doc);
  }

  profileOf(userId: string): Promise<EducationProfile | undefined> {
    return this.one('SELECT doc FROM education_profiles WHERE user_id = $1', [userId]);
  }

  profileByEmail(email: string): Promise<EducationProfile | undefined> {
    return this.one('SELECT doc FROM education_profiles WHERE email = $1', [email]);
  }

  async saveProfile(profile: EducationProfile): Promise<void> {
    try {
      await this.pool.query('INSERT INTO education_profiles (user_id, email, doc) VALUES ($1, $2, $3) ON CONFLICT (user_id) DO UPDATE SET email = excluded.email, doc = excluded.doc', [profile.userId, profile.email, JSON.stringify(profile)]);
    } catch (error) {
      if (isUniqueViolation(error, 'email')) throw new EmailTaken(`${profile.email ?? ''} belongs to another account`);
      throw error;
    }
  }

  createClass(classroom: Classroom): Promise<void> {
    return inTransaction(this.pool, async (client) => {
      await client.query('INSERT INTO classes (id, enrollment_code, doc) VALUES ($1, $2, $3)', [classroom.id, classroom.enrollmentCode, JSON.stringify(classroom)]);
      await client.query("INSERT INTO class_members (class_id, user_id, role) VALUES ($1, $2, 'teacher')", [classroom.id, classroom.ownerId]);
    });
  }

  async saveClass(classroom: Classroom): Promise<void> {
    await this.pool.query('UPDATE classes SET doc = $1 WHERE id = $2', [JSON.stringify(classroom), classroom.id]);
  }

  getClass(id: string): Promise<Classroom | undefined> {
    return this.one('SELECT doc FROM classes WHERE id = $1', [id]);
  }

  classByEnrollmentCode(code: string): Promise<Classroom | undefined> {
    return this.one('SELECT doc FROM classes WHERE enrollment_code = $1', [code]);
  }

  classByGroup(groupId: string): Promise<Classroom | undefined> {
    return this.one("SELECT doc FROM classes WHERE doc->>'teachersGroupId' = $1 OR doc->>'studentsGroupId' = $1", [groupId]);
  }

  async classesOf(userId: string): Promise<Array<{ classroom: Classroom; role: ClassRole }>> {
    const { rows } = await this.pool.query<{ doc: Classroom; role: ClassRole }>(
      'SELECT classes.doc, class_members.role FROM class_members JOIN classes ON classes.id = class_members.class_id WHERE class_members.user_id = $1 ORDER BY classes.seq',
      [userId],
    );
    return rows.map((row) => ({ classroom: row.doc, role: row.role }));
  }

  async roleIn(classId: string, userId: string): Promise<ClassRole | undefined> {
    const { rows } = await this.pool.query<{ role: ClassRole }>('SELECT role FROM class_members WHERE class_id = $1 AND user_id = $2', [classId, userId]);
    return rows[0]?.role;
  }

  async members(classId: string): Promise<Member[]> {
    const { rows } = await this.pool.query<{ user_id: string; role: ClassRole }>('SELECT user_id, role FROM class_members WHERE class_id = $1 ORDER BY seq', [classId]);
    return rows.map((row) => ({ userId: row.user_id, role: row.role }));
  }

  async addMember(classId: string, member: Member): Promise<void> {
    await this.pool.query('INSERT INTO class_members (class_id, user_id, role) VALUES ($1, $2, $3) ON CONFLICT (class_id, user_id) DO NOTHING', [classId, member.userId, member.role]);
  }

  removeMember(classId: string, userId: string): Promise<void> {
    return inTransaction(this.pool, async (client) => {
      await client.query('DELETE FROM submissions WHERE class_id = $1 AND creator_id = $2', [classId, userId]);
      await client.query('DELETE FROM class_members WHERE class_id = $1 AND user_id = $2', [classId, userId]);
    });
  }

  async saveAssignment(assignment: Assignment): Promise<void> {
    await this.pool.query('INSERT INTO assignments (id, class_id, doc) VALUES ($1, $2, $3) ON CONFLICT (id) DO UPDATE SET doc = excluded.doc', [assignment.id, assignment.classId, JSON.stringify(assignment)]);
  }

  getAssignment(classId: string, id: string): Promise<Assignment | undefined> {
    return this.one('SELECT doc FROM assignments WHERE class_id = $1 AND id = $2', [classId, id]);
  }

  listAssignments(classId: string): Promise<Assignment[]> {
    return this.all('SELECT doc FROM assignments WHERE class_id = $1 ORDER BY seq', [classId]);
  }

  assignmentsAttaching(scoreId: string): Promise<Assignment[]> {
    return this.all("SELECT doc FROM assignments WHERE doc->'attachments' @> $1::jsonb ORDER BY seq", [JSON.stringify([{ score: scoreId }])]);
  }

  async saveSubmission(submission: Submission): Promise<void> {
    try {
      await this.pool.query('INSERT INTO submissions (id, class_id, assignment_id, creator_id, doc) VALUES ($1, $2, $3, $4, $5) ON CONFLICT (id) DO UPDATE SET doc = excluded.doc', [
        submission.id,
        submission.classId,
        submission.assignmentId,
        submission.creatorId,
        JSON.stringify(submission),
      ]);
    } catch (error) {
      if (isUniqueViolation(error, 'creator_id')) throw new SubmissionExists('the student already has a submission for this assignment');
      throw error;
    }
  }

  getSubmission(assignmentId: string, id: string): Promise<Submission | undefined> {
    return this.one('SELECT doc FROM submissions WHERE assignment_id = $1 AND id = $2', [assignmentId, id]);
  }

  submissionBy(assignmentId: string, creatorId: string): Promise<Submission | undefined> {
    return this.one('SELECT doc FROM submissions WHERE assignment_id = $1 AND creator_id = $2', [assignmentId, creatorId]);
  }

  listSubmissions(assignmentId: string): Promise<Submission[]> {
    return this.all('SELECT doc FROM submissions WHERE assignment_id = $1 ORDER BY seq', [assignmentId]);
  }

  studentSubmissions(classId: string, creatorId: string): Promise<Submission[]> {
    return this.all('SELECT doc FROM submissions WHERE class_id = $1 AND creator_id = $2 ORDER BY seq', [classId, creatorId]);
  }

  async teachesSubmissionAttaching(scoreId: string, userId: string): Promise<boolean> {
    const { rows } = await this.pool.query(
      "SELECT 1 FROM class_members JOIN submissions ON submissions.class_id = class_members.class_id WHERE class_members.user_id = $1 AND class_members.role = 'teacher' AND submissions.doc->'attachments' @> $2::jsonb LIMIT 1",
      [userId, JSON.stringify([{ score: scoreId }])],
    );
    return rows.length > 0;
  }

  async deleteSubmission(id: string): Promise<void> {
    await this.pool.query('DELETE FROM submissions WHERE id = $1', [id]);
  }
}
