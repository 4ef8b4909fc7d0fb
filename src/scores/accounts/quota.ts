/**
 * What one account may store, so a client writing in a loop fills its own quota rather than the
 * disk: bytes (its scores' revisions as MusicXML and its uploaded files together), uploaded files,
 * and revisions per score.
 */
export interface Quota {
  maxBytes: number;
  maxUploads: number;
  maxRevisionsPerScore: number;
}

/** What an account stores now, as the quota counts it. */
export interface Usage {
  bytes: number;
  uploads: number;
}

/** Why a write was refused: which bound it would pass, and the numbers for the message. */
export type QuotaRefusal =
  | { kind: 'bytes'; limit: number; used: number; adding: number }
  | { kind: 'uploads'; limit: number }
  | { kind: 'revisions'; limit: number };

/** The refusal of storing `bytes` more in `files` more uploaded files, or undefined when it fits. */
export function quotaRefusal(quota: Quota, usage: Usage, bytes: number, files: number): QuotaRefusal | undefined {
  if (files > 0 && usage.uploads + files > quota.maxUploads) return { kind: 'uploads', limit: quota.maxUploads };
  if (usage.bytes + bytes > quota.maxBytes) return { kind: 'bytes', limit: quota.maxBytes, used: usage.bytes, adding: bytes };
  return undefined;
}

/** The refusal of a revision more on a score that has `revisions`, or undefined when it fits. */
export function revisionRefusal(quota: Quota, revisions: number): QuotaRefusal | undefined {
  return revisions >= quota.maxRevisionsPerScore ? { kind: 'revisions', limit: quota.maxRevisionsPerScore } : undefined;
}
