/**
 * The bounds of what a submission and an organization accumulate, on a real SQLite file: a
 * submission's history keeps its newest changes, and comments and LTI credentials stop at their
 * maximum; a reset takes a submission's comments and history with it.
 */
import t from 'tap';
import type { Assignment, Submission } from '../../../src/scores/education/assignment.js';
import type { Classroom } from '../../../src/scores/education/classroom.js';
import type { LtiCredentials } from '../../../src/scores/education/organization.js';
import { changeOf, type SubmissionComment } from '../../../src/scores/education/submission-feedback.js';
import { openScoresDatabase } from '../../../src/scores/state/sqlite-database.js';
import { SqliteAccountStore } from '../../../src/scores/state/sql-account-store.js';
import { SqliteEducationStore } from '../../../src/scores/state/sql-education-store.js';
import { tempDir } from '../../support/temp-dir.js';

const NOW = Date.UTC(2026, 10, 21, 12, 0, 0);

type Tap = Parameters<Parameters<typeof t.test>[0]>[0];

async function stores(t: Tap) {
  const db = openScoresDatabase(await tempDir(t, 'feedback-'), 'normal');
  t.teardown(() => db.close());
  const accounts = new SqliteAccountStore(db);
  const education = new SqliteEducationStore(db);
  const teacher = accounts.ensureUser('teacher', NOW);
  const student = accounts.ensureUser('student', NOW);
  const classroom = { id: 'c1', ownerId: teacher.id, enrollmentCode: 'CODE1', teachersGroupId: 'gt', studentsGroupId: 'gs' } as Classroom;
  education.createClass(classroom);
  education.saveAssignment({ id: 'a1', classId: 'c1', attachments: [] } as unknown as Assignment);
  const submission = { id: 's1', classId: 'c1', assignmentId: 'a1', creatorId: student.id, state: 'created', attachments: [], draftGrade: null, grade: null } as unknown as Submission;
  return { education, submission, teacher: teacher.id };
}

t.test("a submission's history keeps its newest changes, and a reset takes it", async (t) => {
  const { education, submission, teacher } = await stores(t);
  for (let grade = 1; grade <= 5; grade++) education.saveSubmission({ ...submission, draftGrade: grade }, changeOf({ ...submission, draftGrade: grade }, 20, teacher, NOW + grade), 3);
  t.same(education.submissionHistory('s1').map((change) => change.draftGrade), [3, 4, 5], 'the three newest of five');
  education.saveSubmission({ ...submission, draftGrade: 9 });
  t.equal(education.submissionHistory('s1').length, 3, 'a save without a change records none');
  education.deleteSubmission('s1');
  t.same(education.submissionHistory('s1'), []);
});

t.test('comments stop at their maximum; a reset takes them', async (t) => {
  const { education, submission, teacher } = await stores(t);
  education.saveSubmission(submission);
  const comment = (id: string): SubmissionComment => ({ id, submissionId: 's1', authorId: teacher, date: NOW, modificationDate: null, comment: id, readBy: [] });
  t.same(['k1', 'k2', 'k3'].map((id) => education.addSubmissionComment(comment(id), 2)), [true, true, false]);
  t.same(education.submissionComments('s1').map((c) => c.id), ['k1', 'k2']);
  education.deleteSubmissionComment('k1');
  t.ok(education.addSubmissionComment(comment('k3'), 2), 'room again once one is deleted');
  education.deleteSubmission('s1');
  t.same(education.submissionComments('s1'), []);
});

t.test("an organization's LTI credentials stop at their maximum, counted per organization", async (t) => {
  const { education, teacher } = await stores(t);
  const credentials = (id: string, organization: string): LtiCredentials => ({ id, name: id, lms: 'other', organization, creatorId: teacher, creationDate: NOW, consumerKey: `key-${id}` });
  t.same(['l1', 'l2'].map((id) => education.addLtiCredentials(credentials(id, 'school'), 'hash', 1)), [true, false]);
  t.ok(education.addLtiCredentials(credentials('l3', 'other'), 'hash', 1), 'another organization has its own count');
  t.ok(education.deleteLtiCredentials('school', 'l1'));
  t.notOk(education.deleteLtiCredentials('school', 'l3'), "another organization's are not found");
  t.same(education.ltiCredentials('other').map((c) => c.id), ['l3']);
});
