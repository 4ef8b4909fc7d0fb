import type { User } from '../accounts/user.js';
import type { ScoreRights } from '../library/collaborator.js';
import type { Revision, Score } from '../library/score.js';

const iso = (ms: number) => new Date(ms).toISOString();

/** UserPublicSummary of a score's owner (the service keeps no profile beyond the user name and picture). */
export function userSummaryJson(user: User, picture: string | null): Record<string, unknown> {
  return { id: user.id, type: 'user', username: user.username, printableName: user.username, name: user.username, picture, isPowerUser: false, isFlatTeam: false };
}

/** What ScoreDetails says of a score's sharing: the caller's rights, the collaborators, and the counts of its comments. */
export interface ScoreSharingJson {
  rights: Record<string, boolean>;
  collaborators: Array<Record<string, unknown>>;
  comments: Record<string, number>;
}

/**
 * ScoreDetails. `rights` are those of the caller; counters the service does not keep (likes,
 * views, plays) are zero, and the sharing key is shown to the owner only. Without `sharing`,
 * the caller is the owner or a reader, with no collaborators or comments listed.
 */
export function scoreDetailsJson(score: Score, owner: User, ownerPicture: string | null, viewerId: string, sharing?: ScoreSharingJson): Record<string, unknown> {
  const isOwner = viewerId === score.ownerId;
  const zero = { total: 0, weekly: 0, monthly: 0 };
  return {
    id: score.id,
    ...(isOwner ? { sharingKey: score.sharingKey } : {}),
    title: score.title,
    privacy: score.privacy,
    user: userSummaryJson(owner, ownerPicture),
    subtitle: score.subtitle,
    lyricist: score.lyricist,
    arranger: score.arranger,
    composer: score.composer,
    description: score.description,
    tags: score.tags,
    creationType: score.creationType,
    license: score.license,
    licenseText: score.licenseText,
    numberMeasures: score.numberMeasures,
    rights: sharing?.rights ?? { aclRead: true, aclWrite: isOwner, aclAdmin: isOwner, isCollaborator: false },
    collaborators: sharing?.collaborators ?? [],
    creationDate: iso(score.creationDate),
    modificationDate: iso(score.modificationDate),
    instruments: [],
    samples: [],
    likes: zero,
    comments: sharing?.comments ?? { ...zero, unique: 0 },
    views: zero,
    plays: zero,
    collections: [],
  };
}

export function revisionJson(revision: Revision): Record<string, unknown> {
  return {
    id: revision.id,
    user: revision.userId,
    collaborators: [revision.userId],
    creationDate: iso(revision.creationDate),
    description: revision.description,
    autosave: revision.autosave,
    statistics: { additions: 0, deletions: 0 },
  };
}
