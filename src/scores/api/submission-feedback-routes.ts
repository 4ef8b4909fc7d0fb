import { ServiceError, unwrap } from '../../errors/index.js';
import type { ApiOutcome, ApiRequest, ApiRoute } from '../../transports/http/handoff/index.js';
import type { Scope } from '../accounts/scopes.js';
import { newId } from '../accounts/tokens.js';
import type { Grant } from '../accounts/user.js';
import { MAX_COMMENT_LENGTH, MAX_SUBMISSION_COMMENTS, type SubmissionChange, type SubmissionComment } from '../education/submission-feedback.js';
import { grantedRoutes } from './access.js';
import { bad, jsonObjectBody, optionalString } from './body-fields.js';
import { teachersOnly } from './education-access.js';
import { jsonResponse } from './responses.js';
import { submissionOf, type SubmissionRoutesParts } from './submission-access.js';

/** The OAuth2 alternatives of a submission's history and comments, as release 2.13.0 lists them (edu.assignments only). */
const FEEDBACK_READ: readonly Scope[] = ['edu.assignments', 'edu.assignments.readonly'];
const FEEDBACK_WRITE: readonly Scope[] = ['edu.assignments'];

const iso = (ms: number) => new Date(ms).toISOString();

/**
 * What goes with a submission: its history (getSubmissionHistory, teachers only) and the feedback
 * comments its student and the class's teachers exchange (getSubmissionComments,
 * postSubmissionComment, updateSubmissionComment, deleteSubmissionComment).
 */
export function submissionFeedbackRoutes(parts: SubmissionRoutesParts): ApiRoute[] {
  const route = grantedRoutes(parts);
  const submission = '/v2/classes/:class/assignments/:assignment/submissions/:submission';
  return [
    route('GET', `${submission}/history`, FEEDBACK_READ, getSubmissionHistory),
    route('GET', `${submission}/comments`, FEEDBACK_READ, getSubmissionComments),
    route('POST', `${submission}/comments`, FEEDBACK_WRITE, postSubmissionComment),
    route('PUT', `${submission}/comments/:comment`, FEEDBACK_WRITE, updateSubmissionComment),
    route('DELETE', `${submission}/comments/:comment`, FEEDBACK_WRITE, deleteSubmissionComment),
  ];
}

/** AssignmentSubmissionHistory. */
function changeJson(change: SubmissionChange): Record<string, unknown> {
  return {
    date: iso(change.date),
    users: [change.userId],
    state: change.state,
    ...(change.draftGrade === null ? {} : { draftGrade: change.draftGrade }),
    ...(change.grade === null ? {} : { grade: change.grade }),
    ...(change.maxPoints === null ? {} : { maxPoints: change.maxPoints }),
    ...(change.attachment === null ? {} : { attachment: change.attachment }),
  };
}

/** AssignmentSubmissionComment as `viewerId` sees it: unread when another wrote it and the viewer has not listed it since. */
function commentJson(comment: SubmissionComment, viewerId: string): Record<string, unknown> {
  return {
    id: comment.id,
    user: comment.authorId,
    submission: comment.submissionId,
    date: iso(comment.date),
    ...(comment.modificationDate === null ? {} : { modificationDate: iso(comment.modificationDate) }),
    comment: comment.comment,
    unread: comment.authorId !== viewerId && !comment.readBy.includes(viewerId),
  };
}

async function getSubmissionHistory(parts: SubmissionRoutesParts, request: ApiRequest, grant: Grant): Promise<ApiOutcome> {
  const { access, submission } = unwrap(await submissionOf(parts, request, grant));
  if (access.role !== 'teacher') return teachersOnly("read a submission's history");
  return jsonResponse(200, (await parts.education.submissionHistory(submission.id)).map(changeJson));
}

/** The comments, as unread where the caller has not seen them; listing them marks them read. */
async function getSubmissionComments(parts: SubmissionRoutesParts, request: ApiRequest, grant: Grant): Promise<ApiOutcome> {
  const { submission } = unwrap(await submissionOf(parts, request, grant));
  const comments = await parts.education.submissionComments(submission.id);
  const body = comments.map((comment) => commentJson(comment, grant.user.id));
  for (const comment of comments) {
    if (comment.authorId !== grant.user.id && !comment.readBy.includes(grant.user.id)) await parts.education.saveSubmissionComment({ ...comment, readBy: [...comment.readBy, grant.user.id] });
  }
  return jsonResponse(200, body);
}

/** AssignmentSubmissionCommentCreation: `comment`, required, not blank. */
function commentText(request: ApiRequest): string | ServiceError {
  const text = unwrap(optionalString(unwrap(jsonObjectBody(request)), 'comment', MAX_COMMENT_LENGTH));
  return text === undefined || text.trim() === '' ? bad('comment', `comment is required: a text of 1 to ${MAX_COMMENT_LENGTH} characters`) : text;
}

async function postSubmissionComment(parts: SubmissionRoutesParts, request: ApiRequest, grant: Grant): Promise<ApiOutcome> {
  const { submission } = unwrap(await submissionOf(parts, request, grant));
  const text = unwrap(commentText(request));
  const comment: SubmissionComment = { id: newId(), submissionId: submission.id, authorId: grant.user.id, date: parts.now(), modificationDate: null, comment: text, readBy: [] };
  if (!(await parts.education.addSubmissionComment(comment, MAX_SUBMISSION_COMMENTS))) {
    return new ServiceError('SC_LIST_FULL', `the submission holds ${MAX_SUBMISSION_COMMENTS} comments, the most it may`);
  }
  return jsonResponse(200, commentJson(comment, grant.user.id));
}

/** The comment a request names, of a submission the caller sees. */
async function commentOf(parts: SubmissionRoutesParts, request: ApiRequest, grant: Grant): Promise<{ comment: SubmissionComment; teacher: boolean } | ServiceError> {
  const { access, submission } = unwrap(await submissionOf(parts, request, grant));
  const id = request.params['comment'] ?? '';
  const comment = await parts.education.submissionComment(submission.id, id);
  if (comment === undefined) return new ServiceError('SC_COMMENT_NOT_FOUND', `the submission has no comment ${JSON.stringify(id)}`, { param: 'comment' });
  return { comment, teacher: access.role === 'teacher' };
}

/** Its author rewrites it; the others read it anew. */
async function updateSubmissionComment(parts: SubmissionRoutesParts, request: ApiRequest, grant: Grant): Promise<ApiOutcome> {
  const { comment } = unwrap(await commentOf(parts, request, grant));
  if (comment.authorId !== grant.user.id) return new ServiceError('SC_FORBIDDEN', 'only its author may change a comment');
  const changed: SubmissionComment = { ...comment, comment: unwrap(commentText(request)), modificationDate: parts.now(), readBy: [] };
  await parts.education.saveSubmissionComment(changed);
  return jsonResponse(200, commentJson(changed, grant.user.id));
}

/** Its author, or a teacher of the class (who moderates what is said there), deletes it. */
async function deleteSubmissionComment(parts: SubmissionRoutesParts, request: ApiRequest, grant: Grant): Promise<ApiOutcome> {
  const { comment, teacher } = unwrap(await commentOf(parts, request, grant));
  if (comment.authorId !== grant.user.id && !teacher) return new ServiceError('SC_FORBIDDEN', 'only its author or a teacher of the class may delete a comment');
  await parts.education.deleteSubmissionComment(comment.id);
  return { status: 204 };
}
