import type { User } from '../accounts/user.js';
import type { Revision, Score } from '../library/score.js';

const iso = (ms: number) => new Date(ms).toISOString();

/** UserPublicSummary of a score's owner (the service keeps no profile beyond the user name and picture). */
export function userSummaryJson(user: User, picture: string | null): Record<string, unknown> {
  return { id: user.id, type: 'user', username: user.username, printableName: user.username, name: user.username, picture, isPowerUser: false, isFlatTeam: false };
}

/**
 * ScoreDetails. `rights` are those of the caller; counters the service does not keep (likes,
 * views, plays, comments) are zero, and the sharing key is shown to the owner only.
 */
export function scoreDetailsJson(score: Score, owner: User, ownerPicture: string | null, viewerId: string): Record<string, unknown> {
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
    rights: { aclRead: true, aclWrite: isOwner, aclAdmin: isOwner, isCollaborator: false },
    collaborators: [],
    creationDate: iso(score.creationDate),
    modificationDate: iso(score.modificationDate),
    instruments: [],
    samples: [],
    likes: zero,
    comments: { ...zero, unique: 0 },
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
