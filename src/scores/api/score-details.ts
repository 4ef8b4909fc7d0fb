import type { ApiRequest } from '../../transports/http/handoff/index.js';
import type { User } from '../accounts/user.js';
import type { Score } from '../library/score.js';
import type { ScoreApiParts } from './api-parts.js';
import { pictureUrls } from './account-routes.js';
import { scoreDetailsJson, type ScoreSharingJson } from './score-views.js';

export type ScoreDetailsParts = Pick<ScoreApiParts, 'accounts' | 'collections' | 'absoluteUrl'>;

/**
 * ScoreDetails of scores for the caller: its owner's summary, the caller's rights (with `sharing`:
 * its collaborators and comment counts as well; without, the rights its ownership gives), `parentScore`
 * for a fork, and, for the owner, the collections it is in. Owners are read once per call.
 */
export function scoreDetailsOf(parts: ScoreDetailsParts, request: ApiRequest, viewer: User): (score: Score, sharing?: ScoreSharingJson) => Promise<Record<string, unknown>> {
  const owners = new Map<string, User>([[viewer.id, viewer]]);
  return async (score, sharing) => {
    let owner = owners.get(score.ownerId);
    if (owner === undefined) {
      owner = await parts.accounts.userById(score.ownerId);
      if (owner === undefined) throw new Error(`score ${score.id} has no owner ${score.ownerId}`);
      owners.set(owner.id, owner);
    }
    const json = scoreDetailsJson(score, owner, pictureUrls(parts, request, owner).picture, viewer.id, sharing);
    return {
      ...json,
      ...(score.parentScore === undefined ? {} : { parentScore: score.parentScore }),
      ...(score.ownerId === viewer.id ? { collections: await parts.collections.collectionsOfScore(score) } : {}),
    };
  };
}
