/**
 * A score shared with a user or with a group (a class's teachers or students), with rights that
 * grow: reading, writing (edits, revisions, tracks), administering (sharing, deleting comments).
 * Times are epoch milliseconds.
 */
export interface Collaborator {
  id: string;
  scoreId: string;
  /** Whom the score is shared with: a user's id, or a group's for every member of the group. */
  grantee: Grantee;
  aclRead: boolean;
  aclWrite: boolean;
  aclAdmin: boolean;
  creationDate: number;
}

export type Grantee = { kind: 'user'; id: string } | { kind: 'group'; id: string };

/** ResourceRights: what one caller may do with a score, and whether that comes from being shared it. */
export interface ScoreRights {
  aclRead: boolean;
  aclWrite: boolean;
  aclAdmin: boolean;
  isCollaborator: boolean;
}

export const NO_RIGHTS: ScoreRights = { aclRead: false, aclWrite: false, aclAdmin: false, isCollaborator: false };
export const OWNER_RIGHTS: ScoreRights = { aclRead: true, aclWrite: true, aclAdmin: true, isCollaborator: true };

/** Each right includes the ones below it: an administrator writes, a writer reads. */
export function impliedRights(asked: { aclRead: boolean; aclWrite: boolean; aclAdmin: boolean }): { aclRead: boolean; aclWrite: boolean; aclAdmin: boolean } {
  const aclWrite = asked.aclWrite || asked.aclAdmin;
  return { aclRead: asked.aclRead || aclWrite, aclWrite, aclAdmin: asked.aclAdmin };
}

/** The rights of both: a user shared a score directly and through a group holds the larger of each. */
export function unitedRights(a: ScoreRights, b: ScoreRights): ScoreRights {
  return { aclRead: a.aclRead || b.aclRead, aclWrite: a.aclWrite || b.aclWrite, aclAdmin: a.aclAdmin || b.aclAdmin, isCollaborator: a.isCollaborator || b.isCollaborator };
}

/** Collaborators one score may have besides its owner. */
export const MAX_COLLABORATORS_PER_SCORE = 100;
