import { ServiceError } from '../../errors/index.js';
import type { ApiRequest, ApiResponse, ApiRoute } from '../../transports/http/handoff/index.js';
import { newId } from '../accounts/tokens.js';
import type { Grant } from '../accounts/user.js';
import type { Revision, Score } from '../library/score.js';
import { readScoreFile, type MusicXmlLimits, type MusicXmlScore } from '../musicxml/read-score-file.js';
import type { ScoreApiParts } from './api-parts.js';
import { pictureUrls } from './account-routes.js';
import { READ, WRITE, revisionFor, scoreFor, scoreNotFound, withGrant } from './access.js';
import { booleanParam } from './query-params.js';
import { quotaExceeded } from './quota-errors.js';
import { jsonResponse } from './responses.js';
import { jsonObjectBody } from './body-fields.js';
import { modifiedScore, scoreCreation, scoreData } from './score-bodies.js';
import { revisionJson, scoreDetailsJson } from './score-views.js';

export interface ScoreRoutesParts extends Pick<ScoreApiParts, 'accounts' | 'scores' | 'classShares' | 'absoluteUrl' | 'now' | 'newSharingKey' | 'quota' | 'musicXmlLimits'> {
  /** Called when a score is deleted for good, with its revisions' ids, to drop their files. */
  forgetScore(scoreId: string, revisionIds: readonly string[]): Promise<void>;
}

const DEFAULT_TITLE = 'New Music Score';

async function details(parts: ScoreRoutesParts, request: ApiRequest, score: Score, grant: Grant): Promise<ApiResponse> {
  const owner = score.ownerId === grant.user.id ? grant.user : await parts.accounts.userById(score.ownerId);
  if (owner === undefined) throw new Error(`score ${score.id} has no owner ${score.ownerId}`);
  return jsonResponse(200, scoreDetailsJson(score, owner, pictureUrls(parts, request, owner).picture, grant.user.id));
}

/** The MusicXML a creation body carries, read and checked. */
function notationOf(body: Record<string, unknown>, limits: MusicXmlLimits): MusicXmlScore | ServiceError {
  const data = scoreData(body);
  return data instanceof ServiceError ? data : readScoreFile(data, limits);
}

