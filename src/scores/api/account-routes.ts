import { ServiceError, unwrap } from '../../errors/index.js';
import { mediaTypeOf, parseMultipartBody } from '../../transports/http/index.js';
import type { ApiOutcome, ApiRequest, ApiRoute } from '../../transports/http/handoff/index.js';
import type { Scope } from '../accounts/scopes.js';
import { newId } from '../accounts/tokens.js';
import type { Grant, PictureKind, User } from '../accounts/user.js';
import { imageType } from '../files/media-types.js';
import type { ScoreApiParts } from './api-parts.js';
import { grantedRoutes, type Operation } from './access.js';
import { booleanParam } from './query-params.js';
import { uploadPath } from '../files/uploads.js';
import { quotaExceeded } from './quota-errors.js';
import { jsonResponse } from './responses.js';
import { userDetailsJson, type PictureUrls } from './user-views.js';

export type AccountRoutesParts = Pick<ScoreApiParts, 'accounts' | 'uploads' | 'absoluteUrl' | 'maxUploadBytes' | 'now' | 'quota'>;

const PROFILE: readonly Scope[] = ['account.public_profile', 'account.education_profile'];

/** The absolute URLs of a user's pictures, as `picture`/`coverPicture` show them. */
export function pictureUrls(parts: Pick<AccountRoutesParts, 'absoluteUrl'>, request: ApiRequest, user: User): PictureUrls {
  const url = (file: string | null) => (file === null ? null : parts.absoluteUrl(request, uploadPath(file)));
  return { picture: url(user.pictureFile), coverPicture: url(user.coverPictureFile) };
}

/** The image a picture upload carries: the body itself (Content-Type image/…), or the `file` of a multipart form. */
async function uploadedImage(request: ApiRequest, maxBytes: number): Promise<{ bytes: Uint8Array; type: string } | ServiceError> {
  const contentType = request.headers.get('content-type') ?? '';
  let bytes = request.body;
  if (mediaTypeOf(contentType) === 'multipart/form-data') {
    const parsed = await parseMultipartBody(contentType, request.body, { maxFileBytes: maxBytes, maxFiles: 1, maxFields: 10 });
    if (!parsed.ok) return new ServiceError('SC_BAD_REQUEST', `the form cannot be read: ${parsed.reason}`, { param: 'file' });
    const file = parsed.form.files.find((f) => f.field === 'file');
    if (file === undefined) return new ServiceError('SC_BAD_REQUEST', 'the form has no file field', { param: 'file' });
    bytes = file.data;
  }
  const type = imageType(bytes);
  if (type === undefined) return new ServiceError('SC_BAD_REQUEST', 'the picture must be a PNG, JPEG, GIF or WebP image', { param: 'file' });
  return { bytes, type };
}

/** An upload that becomes the user's picture of that kind, dropping the one it replaces. */
function pictureUpload(kind: PictureKind): Operation<AccountRoutesParts> {
  return async (parts, request, grant) => {
    const image = unwrap(await uploadedImage(request, parts.maxUploadBytes));
    const id = newId();
    const refused = await parts.uploads.save({ id, ownerId: grant.user.id, purpose: kind, contentType: image.type, size: image.bytes.byteLength, creationDate: parts.now() }, image.bytes, parts.quota);
    if (refused !== undefined) return quotaExceeded(refused, 'file');
    const previous = kind === 'picture' ? grant.user.pictureFile : grant.user.coverPictureFile;
    const user = await parts.accounts.setPicture(grant.user.id, kind, id);
    if (previous !== null) await parts.uploads.remove([previous]);
    return jsonResponse(200, userDetailsJson(user, pictureUrls(parts, request, user)));
  };
}

const updatePicture = pictureUpload('picture');
const updateCoverPicture = pictureUpload('coverPicture');

/**
 * `GET /v2/me` (getAuthenticatedUser; `onlyId=true` answers `{id}` alone) and the uploads that
 * set `picture`/`pictureFile` and `coverPicture`/`coverPictureFile`: `PUT /v2/me/picture` and
 * `PUT /v2/me/coverPicture`.
 */
export function accountRoutes(parts: AccountRoutesParts): ApiRoute[] {
  const route = grantedRoutes(parts);
  return [
    route('GET', '/v2/me', PROFILE, getAuthenticatedUser),
    route('PUT', '/v2/me/picture', PROFILE, updatePicture),
    route('PUT', '/v2/me/coverPicture', PROFILE, updateCoverPicture),
  ];
}

async function getAuthenticatedUser(parts: AccountRoutesParts, request: ApiRequest, grant: Grant): Promise<ApiOutcome> {
  const onlyId = unwrap(booleanParam(request.query, 'onlyId', false));
  return jsonResponse(200, onlyId ? { id: grant.user.id } : userDetailsJson(grant.user, pictureUrls(parts, request, grant.user)));
}
