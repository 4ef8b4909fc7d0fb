import { strToU8, zipSync } from 'fflate';
import { ServiceError } from '../../errors/index.js';
import type { ApiRequest, ApiResponse, ApiRoute } from '../../transports/http/handoff/index.js';
import type { AccountStore } from '../accounts/account-store.js';
import type { Scope } from '../accounts/scopes.js';
import { newId } from '../accounts/tokens.js';
import type { Grant } from '../accounts/user.js';
import type { Revision, Score } from '../library/score.js';
import type { ScoreStore } from '../library/score-store.js';
import { readScoreFile, type MusicXmlScore } from '../musicxml/read-score-file.js';
import { authorize } from './authorization.js';
import { booleanParam } from './query-params.js';
import { jsonResponse } from './responses.js';
import { jsonObjectBody, modifiedScore, scoreCreation, scoreData } from './score-bodies.js';
import { revisionJson, scoreDetailsJson } from './score-views.js';

export interface ScoreRoutesParts {
  accounts: AccountStore;
  scores: ScoreStore;
  now(): number;
  /** A new 128-hex-digit sharing key. */
  newSharingKey(): string;
}

const READ: readonly Scope[] = ['scores', 'scores.readonly'];
const WRITE: readonly Scope[] = ['scores'];
const DEFAULT_TITLE = 'New Music Score';
/** The 2.13.0 export formats; those not produced yet answer 404 saying so. */
const FORMATS = ['json', 'mxl', 'xml', 'mp3', 'wav', 'midi', 'thumbnail.png', 'synchronizationPoints'] as const;

function notFound(id: string | undefined): ServiceError {
  return new ServiceError('SC_SCORE_NOT_FOUND', `no score ${JSON.stringify(id ?? '')}`, { param: 'score' });
}

/** Who may read: the owner; anyone for public scores; holders of the sharing key for privateLink ones. */
function canRead(score: Score, grant: Grant, request: ApiRequest): boolean {
  if (score.ownerId === grant.user.id) return true;
  if (score.privacy === 'public' || score.privacy === 'organizationPublic') return true;
  return score.privacy === 'privateLink' && request.query.get('sharingKey') === score.sharingKey;
}

/** The score an authorised request names, readable (and writable when `write`), else its 403/404. */
async function scoreFor(parts: ScoreRoutesParts, request: ApiRequest, grant: Grant, write: boolean): Promise<Score | ServiceError> {
  const score = await parts.scores.getScore(request.params['score'] ?? '');
  // A trashed score is not accessible until its owner untrashes it.
  if (score === undefined || score.trashedAt !== null) return notFound(request.params['score']);
  if (!canRead(score, grant, request)) return new ServiceError('SC_FORBIDDEN', 'Not granted to read this score');
  if (write && score.ownerId !== grant.user.id) return new ServiceError('SC_FORBIDDEN', 'Not granted to modify this score');
  return score;
}

async function details(parts: ScoreRoutesParts, score: Score, grant: Grant): Promise<ApiResponse> {
  const owner = score.ownerId === grant.user.id ? grant.user : await parts.accounts.userById(score.ownerId);
  if (owner === undefined) throw new Error(`score ${score.id} has no owner ${score.ownerId}`);
  return jsonResponse(200, scoreDetailsJson(score, owner, grant.user.id));
}

/** The MusicXML a creation body carries, read and checked. */
function notationOf(body: Record<string, unknown>): MusicXmlScore | ServiceError {
  const data = scoreData(body);
  return data instanceof ServiceError ? data : readScoreFile(data);
}

/** The revision a request names (an id or `last`) of a score it may read. */
async function revisionFor(parts: ScoreRoutesParts, score: Score, request: ApiRequest): Promise<Revision | ServiceError> {
  const revision = await parts.scores.getRevision(score.id, request.params['revision'] ?? '');
  return revision ?? new ServiceError('SC_REVISION_NOT_FOUND', `score ${score.id} has no revision ${JSON.stringify(request.params['revision'])}`, { param: 'revision' });
}

/** The .mxl of a revision: its MusicXML in a zip with the container file MusicXML 3 defines. */
function mxlOf(xml: string): Uint8Array {
  const container = '<?xml version="1.0" encoding="UTF-8"?>\n<container><rootfiles><rootfile full-path="score.xml" media-type="application/vnd.recordare.musicxml+xml"/></rootfiles></container>\n';
  return zipSync({ mimetype: [strToU8('application/vnd.recordare.musicxml'), { level: 0 }], 'META-INF/container.xml': strToU8(container), 'score.xml': strToU8(xml) });
}

