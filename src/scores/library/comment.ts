/** A comment on a score: on the whole document, or inline on a passage (with a context). Times are epoch milliseconds. */
export interface ScoreComment {
  id: string;
  scoreId: string;
  /** The author. */
  userId: string;
  /** The revision it was written on. */
  revisionId: string;
  /** The comment of the same score it answers. */
  replyTo: string | null;
  date: number;
  modificationDate: number;
  /** With mentions as `@[id:username]`. */
  comment: string;
  rawComment: string;
  context: CommentContext | null;
  /** Ids of the users it mentions. */
  mentions: string[];
  resolved: boolean;
  resolvedBy: string | null;
}

/** ScoreCommentContext: where in the score an inline comment sits. */
export interface CommentContext {
  partUuid: string;
  staffIdx?: number;
  staffUuid?: string;
  measureUuids: string[];
  startTimePos: number;
  stopTimePos: number;
  startDpq: number;
  stopDpq: number;
}

export const COMMENT_TYPES = ['document', 'inline'] as const;
export type CommentType = (typeof COMMENT_TYPES)[number];

export function commentType(comment: ScoreComment): CommentType {
  return comment.context === null ? 'document' : 'inline';
}

/** The longest comment text (and raw text), as ScoreCommentUpdate bounds them. */
export const MAX_COMMENT_LENGTH = 10_000;
/** Users one comment may mention, and measures one context may span. */
export const MAX_MENTIONS = 50;
export const MAX_CONTEXT_MEASURES = 1000;
