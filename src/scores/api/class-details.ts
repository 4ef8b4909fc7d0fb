import type { ApiResponse } from '../../transports/http/handoff/index.js';
import type { Grant } from '../accounts/user.js';
import { emptyProfile, type EducationProfile } from '../education/education-profile.js';
import type { ScoreApiParts } from './api-parts.js';
import { seesAssignment, type ClassAccess } from './education-access.js';
import { classDetailsJson } from './education-views.js';
import { jsonResponse } from './responses.js';

/** What the class, member and group operations work with. */
export type ClassRoutesParts = Pick<ScoreApiParts, 'accounts' | 'education' | 'absoluteUrl' | 'now' | 'enrolmentGuard'>;

/** An account's education profile; one never set is the empty profile (no organization). */
export async function profileOf(parts: ClassRoutesParts, userId: string): Promise<EducationProfile> {
  return (await parts.education.profileOf(userId)) ?? emptyProfile(userId);
}

/** A class as `viewer` sees it: its counts include only the assignments the viewer sees. */
export async function classDetails(parts: ClassRoutesParts, access: ClassAccess, viewer: string): Promise<Record<string, unknown>> {
  const members = await parts.education.members(access.classroom.id);
  const now = parts.now();
  const assignments = (await parts.education.listAssignments(access.classroom.id)).filter((a) => seesAssignment(access, viewer, a, now));
  const teachers = members.filter((m) => m.role === 'teacher').length;
  return classDetailsJson(access.classroom, access.role, { teachers, students: members.length - teachers, assignments: assignments.length });
}

/** The answer of an operation on a class: its details for the caller. */
export async function classAnswer(parts: ClassRoutesParts, access: ClassAccess, grant: Grant): Promise<ApiResponse> {
  return jsonResponse(200, await classDetails(parts, access, grant.user.id));
}