/** Scores (create, get, edit, trash, untrash), their revisions and the exports built so far. */
export function scoreRoutes(parts: ScoreRoutesParts): ApiRoute[] {
  const withGrant =
    (scopes: readonly Scope[], handle: (request: ApiRequest, grant: Grant) => Promise<ApiResponse | ServiceError>) =>
    async (request: ApiRequest): Promise<ApiResponse | ServiceError> => {
      const grant = await authorize(request, parts.accounts, scopes);
      return grant instanceof ServiceError ? grant : handle(request, grant);
    };

  return [
    {
      method: 'POST',
      path: '/v2/scores',
      handle: withGrant(WRITE, async (request, grant) => {
        const body = jsonObjectBody(request);
        if (body instanceof ServiceError) return body;
        const fields = scoreCreation(body);
        if (fields instanceof ServiceError) return fields;
        const file = notationOf(body);
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
        await parts.scores.createScore(score, first, file.xml);
        return details(parts, score, grant);
      }),
    },
    {
      method: 'GET',
      path: '/v2/scores/:score',
      handle: withGrant(READ, async (request, grant) => {
        const score = await scoreFor(parts, request, grant, false);
        return score instanceof ServiceError ? score : details(parts, score, grant);
      }),
    },
    {
      method: 'PUT',
      path: '/v2/scores/:score',
      handle: withGrant(WRITE, async (request, grant) => {
        const score = await scoreFor(parts, request, grant, true);
        if (score instanceof ServiceError) return score;
        const body = jsonObjectBody(request);
        if (body instanceof ServiceError) return body;
        const next = modifiedScore(score, body);
        if (next instanceof ServiceError) return next;
        next.modificationDate = parts.now();
        await parts.scores.updateScore(next);
        return details(parts, next, grant);
      }),
    },
    {
      method: 'DELETE',
      path: '/v2/scores/:score',
      handle: withGrant(WRITE, async (request, grant) => {
        const now = booleanParam(request.query, 'now', false);
        if (now instanceof ServiceError) return now;
        const score = await scoreFor(parts, request, grant, true);
        if (score instanceof ServiceError) return score;
        if (now) await parts.scores.deleteScore(score.id);
        else await parts.scores.updateScore({ ...score, trashedAt: parts.now() });
        return { status: 204 };
      }),
    },
    {
      method: 'POST',
      path: '/v2/scores/:score/untrash',
      handle: withGrant(WRITE, async (request, grant) => {
        const score = await parts.scores.getScore(request.params['score'] ?? '');
        if (score === undefined || score.ownerId !== grant.user.id) return notFound(request.params['score']);
        if (score.trashedAt !== null) await parts.scores.updateScore({ ...score, trashedAt: null });
        return { status: 204 };
      }),
    },
    {
      method: 'GET',
      path: '/v2/scores/:score/revisions',
      handle: withGrant(READ, async (request, grant) => {
        const score = await scoreFor(parts, request, grant, false);
        if (score instanceof ServiceError) return score;
        return jsonResponse(200, (await parts.scores.listRevisions(score.id)).map(revisionJson));
      }),
    },
    {
      method: 'POST',
      path: '/v2/scores/:score/revisions',
      handle: withGrant(WRITE, async (request, grant) => {
        const score = await scoreFor(parts, request, grant, true);
        if (score instanceof ServiceError) return score;
        const body = jsonObjectBody(request);
        if (body instanceof ServiceError) return body;
        const file = notationOf(body);
        if (file instanceof ServiceError) return file;
        const description = body['description'];
        if (description !== undefined && typeof description !== 'string') return new ServiceError('SC_BAD_REQUEST', 'description must be a string', { param: 'description' });
        const autosave = body['autosave'];
        if (autosave !== undefined && typeof autosave !== 'boolean') return new ServiceError('SC_BAD_REQUEST', 'autosave must be a boolean', { param: 'autosave' });
        const now = parts.now();
        const revision: Revision = { id: newId(), scoreId: score.id, userId: grant.user.id, creationDate: now, description: description ?? '', autosave: autosave ?? false };
        await parts.scores.addRevision(revision, file.xml, { ...score, numberMeasures: file.numberMeasures, modificationDate: now });
        return jsonResponse(200, revisionJson(revision));
      }),
    },
    {
      method: 'GET',
      path: '/v2/scores/:score/revisions/:revision',
      handle: withGrant(READ, async (request, grant) => {
        const score = await scoreFor(parts, request, grant, false);
        if (score instanceof ServiceError) return score;
        const revision = await revisionFor(parts, score, request);
        return revision instanceof ServiceError ? revision : jsonResponse(200, revisionJson(revision));
      }),
    },
    {
      method: 'GET',
      path: '/v2/scores/:score/revisions/:revision/:format',
      handle: withGrant(READ, async (request, grant) => {
        const format = request.params['format'] ?? '';
        if (!(FORMATS as readonly string[]).includes(format)) return new ServiceError('SC_BAD_REQUEST', `format must be one of ${FORMATS.join(', ')}`, { param: 'format' });
        const score = await scoreFor(parts, request, grant, false);
        if (score instanceof ServiceError) return score;
        const revision = await revisionFor(parts, score, request);
        if (revision instanceof ServiceError) return revision;
        const xml = await parts.scores.revisionMusicXml(revision.id);
        if (xml === undefined) throw new Error(`revision ${revision.id} has no MusicXML`);
        if (format === 'xml') return { status: 200, headers: [['Content-Type', 'application/vnd.recordare.musicxml+xml']], body: xml };
        if (format === 'mxl') return { status: 200, headers: [['Content-Type', 'application/vnd.recordare.musicxml']], body: mxlOf(xml) };
        return new ServiceError('SC_EXPORT_UNAVAILABLE', `the ${format} export is not produced by this service yet; xml and mxl are`, { param: 'format' });
      }),
    },
  ];
}
