import { attempt, ServiceError, unwrap } from '../../errors/index.js';
import type { ApiOutcome, ApiRequest, ApiResponse, ApiRoute } from '../../transports/http/handoff/index.js';
import { newId } from '../accounts/tokens.js';
import type { Grant } from '../accounts/user.js';
import { OWNER_RIGHTS, type ScoreRights } from '../library/collaborator.js';
import type { Revision, Score } from '../library/score.js';
import { readScoreFile, type MusicXmlLimits, type MusicXmlScore } from '../musicxml/read-score-file.js';
import type { ScoreApiParts } from './api-parts.js';
import { pictureUrls } from './account-routes.js';
import { grantedRoutes, READ, WRITE, revisionFor, scoreAccess, scoreFor, scoreNotFound } from './access.js';
import { collaboratorsView } from './collaborator-routes.js';
import { booleanParam } from './query-params.js';
import { quotaExceeded } from './quota-errors.js';
import { jsonResponse } from './responses.js';
import { jsonObjectBody } from './body-fields.js';
import { modifiedScore, scoreCreation, scoreData } from './score-bodies.js';
import { revisionJson, scoreDetailsJson } from './score-views.js';
import { commentCountsJson, rightsJson } from './sharing-views.js';

export interface ScoreRoutesParts extends Pick<ScoreApiParts, 'accounts' | 'scores' | 'classShares' | 'education' | 'comments' | 'absoluteUrl' | 'now' | 'newSharingKey' | 'quota' | 'musicXmlLimits'> {
  /** Called when a score is deleted for good, with its revisions' ids, to drop their files. */
  forgetScore(scoreId: string, revisionIds: readonly string[]): Promise<void>;
}

const DEFAULT_TITLE = 'New Music Score';

/** ScoreDetails as the caller, with `rights` on the score, sees it. */
async function details(parts: ScoreRoutesParts, request: ApiRequest, score: Score, grant: Grant, rights: ScoreRights): Promise<ApiResponse> {
  const owner = score.ownerId === grant.user.id ? grant.user : await parts.accounts.userById(score.ownerId);
  if (owner === undefined) throw new Error(`score ${score.id} has no owner ${score.ownerId}`);
  const sharing = {
    rights: rightsJson(rights),
    collaborators: await collaboratorsView(parts, request, score, rights),
    comments: commentCountsJson(await parts.comments.listComments(score.id), parts.now()),
  };
  return jsonResponse(200, scoreDetailsJson(score, owner, pictureUrls(parts, request, owner).picture, grant.user.id, sharing));
}

/** The MusicXML a creation body carries, read and checked. */
function notationOf(body: Record<string, unknown>, limits: MusicXmlLimits): MusicXmlScore | ServiceError {
  return attempt(() => readScoreFile(unwrap(scoreData(body)), limits));
}

/** Scores (create, get, edit, trash, untrash, delete for good) and their revisions. */
export function scoreRoutes(parts: ScoreRoutesParts): ApiRoute[] {
  const route = grantedRoutes(parts);
  return [
    route('POST', '/v2/scores', WRITE, createScore),
    route('GET', '/v2/scores/:score', READ, getScore),
    route('PUT', '/v2/scores/:score', WRITE, editScore),
    route('DELETE', '/v2/scores/:score', WRITE, deleteScore),
    route('POST', '/v2/scores/:score/untrash', WRITE, untrashScore),
    route('GET', '/v2/scores/:score/revisions', READ, getScoreRevisions),
    route('POST', '/v2/scores/:score/revisions', WRITE, createScoreRevision),
    route('GET', '/v2/scores/:score/revisions/:revision', READ, getScoreRevision),
  ];
}

async function createScore(parts: ScoreRoutesParts, request: ApiRequest, grant: Grant): Promise<ApiOutcome> {
  const body = unwrap(jsonObjectBody(request));
  const fields = unwrap(scoreCreation(body));
  const file = unwrap(notationOf(body, parts.musicXmlLimits));
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
  return details(parts, request, score, grant, OWNER_RIGHTS);
}

