import { ServiceError, unwrap } from '../../errors/index.js';
import { operationRoutes, type ApiOutcome, type ApiRequest, type ApiRoute } from '../../transports/http/handoff/index.js';
import type { Grant } from '../accounts/user.js';
import { CONTENT_TYPES, EXPORT_FORMATS, isExportFormat, PAGE_FORMATS, type ExportFormat, type ExportSource, type ScoreExporter } from '../exports/index.js';
import type { Revision, Score } from '../library/score.js';
import type { ScoreStore } from '../library/score-store.js';
import type { ScoreApiParts } from './api-parts.js';
import { grantedRoutes, READ, revisionFor, scoreFor, scoreNotFound } from './access.js';
import { choiceQuery, exportChoice, sourceWithParts, type ExportChoice } from './export-options.js';
import { booleanParam } from './query-params.js';
import { jsonResponse } from './responses.js';

export type ExportRoutesParts = Pick<ScoreApiParts, 'accounts' | 'scores' | 'classShares' | 'exporter' | 'signer' | 'absoluteUrl' | 'now'>;

/** A revision as the exporter reads it: its MusicXML is fetched only when a file must be produced. */
export function exportSource(scores: ScoreStore, score: Score, revision: Revision): ExportSource {
  return {
    scoreId: score.id,
    revisionId: revision.id,
    ownerId: score.ownerId,
    title: score.title,
    musicXml: async () => {
      const xml = await scores.revisionMusicXml(revision.id);
      if (xml === undefined) throw new Error(`revision ${revision.id} has no MusicXML`);
      return xml;
    },
  };
}

/**
 * The file of an export of the chosen parts and page, produced if needed, streamed to the client
 * from disk; producing failures in the API's error form. The page formats say how many pages
 * there are in `X-Page-Count`.
 */
async function exportFile(exporter: ScoreExporter, whole: ExportSource, format: ExportFormat, choice: ExportChoice): Promise<ApiOutcome> {
  const source = unwrap(await sourceWithParts(whole, format, choice));
  const body = unwrap(await exporter.exportFile(source, format, choice.pages));
  const headers: Array<[string, string]> = [['Content-Type', CONTENT_TYPES[format]]];
  if (PAGE_FORMATS.has(format)) headers.push(['X-Page-Count', String(await exporter.pageCount(source))]);
  return { status: 200, headers, body };
}

/** Where a signed link to this export points (served by getExportFile below). */
export function exportFilePath(scoreId: string, revisionId: string, format: ExportFormat): string {
  return `/v2/files/scores/${scoreId}/revisions/${revisionId}/${encodeURIComponent(format)}`;
}

/** What a link signs: the file's path and the parameters choosing its parts and page, which the link carries too. */
function signedSubject(scoreId: string, revisionId: string, format: ExportFormat, query: URLSearchParams): { path: string; subject: string; choice: string } {
  const path = exportFilePath(scoreId, revisionId, format);
  const choice = choiceQuery(query);
  return { path, subject: choice === '' ? path : `${path}?${choice}`, choice };
}

/** A signed link to the export with the request's parts and page choice. */
function signedLink(parts: ExportRoutesParts, scoreId: string, revisionId: string, format: ExportFormat, query: URLSearchParams): string {
  const { path, subject, choice } = signedSubject(scoreId, revisionId, format, query);
  const signature = parts.signer.sign(subject).slice(subject.length + 1);
  return `${path}?${signature}${choice === '' ? '' : `&${choice}`}`;
}

/**
 * `GET /v2/scores/{score}/revisions/{revision}/{format}` (getScoreRevisionData) for every
 * 2.13.0 format, with `onlyCached` and `url`, and the signed, expiring file URLs `url=true`
 * answers with, which need no token.
 */
export function exportRoutes(parts: ExportRoutesParts): ApiRoute[] {
  return [
    grantedRoutes(parts)('GET', '/v2/scores/:score/revisions/:revision/:format', READ, getScoreRevisionData),
    operationRoutes(parts)('GET', '/v2/files/scores/:score/revisions/:revision/:format', getExportFile),
  ];
}

async function getScoreRevisionData(parts: ExportRoutesParts, request: ApiRequest, grant: Grant): Promise<ApiOutcome> {
  const format = request.params['format'] ?? '';
  if (!isExportFormat(format)) return new ServiceError('SC_BAD_REQUEST', `format must be one of ${EXPORT_FORMATS.join(', ')}`, { param: 'format' });
  const onlyCached = unwrap(booleanParam(request.query, 'onlyCached', false));
  const asUrl = unwrap(booleanParam(request.query, 'url', false));
  const choice = unwrap(exportChoice(request.query));
  const score = unwrap(await scoreFor(parts, request, grant, 'read'));
  const revision = unwrap(await revisionFor(parts.scores, score, request));
  const source = exportSource(parts.scores, score, revision);
  if (onlyCached && format !== 'xml') {
    const { variant } = unwrap(await sourceWithParts(source, format, choice));
    if ((await parts.exporter.cached(revision.id, format, variant, choice.pages)) === undefined) {
      return new ServiceError('SC_EXPORT_NOT_CACHED', `the ${format} export of revision ${revision.id} has not been produced yet`, { param: 'onlyCached' });
    }
  }
  if (asUrl) return jsonResponse(200, { url: parts.absoluteUrl(request, signedLink(parts, score.id, revision.id, format, request.query)) });
  return exportFile(parts.exporter, source, format, choice);
}

/** An export through the signed link getScoreRevisionData gave: no token, the signature is the grant. */
async function getExportFile(parts: ExportRoutesParts, request: ApiRequest): Promise<ApiOutcome> {
  const format = request.params['format'] ?? '';
  const scoreId = request.params['score'] ?? '';
  const revisionId = request.params['revision'] ?? '';
  const check = isExportFormat(format) ? parts.signer.check(signedSubject(scoreId, revisionId, format, request.query).subject, request.query) : 'invalid';
  if (check !== 'valid') return new ServiceError('SC_FILE_LINK_INVALID', check === 'expired' ? 'this link has expired; ask the API for a new one' : 'this link is not one the service signed');
  const score = await parts.scores.getScore(scoreId);
  if (score === undefined || score.trashedAt !== null) return scoreNotFound(scoreId);
  const revision = await parts.scores.getRevision(score.id, revisionId);
  if (revision === undefined) return new ServiceError('SC_REVISION_NOT_FOUND', `score ${score.id} has no revision ${JSON.stringify(revisionId)}`, { param: 'revision' });
  return exportFile(parts.exporter, exportSource(parts.scores, score, revision), format as ExportFormat, unwrap(exportChoice(request.query)));
}
