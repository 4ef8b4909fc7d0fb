import { ServiceError, unwrap } from '../../errors/index.js';
import type { ApiOutcome, ApiRequest, ApiRoute } from '../../transports/http/handoff/index.js';
import { newId } from '../accounts/tokens.js';
import type { Grant } from '../accounts/user.js';
import type { ScoreRights } from '../library/collaborator.js';
import { COMMENT_TYPES, commentType, type ScoreComment } from '../library/comment.js';
import type { Score } from '../library/score.js';
import type { ScoreApiParts } from './api-parts.js';
import { grantedRoutes, READ_SOCIAL, scoreAccess, SOCIAL } from './access.js';
import { bad, jsonObjectBody } from './body-fields.js';
import { commentFields } from './comment-bodies.js';
import { choiceParam } from './query-params.js';
import { jsonResponse } from './responses.js';
import { commentJson } from './sharing-views.js';

export type CommentRoutesParts = Pick<ScoreApiParts, 'accounts' | 'scores' | 'classShares' | 'comments' | 'maxCommentsPerScore' | 'now'>;

/**
 * Comments on a score, on the document or inline (getScoreComments, postScoreComment,
 * updateScoreComment, deleteScoreComment, markScoreCommentResolved, markScoreCommentUnresolved):
 * its readers comment; an author edits their comment; the author and the score's administrators
 * delete it and mark it resolved.
 */
export function commentRoutes(parts: CommentRoutesParts): ApiRoute[] {
  const route = grantedRoutes(parts);
  return [
    route('GET', '/v2/scores/:score/comments', READ_SOCIAL, getScoreComments),
    route('POST', '/v2/scores/:score/comments', SOCIAL, postScoreComment),
    route('PUT', '/v2/scores/:score/comments/:comment', SOCIAL, updateScoreComment),
    route('DELETE', '/v2/scores/:score/comments/:comment', SOCIAL, deleteScoreComment),
    route('PUT', '/v2/scores/:score/comments/:comment/resolved', SOCIAL, markScoreCommentResolved),
    route('DELETE', '/v2/scores/:score/comments/:comment/resolved', SOCIAL, markScoreCommentUnresolved),
  ];
}

/** The comment a request names on a score the caller reads, with the caller's rights on the score. */
async function commentFor(parts: CommentRoutesParts, request: ApiRequest, grant: Grant): Promise<{ score: Score; rights: ScoreRights; comment: ScoreComment } | ServiceError> {
  const access = await scoreAccess(parts, request, grant, 'read');
  if (access instanceof ServiceError) return access;
  const id = request.params['comment'] ?? '';
  const comment = await parts.comments.getComment(access.score.id, id);
  return comment === undefined ? new ServiceError('SC_COMMENT_NOT_FOUND', `no comment ${JSON.stringify(id)} on this score`, { param: 'comment' }) : { ...access, comment };
}

/** The revision a comment is written on: the one named, or the newest for none or `last`. */
async function revisionId(parts: CommentRoutesParts, score: Score, named: string | undefined): Promise<string | ServiceError> {
  const revision = await parts.scores.getRevision(score.id, named ?? 'last');
  return revision?.id ?? bad('revision', `score ${score.id} has no revision ${JSON.stringify(named)}`);
}

/** Mentions must name existing users. */
async function checkedMentions(parts: CommentRoutesParts, mentions: readonly string[]): Promise<string[] | ServiceError> {
  for (const [i, id] of mentions.entries()) {
    if ((await parts.accounts.userById(id)) === undefined) return bad('mentions', `mentions[${i}]: no user has the id ${JSON.stringify(id)}`);
  }
  return [...new Set(mentions)];
}

async function getScoreComments(parts: CommentRoutesParts, request: ApiRequest, grant: Grant): Promise<ApiOutcome> {
  const type = unwrap(choiceParam(request.query, 'type', COMMENT_TYPES, undefined));
  unwrap(choiceParam(request.query, 'sort', ['date'], 'date'));
  const direction = unwrap(choiceParam(request.query, 'direction', ['asc', 'desc'], 'asc'));
  const { score } = unwrap(await scoreAccess(parts, request, grant, 'read'));
  // Stored in the order they were posted.
  const comments = (await parts.comments.listComments(score.id)).filter((comment) => type === undefined || commentType(comment) === type);
  if (direction === 'desc') comments.reverse();
  return jsonResponse(200, comments.map(commentJson));
}

