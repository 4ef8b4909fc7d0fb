import { attempt, unwrap, type ServiceError } from '../../errors/index.js';
import { MAX_COMMENT_LENGTH, MAX_CONTEXT_MEASURES, MAX_MENTIONS, type CommentContext } from '../library/comment.js';
import { bad, optionalString, stringList } from './body-fields.js';

/** The fields of ScoreCommentCreation and ScoreCommentUpdate, each checked alone. */
export interface CommentFields {
  revision?: string;
  comment?: string;
  rawComment?: string;
  mentions?: string[];
  replyTo?: string;
  context?: CommentContext;
}

/** A comment text: 1 to MAX_COMMENT_LENGTH characters. */
function commentText(body: Record<string, unknown>, name: string): string | undefined | ServiceError {
  return attempt(() => {
    const text = unwrap(optionalString(body, name, MAX_COMMENT_LENGTH));
    return text === '' ? bad(name, `${name} must not be empty`) : text;
  });
}

function contextNumber(context: Record<string, unknown>, name: string, required: boolean): number | undefined | ServiceError {
  const value = context[name];
  if (value === undefined || value === null) return required ? bad(`context.${name}`, `context.${name} is required`) : undefined;
  return typeof value === 'number' && Number.isFinite(value) ? value : bad(`context.${name}`, `context.${name} must be a number`);
}

function contextString(context: Record<string, unknown>, name: string, required: boolean): string | undefined | ServiceError {
  const value = context[name];
  if (value === undefined || value === null) return required ? bad(`context.${name}`, `context.${name} is required`) : undefined;
  return typeof value === 'string' && value.length <= 255 ? value : bad(`context.${name}`, `context.${name} must be a string of at most 255 characters`);
}

/** ScoreCommentContext: where an inline comment sits. */
function commentContext(value: unknown): CommentContext | ServiceError {
  return attempt((): CommentContext | ServiceError => {
    if (value === null || typeof value !== 'object' || Array.isArray(value)) return bad('context', 'context must be an object (ScoreCommentContext)');
    const context = value as Record<string, unknown>;
    if (context['measureUuids'] === undefined) return bad('context.measureUuids', 'context.measureUuids is required');
    const staffIdx = unwrap(contextNumber(context, 'staffIdx', false));
    const staffUuid = unwrap(contextString(context, 'staffUuid', false));
    return {
      partUuid: unwrap(contextString(context, 'partUuid', true)) ?? '',
      ...(staffIdx === undefined ? {} : { staffIdx }),
      ...(staffUuid === undefined ? {} : { staffUuid }),
      measureUuids: unwrap(stringList(context['measureUuids'], 'context.measureUuids', MAX_CONTEXT_MEASURES)),
      startTimePos: unwrap(contextNumber(context, 'startTimePos', true)) ?? 0,
      stopTimePos: unwrap(contextNumber(context, 'stopTimePos', true)) ?? 0,
      startDpq: unwrap(contextNumber(context, 'startDpq', true)) ?? 0,
      stopDpq: unwrap(contextNumber(context, 'stopDpq', true)) ?? 0,
    };
  });
}

/** The fields a creation or an update may carry, checked one by one (what each operation requires is checked by it). */
export function commentFields(body: Record<string, unknown>): CommentFields | ServiceError {
  return attempt(() => {
    const fields: CommentFields = {};
    const revision = unwrap(optionalString(body, 'revision', 255));
    const comment = unwrap(commentText(body, 'comment'));
    const rawComment = unwrap(commentText(body, 'rawComment'));
    const replyTo = unwrap(optionalString(body, 'replyTo', 255));
    if (revision !== undefined) fields.revision = revision;
    if (comment !== undefined) fields.comment = comment;
    if (rawComment !== undefined) fields.rawComment = rawComment;
    if (replyTo !== undefined) fields.replyTo = replyTo;
    if (body['mentions'] !== undefined && body['mentions'] !== null) fields.mentions = unwrap(stringList(body['mentions'], 'mentions', MAX_MENTIONS));
    if (body['context'] !== undefined && body['context'] !== null) fields.context = unwrap(commentContext(body['context']));
    return fields;
  });
}
