import type { Collaborator, ScoreRights } from '../library/collaborator.js';
import { commentType, type ScoreComment } from '../library/comment.js';

const iso = (ms: number) => new Date(ms).toISOString();

/** ResourceRights. */
export function rightsJson(rights: ScoreRights): Record<string, boolean> {
  return { aclRead: rights.aclRead, aclWrite: rights.aclWrite, aclAdmin: rights.aclAdmin, isCollaborator: rights.isCollaborator };
}

/**
 * ResourceCollaborator: a permission on a score, with the user (`UserPublic`) or the group
 * (`Group`) it names. The owner's own entry has the owner's user id as its id.
 */
export function collaboratorJson(scoreId: string, permission: { id: string; aclRead: boolean; aclWrite: boolean; aclAdmin: boolean }, subject: { user: Record<string, unknown> } | { group: Record<string, unknown> }): Record<string, unknown> {
  return { id: permission.id, score: scoreId, aclRead: permission.aclRead, aclWrite: permission.aclWrite, aclAdmin: permission.aclAdmin, isCollaborator: true, ...subject };
}

export function ownerPermission(ownerId: string): Pick<Collaborator, 'id' | 'aclRead' | 'aclWrite' | 'aclAdmin'> {
  return { id: ownerId, aclRead: true, aclWrite: true, aclAdmin: true };
}

/** ScoreComment; this service has no spam filter, so `spam` is always false. */
export function commentJson(comment: ScoreComment): Record<string, unknown> {
  return {
    id: comment.id,
    type: commentType(comment),
    user: comment.userId,
    score: comment.scoreId,
    revision: comment.revisionId,
    ...(comment.replyTo === null ? {} : { replyTo: comment.replyTo }),
    date: iso(comment.date),
    modificationDate: iso(comment.modificationDate),
    comment: comment.comment,
    rawComment: comment.rawComment,
    ...(comment.context === null ? {} : { context: comment.context }),
    mentions: comment.mentions,
    resolved: comment.resolved,
    ...(comment.resolvedBy === null ? {} : { resolvedBy: comment.resolvedBy }),
    spam: false,
  };
}

const WEEK_MS = 7 * 24 * 3_600_000;
const MONTH_MS = 30 * 24 * 3_600_000;

/**
 * ScoreCommentsCounts, which counts the comments on the document (not the inline ones): all of
 * them, and their distinct authors over all time, the last 7 days and the last 30.
 */
export function commentCountsJson(comments: readonly ScoreComment[], now: number): Record<string, number> {
  const onDocument = comments.filter((comment) => commentType(comment) === 'document');
  const authorsSince = (since: number) => new Set(onDocument.filter((comment) => comment.date >= since).map((comment) => comment.userId)).size;
  return { total: onDocument.length, unique: authorsSince(-Infinity), weekly: authorsSince(now - WEEK_MS), monthly: authorsSince(now - MONTH_MS) };
}