async function getScore(parts: ScoreRoutesParts, request: ApiRequest, grant: Grant): Promise<ApiOutcome> {
  const { score, rights } = unwrap(await scoreAccess(parts, request, grant, 'read'));
  return details(parts, request, score, grant, rights);
}

async function editScore(parts: ScoreRoutesParts, request: ApiRequest, grant: Grant): Promise<ApiOutcome> {
  const { score, rights } = unwrap(await scoreAccess(parts, request, grant, 'write'));
  const body = unwrap(jsonObjectBody(request));
  // Who may read the score is the administrators' to change, as sharing it is.
  const sharingField = ['privacy', 'sharingKey'].find((name) => body[name] !== undefined);
  if (sharingField !== undefined && !rights.aclAdmin) return new ServiceError('SC_FORBIDDEN', `Not granted to change ${sharingField}: only the score's administrators may`);
  const next = unwrap(modifiedScore(score, body));
  next.modificationDate = parts.now();
  await parts.scores.updateScore(next);
  return details(parts, request, next, grant, rights);
}

/** To the trash, or with `now=true` for good, with its revisions, tracks and files; by its owner alone. */
async function deleteScore(parts: ScoreRoutesParts, request: ApiRequest, grant: Grant): Promise<ApiOutcome> {
  const now = unwrap(booleanParam(request.query, 'now', false));
  const score = unwrap(await scoreFor(parts, request, grant, 'own'));
  if (now) {
    const revisions = await parts.scores.listRevisions(score.id);
    await parts.scores.deleteScore(score.id);
    await parts.forgetScore(score.id, revisions.map((revision) => revision.id));
  } else await parts.scores.updateScore({ ...score, trashedAt: parts.now() });
  return { status: 204 };
}

async function untrashScore(parts: ScoreRoutesParts, request: ApiRequest, grant: Grant): Promise<ApiOutcome> {
  const score = await parts.scores.getScore(request.params['score'] ?? '');
  if (score === undefined || score.ownerId !== grant.user.id) return scoreNotFound(request.params['score']);
  if (score.trashedAt !== null) await parts.scores.updateScore({ ...score, trashedAt: null });
  return { status: 204 };
}

async function getScoreRevisions(parts: ScoreRoutesParts, request: ApiRequest, grant: Grant): Promise<ApiOutcome> {
  const score = unwrap(await scoreFor(parts, request, grant, 'read'));
  return jsonResponse(200, (await parts.scores.listRevisions(score.id)).map(revisionJson));
}

async function createScoreRevision(parts: ScoreRoutesParts, request: ApiRequest, grant: Grant): Promise<ApiOutcome> {
  const score = unwrap(await scoreFor(parts, request, grant, 'write'));
  const body = unwrap(jsonObjectBody(request));
  const file = unwrap(notationOf(body, parts.musicXmlLimits));
  const description = body['description'];
  if (description !== undefined && typeof description !== 'string') return new ServiceError('SC_BAD_REQUEST', 'description must be a string', { param: 'description' });
  const autosave = body['autosave'];
  if (autosave !== undefined && typeof autosave !== 'boolean') return new ServiceError('SC_BAD_REQUEST', 'autosave must be a boolean', { param: 'autosave' });
  const now = parts.now();
  const revision: Revision = { id: newId(), scoreId: score.id, userId: grant.user.id, creationDate: now, description: description ?? '', autosave: autosave ?? false };
  const refused = await parts.scores.addRevision(revision, file.xml, { ...score, numberMeasures: file.numberMeasures, modificationDate: now }, parts.quota);
  if (refused !== undefined) return quotaExceeded(refused, 'data');
  return jsonResponse(200, revisionJson(revision));
}

async function getScoreRevision(parts: ScoreRoutesParts, request: ApiRequest, grant: Grant): Promise<ApiOutcome> {
  const score = unwrap(await scoreFor(parts, request, grant, 'read'));
  const revision = unwrap(await revisionFor(parts.scores, score, request));
  return jsonResponse(200, revisionJson(revision));
}
