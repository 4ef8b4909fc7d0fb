import { SCORES_MANIFEST } from './manifest.js';
import type { CounterStore } from '../engine/index.js';
import { ServiceError } from '../errors/index.js';
import type { ApiDefinition, ApiRequest } from '../transports/http/handoff/index.js';
import type { ScoreApiParts } from './api/api-parts.js';
import type { Score } from './library/score.js';
import { accountRoutes } from './api/account-routes.js';
import { adminRoutes } from './api/admin-routes.js';
import { assignmentRoutes } from './api/assignment-routes.js';
import { classRoutes } from './api/class-routes.js';
import { collaboratorRoutes } from './api/collaborator-routes.js';
import { commentRoutes } from './api/comment-routes.js';
import { collectionRoutes } from './api/collection-routes.js';
import { exportRoutes } from './api/export-routes.js';
import { fileRoutes } from './api/file-routes.js';
import { groupScoreRoutes } from './api/group-scores.js';
import { organizationInvitationRoutes } from './api/organization-invitation-routes.js';
import { organizationLtiRoutes } from './api/organization-lti-routes.js';
import { organizationUserRoutes } from './api/organization-user-routes.js';
import { scoreRoutes } from './api/score-routes.js';
import { submissionFeedbackRoutes } from './api/submission-feedback-routes.js';
import { gradeExportRoutes } from './api/submission-grades.js';
import { submissionRoutes } from './api/submission-routes.js';
import { trackRoutes } from './api/track-routes.js';
import { userRoutes } from './api/user-routes.js';
import { EnrolmentGuard } from './education/enrolment-guard.js';
import { AssignmentShares } from './education/score-sharing.js';

export interface ScoresApiParts extends Omit<ScoreApiParts, 'absoluteUrl' | 'classShares' | 'enrolmentGuard'> {
  /** Scheme, host and port of the service for absolute URLs; '' takes them from each request's Host. */
  publicUrl: string;
  /** Bearer token of the `/v2/admin/` routes; '' leaves them out. */
  adminToken: string;
  /** Where failed enrolments are counted: a counter store of the API thread's own. */
  enrolmentCounters: CounterStore;
  /** Unknown enrollment codes an account may try per minute. */
  enrollFailuresPerMinute: number;
}

/** The score and education API (release 2.13.0 surface) as the API thread serves it. */
export function scoresApi(parts: ScoresApiParts): ApiDefinition {
  const absoluteUrl = (request: ApiRequest, path: string) => `${parts.publicUrl || `http://${request.headers.get('host') ?? 'localhost'}`}${path}`;
  /** A score deleted for good: its revisions, collaborators and comments, and its exports, tracks and their recordings. */
  const deleteForGood = async (score: Score) => {
    const revisions = await parts.scores.listRevisions(score.id);
    await parts.scores.deleteScore(score.id);
    const recordings = (await parts.tracks.listTracks(score.id)).flatMap((track) => (track.audioFile === null ? [] : [track.audioFile]));
    await parts.tracks.deleteTracksOf(score.id);
    await parts.uploads.remove(recordings);
    await parts.exporter.forget(revisions.map((revision) => revision.id));
  };
  /** A closed account's scores, deleted for good, and its collections. */
  const deleteAccountData = async (userId: string) => {
    for (const score of await parts.scores.scoresOwnedBy(userId)) await deleteForGood(score);
    await parts.collections.deleteCollectionsOf(userId);
  };
  /** Tracks an assignment's submissions carry (the students' recorded performances). */
  const assignmentTracks = async (assignmentId: string) => {
    const submissions = await parts.education.listSubmissions(assignmentId);
    return new Set(submissions.flatMap((submission) => submission.attachments.flatMap((attachment) => (attachment.track === undefined ? [] : [attachment.track]))));
  };
  const enrolmentGuard = new EnrolmentGuard(parts.enrolmentCounters, parts.enrollFailuresPerMinute, parts.now);
  const shared = { ...parts, absoluteUrl, classShares: new AssignmentShares(parts.education, parts.now), enrolmentGuard };
  return {
    name: SCORES_MANIFEST.name,
    routes: [
      ...adminRoutes(shared),
      ...accountRoutes(shared),
      ...scoreRoutes({ ...shared, deleteForGood }),
      ...collaboratorRoutes(shared),
      ...commentRoutes(shared),
      ...exportRoutes(shared),
      ...trackRoutes({ ...shared, assignmentTracks }),
      ...fileRoutes(shared),
      ...collectionRoutes(shared),
      ...userRoutes(shared),
      ...classRoutes(shared),
      ...assignmentRoutes(shared),
      ...submissionRoutes(shared),
      ...gradeExportRoutes(shared),
      ...groupScoreRoutes(shared),
      ...submissionFeedbackRoutes(shared),
      ...organizationUserRoutes({ ...shared, deleteAccountData }),
      ...organizationInvitationRoutes(shared),
      ...organizationLtiRoutes(shared),
    ],
    notFound: (method, path) => new ServiceError('SC_NOT_FOUND', `no route ${method} ${path}`),
    methodNotAllowed: (method, path, allowed) =>
      new ServiceError('SC_METHOD_NOT_ALLOWED', `${method} is not allowed on ${path}; allowed: ${allowed.join(', ')}`, { allow: allowed.join(',') }),
    internalError: 'SC_INTERNAL',
  };
}