/** Scores (create, get, edit, trash, untrash, delete for good) and their revisions. */
export function scoreRoutes(parts: ScoreRoutesParts): ApiRoute[] {
  const guarded = (scopes: Parameters<typeof withGrant>[1], handle: Parameters<typeof withGrant>[2]) => withGrant(parts, scopes, handle);

  return [
    {
      method: 'POST',
      path: '/v2/scores',
      handle: guarded(WRITE, async (request, grant) => {
        const body = jsonObjectBody(request);
        if (body instanceof ServiceError) return body;
        const fields = scoreCreation(body);
        if (fields instanceof ServiceError) return fields;
        const file = notationOf(body, parts.musicXmlLimits);
        if (file instanceof ServiceError) return file;
        const now = parts.now();
        const fromFilename = fields.filename?.replace(/\.(xml|musicxml|mxl)$/i, '');
        const score: Score = {
          id: newId(),
          ownerId: grant.user.id,
          title: fields.title ?? file.title ?? (fromFilename || undefined) ?? DEFAULT_TITLE,
          subtitle: '',
          composer: '',
          lyricist: '',
          arranger: '',
          description: '',
          tags: [],
          creationType: 'original',
          license: 'copyright',
          licenseText: '',
          privacy: fields.privacy,
          sharingKey: parts.newSharingKey(),
          numberMeasures: file.numberMeasures,
          creationDate: now,
          modificationDate: now,
          trashedAt: null,
        };
        const first: Revision = { id: newId(), scoreId: score.id, userId: grant.user.id, creationDate: now, description: '', autosave: false };
        const refused = await parts.scores.createScore(score, first, file.xml, parts.quota);
        if (refused !== undefined) return quotaExceeded(refused, 'data');
        return details(parts, request, score, grant);
      }),
    },
    {
      method: 'GET',
      path: '/v2/scores/:score',
      handle: guarded(READ, async (request, grant) => {
        const score = await scoreFor(parts, request, grant, 'read');
        return score instanceof ServiceError ? score : details(parts, request, score, grant);
      }),
    },
    {
      method: 'PUT',
      path: '/v2/scores/:score',
      handle: guarded(WRITE, async (request, grant) => {
        const score = await scoreFor(parts, request, grant, 'write');
        if (score instanceof ServiceError) return score;
        const body = jsonObjectBody(request);
        if (body instanceof ServiceError) return body;
        const next = modifiedScore(score, body);
        if (next instanceof ServiceError) return next;
        next.modificationDate = parts.now();
        await parts.scores.updateScore(next);
        return details(parts, request, next, grant);
      }),
    },
    {
      method: 'DELETE',
      path: '/v2/scores/:score',
      handle: guarded(WRITE, async (request, grant) => {
        const now = booleanParam(request.query, 'now', false);
        if (now instanceof ServiceError) return now;
        const score = await scoreFor(parts, request, grant, 'write');
        if (score instanceof ServiceError) return score;
        if (now) {
          const revisions = await parts.scores.listRevisions(score.id);
          await parts.scores.deleteScore(score.id);
          await parts.forgetScore(score.id, revisions.map((revision) => revision.id));
        } else await parts.scores.updateScore({ ...score, trashedAt: parts.now() });
        return { status: 204 };
      }),
    },
    {
      method: 'POST',
      path: '/v2/scores/:score/untrash',
      handle: guarded(WRITE, async (request, grant) => {
        const score = await parts.scores.getScore(request.params['score'] ?? '');
        if (score === undefined || score.ownerId !== grant.user.id) return scoreNotFound(request.params['score']);
        if (score.trashedAt !== null) await parts.scores.updateScore({ ...score, trashedAt: null });
        return { status: 204 };
      }),
    },
    {
      method: 'GET',
      path: '/v2/scores/:score/revisions',
      handle: guarded(READ, async (request, grant) => {
        const score = await scoreFor(parts, request, grant, 'read');
        if (score instanceof ServiceError) return score;
        return jsonResponse(200, (await parts.scores.listRevisions(score.id)).map(revisionJson));
      }),
    },
    {
      method: 'POST',
      path: '/v2/scores/:score/revisions',
      handle: guarded(WRITE, async (request, grant) => {
        const score = await scoreFor(parts, request, grant, 'write');
        if (score instanceof ServiceError) return score;
        const body = jsonObjectBody(request);
        if (body instanceof ServiceError) return body;
        const file = notationOf(body, parts.musicXmlLimits);
        if (file instanceof ServiceError) return file;
        const description = body['description'];
        if (description !== undefined && typeof description !== 'string') return new ServiceError('SC_BAD_REQUEST', 'description must be a string', { param: 'description' });
        const autosave = body['autosave'];
        if (autosave !== undefined && typeof autosave !== 'boolean') return new ServiceError('SC_BAD_REQUEST', 'autosave must be a boolean', { param: 'autosave' });
        const now = parts.now();
        const revision: Revision = { id: newId(), scoreId: score.id, userId: grant.user.id, creationDate: now, description: description ?? '', autosave: autosave ?? false };
        const refused = await parts.scores.addRevision(revision, file.xml, { ...score, numberMeasures: file.numberMeasures, modificationDate: now }, parts.quota);
        if (refused !== undefined) return quotaExceeded(refused, 'data');
        return jsonResponse(200, revisionJson(revision));
      }),
    },
    {
      method: 'GET',
      path: '/v2/scores/:score/revisions/:revision',
      handle: guarded(READ, async (request, grant) => {
        const score = await scoreFor(parts, request, grant, 'read');
        if (score instanceof ServiceError) return score;
        const revision = await revisionFor(parts.scores, score, request);
        return revision instanceof ServiceError ? revision : jsonResponse(200, revisionJson(revision));
      }),
    },
  ];
}
