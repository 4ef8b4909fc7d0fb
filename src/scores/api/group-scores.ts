import { ServiceError, unwrap } from '../../errors/index.js';
import type { ApiOutcome, ApiRequest, ApiRoute } from '../../transports/http/handoff/index.js';
import type { Grant } from '../accounts/user.js';
import { isPublished, type Assignment } from '../education/assignment.js';
import type { ScoreApiParts } from './api-parts.js';
import { grantedRoutes, READ } from './access.js';
import { groupClass } from './class-groups.js';
import { scoreDetailsOf } from './score-details.js';
import { jsonResponse } from './responses.js';

export type GroupScoresParts = Pick<ScoreApiParts, 'accounts' | 'education' | 'scores' | 'collections' | 'absoluteUrl' | 'now'>;

/** getGroupScores: the scores shared with one of a class's two groups. */
export function groupScoreRoutes(parts: GroupScoresParts): ApiRoute[] {
  const route = grantedRoutes(parts);
  return [route('GET', '/v2/groups/:group/scores', READ, getGroupScores)];
}

/**
 * What the class's assignments share with the group: with its students, the scores attached to
 * the assignments published for every student (one for selected students is shared with them,
 * not with the group); with its teachers, those of every assignment, drafts and scheduled ones
 * too, so only teachers list them.
 */
function sharedWith(assignments: readonly Assignment[], teachers: boolean, now: number): string[] {
  const shared = assignments.filter((a) => teachers || (isPublished(a, now) && a.assigneeMode === 'everyone'));
  return [...new Set(shared.flatMap((a) => a.attachments.flatMap((attachment) => (attachment.score === undefined ? [] : [attachment.score]))))];
}

async function getGroupScores(parts: GroupScoresParts, request: ApiRequest, grant: Grant): Promise<ApiOutcome> {
  const { access, teachers } = unwrap(await groupClass(parts.education, request.params['group'] ?? '', grant.user.id));
  if (teachers && access.role !== 'teacher') return new ServiceError('SC_FORBIDDEN', "only the class's teachers list what its teachers group shares");
  // `parent`: only the forks of that score.
  const parent = request.query.get('parent') || undefined;
  const details = scoreDetailsOf(parts, request, grant.user);
  const bodies: Array<Record<string, unknown>> = [];
  for (const scoreId of sharedWith(await parts.education.listAssignments(access.classroom.id), teachers, parts.now())) {
    const score = await parts.scores.getScore(scoreId);
    if (score === undefined || score.trashedAt !== null) continue;
    if (parent !== undefined && score.parentScore !== parent) continue;
    bodies.push(await details(score));
  }
  return jsonResponse(200, bodies);
}
