import { ServiceError, unwrap } from '../../errors/index.js';
import { operationRoutes, type ApiOutcome, type ApiRequest, type ApiRoute } from '../../transports/http/handoff/index.js';
import type { Grant } from '../accounts/user.js';
import { CONTENT_TYPES, EXPORT_FORMATS, isExportFormat, type ExportFormat, type ExportSource, type ScoreExporter } from '../exports/index.js';
import type { Revision, Score } from '../library/score.js';
import type { ScoreStore } from '../library/score-store.js';
import type { ScoreApiParts } from './api-parts.js';
import { grantedRoutes, READ, revisionFor, scoreFor, scoreNotFound } from './access.js';
import { booleanParam } from './query-params.js';
import { jsonResponse } from './responses.js';

export type ExportRoutesParts = Pick<ScoreApiParts, 'accounts' | 'scores' | 'classShares' | 'exporter' | 'signer' | 'absoluteUrl' | 'now'>;

/** A revision as the exporter reads it: its MusicXML is fetched only when a file must be produced. */
export function exportSource(scores: ScoreStore, score: Score, revision: Revision): ExportSource {
  return {
    scoreId: score.id,
    revisionId: revision.id,
    ownerId: score.ownerId,
    musicXml: async () => {
      const xml = await scores.revisionMusicXml(revision.id);
      if (xml === undefined) throw new Error(`revision ${revision.id} has no MusicXML`);
      return xml;
    },
  };
}

/** The file of an export, produced if needed, streamed to the client from disk; producing failures in the API's error form. */
async function exportFile(exporter: ScoreExporter, source: ExportSource, format: ExportFormat): Promise<ApiOutcome> {
  const body = await exporter.exportFile(source, format);
  return body instanceof ServiceError ? body : { status: 200, headers: [['Content-Type', CONTENT_TYPES[format]]], body };
}

/** Where a signed link to this export points (served by getExportFile below). */
export function exportFilePath(scoreId: string, revisionId: string, format: ExportFormat): string {
  return `/v2/files/scores/${scoreId}/revisions/${revisionId}/${encodeURIComponent(format)}`;
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
  const score = unwrap(await scoreFor(parts, request, grant, 'read'));
  const revision = unwrap(await revisionFor(parts.scores, score, request));
  if (onlyCached && format !== 'xml' && (await parts.exporter.cached(revision.id, format)) === undefined) {
    return new ServiceError('SC_EXPORT_NOT_CACHED', `the ${format} export of revision ${revision.id} has not been produced yet`, { param: 'onlyCached' });
  }
  if (asUrl) return jsonResponse(200, { url: parts.absoluteUrl(request, parts.signer.sign(exportFilePath(score.id, revision.id, format))) });
  return exportFile(parts.exporter, exportSource(parts.scores, score, revision), format);
}

/** An export through the signed link getScoreRevisionData gave: no token, the signature is the grant. */
async function getExportFile(parts: ExportRoutesParts, request: ApiRequest): Promise<ApiOutcome> {
  const format = request.params['format'] ?? '';
  const scoreId = request.params['score'] ?? '';
  const revisionId = request.params['revision'] ?? '';
  const check = isExportFormat(format) ? parts.signer.check(exportFilePath(scoreId, revisionId, format), request.query) : 'invalid';
  if (check !== 'valid') return new ServiceError('SC_FILE_LINK_INVALID', check === 'expired' ? 'this link has expired; ask the API for a new one' : 'this link is not one the service signed');
  const score = await parts.scores.getScore(scoreId);
  if (score === undefined || score.trashedAt !== null) return scoreNotFound(scoreId);
  const revision = await parts.scores.getRevision(score.id, revisionId);
  if (revision === undefined) return new ServiceError('SC_REVISION_NOT_FOUND', `score ${score.id} has no revision ${JSON.stringify(revisionId)}`, { param: 'revision' });
  return exportFile(parts.exporter, exportSource(parts.scores, score, revision), format as ExportFormat);
}
