import { isAssignedTo, isPublished } from './assignment.js';
import type { EducationStore } from './education-store.js';

/**
 * Whether a class shares a score with a user: an assignment the user sees in one of their classes
 * attaches it (`forRecording`: with sharing mode `performance`, so the user may add a recording),
 * or, to read it only, a student's submission in a class the user teaches attaches it.
 */
export interface ClassShares {
  sharesScore(scoreId: string, userId: string, forRecording: boolean): Promise<boolean>;
  /** Whether the user is in the group: a teacher of the class whose teachers' group it is, or a student of the one whose students' group it is. */
  inGroup(groupId: string, userId: string): Promise<boolean>;
}

/**
 * Class shares from the assignments themselves. Asked only when the score's own privacy does not
 * already let the user in, so reading one's own or a public score never queries classes.
 */
export class AssignmentShares implements ClassShares {
  constructor(
    private readonly education: EducationStore,
    private readonly now: () => number,
  ) {}

  async sharesScore(scoreId: string, userId: string, forRecording: boolean): Promise<boolean> {
    for (const assignment of await this.education.assignmentsAttaching(scoreId)) {
      const role = await this.education.roleIn(assignment.classId, userId);
      if (role === undefined) continue;
      const sees = role === 'teacher' || (isPublished(assignment, this.now()) && isAssignedTo(assignment, userId));
      if (!sees) continue;
      if (!forRecording || assignment.attachments.some((a) => a.score === scoreId && a.sharingMode === 'performance')) return true;
    }
    // A student hands work in for their teachers to read, not to change or record on.
    return !forRecording && (await this.education.teachesSubmissionAttaching(scoreId, userId));
  }

  async inGroup(groupId: string, userId: string): Promise<boolean> {
    const classroom = await this.education.classByGroup(groupId);
    if (classroom === undefined) return false;
    const role = await this.education.roleIn(classroom.id, userId);
    return role === (classroom.teachersGroupId === groupId ? 'teacher' : 'student');
  }
}
