import type { User } from '../accounts/user.js';
import type { SpecialCollection } from '../library/collection.js';
import { capabilitiesOf, type NamedCollection } from './collection-access.js';
import { userSummaryJson } from './score-views.js';

const SPECIAL_TITLES: Readonly<Record<SpecialCollection, string>> = { root: 'Root', trash: 'Trash', sharedWithMe: 'Shared with me' };

/**
 * Collection, as its owner (the only one who sees it) gets it. `htmlUrl` is the collection's
 * address on this service; the special collections date from their owner's registration.
 */
export function collectionJson(named: NamedCollection, owner: User, ownerPicture: string | null, htmlUrl: string): Record<string, unknown> {
  const regular = named.kind === 'regular' ? named.collection : undefined;
  return {
    id: named.id,
    title: regular?.title ?? SPECIAL_TITLES[named.kind === 'special' ? named.type : 'root'],
    htmlUrl,
    type: named.kind === 'special' ? named.type : 'regular',
    privacy: 'private',
    ...(regular === undefined ? {} : { sharingKey: regular.sharingKey }),
    creationDate: new Date(regular?.creationDate ?? owner.registrationDate).toISOString(),
    user: userSummaryJson(owner, ownerPicture),
    rights: { aclRead: true, aclWrite: true, aclAdmin: true, isCollaborator: false },
    collaborators: [],
    capabilities: capabilitiesOf(named),
  };
}