async function postScoreComment(parts: CommentRoutesParts, request: ApiRequest, grant: Grant): Promise<ApiOutcome> {
  const { score } = unwrap(await scoreAccess(parts, request, grant, 'read'));
  const fields = unwrap(commentFields(unwrap(jsonObjectBody(request))));
  if (fields.comment === undefined) return bad('comment', 'comment is required');
  const mentions = unwrap(await checkedMentions(parts, fields.mentions ?? []));
  if (mentions.length > 0 && fields.rawComment === undefined) return bad('rawComment', 'rawComment (the text without the mentions) is required when the comment has mentions');
  if (fields.replyTo !== undefined && (await parts.comments.getComment(score.id, fields.replyTo)) === undefined) {
    return bad('replyTo', `no comment ${JSON.stringify(fields.replyTo)} on this score to reply to`);
  }
  const now = parts.now();
  const comment: ScoreComment = {
    id: newId(),
    scoreId: score.id,
    userId: grant.user.id,
    revisionId: unwrap(await revisionId(parts, score, fields.revision)),
    replyTo: fields.replyTo ?? null,
    date: now,
    modificationDate: now,
    comment: fields.comment,
    rawComment: fields.rawComment ?? fields.comment,
    context: fields.context ?? null,
    mentions,
    resolved: false,
    resolvedBy: null,
  };
  if (!(await parts.comments.addComment(comment, score.ownerId, parts.maxCommentsPerScore))) {
    return new ServiceError('SC_SCORE_SHARING_FULL', `Account overquota: the score has ${parts.maxCommentsPerScore} comments, as many as one score may have (SCORES_MAX_COMMENTS_PER_SCORE)`, { param: 'score' });
  }
  return jsonResponse(200, commentJson(comment));
}

async function updateScoreComment(parts: CommentRoutesParts, request: ApiRequest, grant: Grant): Promise<ApiOutcome> {
  const { score, comment } = unwrap(await commentFor(parts, request, grant));
  if (comment.userId !== grant.user.id) return new ServiceError('SC_FORBIDDEN', 'Only the author of a comment may edit it');
  const fields = unwrap(commentFields(unwrap(jsonObjectBody(request))));
  const mentions = fields.mentions === undefined ? comment.mentions : unwrap(await checkedMentions(parts, fields.mentions));
  const text = fields.comment ?? comment.comment;
  // A new text without mentions is its own raw text; with mentions, the raw text must come with it.
  const rawComment = fields.rawComment ?? (fields.comment === undefined ? comment.rawComment : mentions.length === 0 ? fields.comment : undefined);
  if (rawComment === undefined) return bad('rawComment', 'rawComment (the text without the mentions) is required when the comment has mentions');
  const next: ScoreComment = {
    ...comment,
    revisionId: fields.revision === undefined ? comment.revisionId : unwrap(await revisionId(parts, score, fields.revision)),
    comment: text,
    rawComment,
    context: fields.context ?? comment.context,
    mentions,
    modificationDate: parts.now(),
  };
  await parts.comments.updateComment(next);
  return jsonResponse(200, commentJson(next));
}

const mayModerate = (rights: ScoreRights, comment: ScoreComment, grant: Grant) => rights.aclAdmin || comment.userId === grant.user.id;

/** With the replies under it. */
async function deleteScoreComment(parts: CommentRoutesParts, request: ApiRequest, grant: Grant): Promise<ApiOutcome> {
  const { score, rights, comment } = unwrap(await commentFor(parts, request, grant));
  if (!mayModerate(rights, comment, grant)) return new ServiceError('SC_FORBIDDEN', 'Not granted to delete this comment: only its author and the score’s administrators may');
  await parts.comments.deleteComment(score.id, comment.id);
  return { status: 204 };
}

/** Resolving is for inline comments, as ScoreComment.resolved describes it. */
async function setResolved(parts: CommentRoutesParts, request: ApiRequest, grant: Grant, resolved: boolean): Promise<ApiOutcome> {
  const { rights, comment } = unwrap(await commentFor(parts, request, grant));
  if (!mayModerate(rights, comment, grant)) return new ServiceError('SC_FORBIDDEN', `Not granted to mark this comment as ${resolved ? 'resolved' : 'unresolved'}: only its author and the score’s administrators may`);
  if (commentType(comment) !== 'inline') return bad('comment', 'only inline comments (posted with a context) are resolved');
  await parts.comments.updateComment({ ...comment, resolved, resolvedBy: resolved ? grant.user.id : null });
  return { status: 204 };
}

const markScoreCommentResolved = (parts: CommentRoutesParts, request: ApiRequest, grant: Grant) => setResolved(parts, request, grant, true);
const markScoreCommentUnresolved = (parts: CommentRoutesParts, request: ApiRequest, grant: Grant) => setResolved(parts, request, grant, false);
