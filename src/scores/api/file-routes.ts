import { ServiceError } from '../../errors/index.js';
import { operationRoutes, type ApiOutcome, type ApiRequest, type ApiRoute } from '../../transports/http/handoff/index.js';
import { uploadPath } from '../files/uploads.js';
import type { ScoreApiParts } from './api-parts.js';

export type FileRoutesParts = Pick<ScoreApiParts, 'uploads' | 'signer'>;

/**
 * Uploaded files, fetched without a token as a browser or player fetches a URL: profile pictures
 * are public (their ids are random and long, as profile pictures on a CDN are); a track's audio
 * needs the signed link its track shows.
 */
export function fileRoutes(parts: FileRoutesParts): ApiRoute[] {
  return [operationRoutes(parts)('GET', '/v2/files/uploads/:file', getUploadedFile)];
}

async function getUploadedFile(parts: FileRoutesParts, request: ApiRequest): Promise<ApiOutcome> {
  const id = request.params['file'] ?? '';
  const upload = await parts.uploads.describe(id);
  if (upload === undefined) return new ServiceError('SC_FILE_NOT_FOUND', `no file ${JSON.stringify(id)}`, { param: 'file' });
  if (upload.purpose === 'trackAudio') {
    const check = parts.signer.check(uploadPath(id), request.query);
    if (check !== 'valid') return new ServiceError('SC_FILE_LINK_INVALID', check === 'expired' ? 'this link has expired; get the track again for a new one' : 'this link is not one the service signed');
  }
  const bytes = await parts.uploads.read(id);
  if (bytes === undefined) return new ServiceError('SC_FILE_NOT_FOUND', `no file ${JSON.stringify(id)}`, { param: 'file' });
  return { status: 200, headers: [['Content-Type', upload.contentType]], body: bytes };
}
