import { attempt, ServiceError, unwrap } from '../../errors/index.js';
import { mediaTypeOf, parseMultipartBody } from '../../transports/http/index.js';
import type { ApiOutcome, ApiRequest, ApiRoute } from '../../transports/http/handoff/index.js';
import { newId } from '../accounts/tokens.js';
import type { Grant } from '../accounts/user.js';
import { audioType } from '../files/media-types.js';
import { uploadPath } from '../files/uploads.js';
import type { Score } from '../library/score.js';
import type { Track, TrackPoint } from '../library/track.js';
import type { ScoreApiParts } from './api-parts.js';
import { grantedRoutes, READ, WRITE, scoreAccess, scoreFor } from './access.js';
import { exportFilePath, exportSource } from './export-routes.js';
import { booleanParam } from './query-params.js';
import { quotaExceeded } from './quota-errors.js';
import { jsonResponse } from './responses.js';
import { jsonObjectBody } from './body-fields.js';
import { mediaOf, trackFields, type TrackFields } from './track-bodies.js';
import { trackJson } from './track-views.js';

export interface TrackRoutesParts extends Pick<ScoreApiParts, 'accounts' | 'scores' | 'classShares' | 'tracks' | 'uploads' | 'exporter' | 'signer' | 'absoluteUrl' | 'maxUploadBytes' | 'now' | 'quota'> {
  /** Ids of the tracks an assignment's submissions hold. */
  assignmentTracks(assignmentId: string): Promise<ReadonlySet<string>>;
}

function trackNotFound(scoreId: string, trackId: string | undefined): ServiceError {
  return new ServiceError('SC_TRACK_NOT_FOUND', `score ${scoreId} has no track ${JSON.stringify(trackId ?? '')}`, { param: 'track' });
}

function defaultForOwnerOnly(): ServiceError {
  return new ServiceError('SC_FORBIDDEN', "only the score's owner chooses its default track");
}

/** The fields of a creation, from JSON or from a multipart form carrying the recording as `file`. */
function creation(request: ApiRequest, maxUploadBytes: number): Promise<{ fields: TrackFields; audio: { bytes: Uint8Array; type: string } | undefined } | ServiceError> {
  return attempt(async () => {
    const contentType = request.headers.get('content-type') ?? '';
    if (mediaTypeOf(contentType) !== 'multipart/form-data') return { fields: unwrap(trackFields(unwrap(jsonObjectBody(request)), true)), audio: undefined };
    const parsed = await parseMultipartBody(contentType, request.body, { maxFileBytes: maxUploadBytes, maxFiles: 1, maxFields: 20 });
    if (!parsed.ok) return new ServiceError('SC_BAD_REQUEST', `the form cannot be read: ${parsed.reason}`, { param: 'file' });
    const form: Record<string, unknown> = {};
    for (const [name, values] of parsed.form.fields) form[name] = values[values.length - 1];
    const fields = unwrap(trackFields(form, true));
    const file = parsed.form.files.find((f) => f.field === 'file');
    if (file === undefined) return { fields, audio: undefined };
    const type = audioType(file.data);
    if (type === undefined) return new ServiceError('SC_BAD_REQUEST', 'file is not audio this service knows (MP3, WAV, Ogg, FLAC or MP4/AAC)', { param: 'file' });
    return { fields, audio: { bytes: file.data, type } };
  });
}

/** A track as the API shows it, its recording behind a signed link. */
function trackView(parts: TrackRoutesParts, request: ApiRequest, track: Track): Record<string, unknown> {
  return trackJson(track, track.audioFile === null ? undefined : parts.absoluteUrl(request, parts.signer.sign(uploadPath(track.audioFile))));
}

/** The automatic track: the newest revision's MP3 with its synchronization points, once that MP3 exists. */
async function autoTrack(parts: TrackRoutesParts, request: ApiRequest, score: Score): Promise<Record<string, unknown> | undefined> {
  const revision = await parts.scores.getRevision(score.id, 'last');
  if (revision === undefined || (await parts.exporter.cached(revision.id, 'mp3')) === undefined) return undefined;
  const points = JSON.parse(Buffer.from(await parts.exporter.export(exportSource(parts.scores, score, revision), 'synchronizationPoints')).toString('utf8')) as TrackPoint[];
  const path = parts.signer.sign(exportFilePath(score.id, revision.id, 'mp3'));
  const iso = new Date(revision.creationDate).toISOString();
  return { id: `auto-${revision.id}`, title: 'Automatic playback', score: score.id, creator: score.ownerId, creationDate: iso, modificationDate: iso, default: false, state: 'completed', type: 'audio', url: parts.absoluteUrl(request, path), mediaId: revision.id, synchronizationPoints: points };
}

/** The track a request names; changing it is for the score's writers (its owner, collaborators with aclWrite) and the track's creator (a student's recording). */
function trackOf(parts: TrackRoutesParts, request: ApiRequest, grant: Grant, write: boolean): Promise<{ score: Score; track: Track } | ServiceError> {
  return attempt(async () => {
    const { score, rights } = unwrap(await scoreAccess(parts, request, grant, 'read'));
    const track = await parts.tracks.getTrack(score.id, request.params['track'] ?? '');
    if (track === undefined) return trackNotFound(score.id, request.params['track']);
    if (write && !rights.aclWrite && track.creatorId !== grant.user.id) return new ServiceError('SC_FORBIDDEN', 'Not granted to modify this track');
    return { score, track };
  });
}

/**
 * Tracks of a score, added by its owner or by the students of a performance assignment attaching
 * it (listScoreTracks with `listAutoTrack` and `assignment`, addScoreTrack from a
 * URL or an uploaded recording, getScoreTrack, updateScoreTrack, deleteScoreTrack).
 */
export function trackRoutes(parts: TrackRoutesParts): ApiRoute[] {
  const route = grantedRoutes(parts);
  return [
    route('GET', '/v2/scores/:score/tracks', READ, listScoreTracks),
    route('POST', '/v2/scores/:score/tracks', WRITE, addScoreTrack),
    route('GET', '/v2/scores/:score/tracks/:track', READ, getScoreTrack),
    route('PUT', '/v2/scores/:score/tracks/:track', WRITE, updateScoreTrack),
    route('DELETE', '/v2/scores/:score/tracks/:track', WRITE, deleteScoreTrack),
  ];
}

async function listScoreTracks(parts: TrackRoutesParts, request: ApiRequest, grant: Grant): Promise<ApiOutcome> {
  const listAuto = unwrap(booleanParam(request.query, 'listAutoTrack', false));
  const score = unwrap(await scoreFor(parts, request, grant, 'read'));
  let tracks = await parts.tracks.listTracks(score.id);
  const assignment = request.query.get('assignment');
  if (assignment !== null) {
    const linked = await parts.assignmentTracks(assignment);
    tracks = tracks.filter((track) => linked.has(track.id));
  }
  const listed: Array<Record<string, unknown>> = tracks.map((track) => trackView(parts, request, track));
  const auto = listAuto && assignment === null ? await autoTrack(parts, request, score) : undefined;
  if (auto !== undefined) listed.push(auto);
  return jsonResponse(200, listed);
}

async function addScoreTrack(parts: TrackRoutesParts, request: ApiRequest, grant: Grant): Promise<ApiOutcome> {
  const score = unwrap(await scoreFor(parts, request, grant, 'record'));
  const { fields, audio } = unwrap(await creation(request, parts.maxUploadBytes));
  if (fields.isDefault === true && score.ownerId !== grant.user.id) return defaultForOwnerOnly();
  if ((fields.url === undefined) === (audio === undefined)) {
    return new ServiceError('SC_BAD_REQUEST', 'a track needs either url (YouTube, Vimeo, SoundCloud or an audio file) or an uploaded file (multipart field "file"), not both', { param: 'url' });
  }
  const media = fields.url === undefined ? { type: 'audio' as const, mediaId: null } : unwrap(mediaOf(fields.url));
  const now = parts.now();
  const audioFile = audio === undefined ? null : newId();
  if (audio !== undefined && audioFile !== null) {
    const refused = await parts.uploads.save({ id: audioFile, ownerId: grant.user.id, purpose: 'trackAudio', contentType: audio.type, size: audio.bytes.byteLength, creationDate: now }, audio.bytes, parts.quota);
    if (refused !== undefined) return quotaExceeded(refused, 'file');
  }
  const track: Track = {
    id: newId(),
    scoreId: score.id,
    creatorId: grant.user.id,
    title: fields.title ?? '',
    isDefault: fields.isDefault ?? false,
    state: fields.state ?? 'draft',
    type: media.type,
    url: fields.url ?? null,
    mediaId: media.mediaId,
    audioFile,
    synchronizationPoints: fields.synchronizationPoints ?? [],
    creationDate: now,
    modificationDate: now,
  };
  await parts.tracks.saveTrack(track);
  return jsonResponse(200, trackView(parts, request, track));
}

async function getScoreTrack(parts: TrackRoutesParts, request: ApiRequest, grant: Grant): Promise<ApiOutcome> {
  const { track } = unwrap(await trackOf(parts, request, grant, false));
  return jsonResponse(200, trackView(parts, request, track));
}

async function updateScoreTrack(parts: TrackRoutesParts, request: ApiRequest, grant: Grant): Promise<ApiOutcome> {
  const { score, track } = unwrap(await trackOf(parts, request, grant, true));
  const fields = unwrap(trackFields(unwrap(jsonObjectBody(request)), false));
  if (fields.isDefault !== undefined && fields.isDefault !== track.isDefault && score.ownerId !== grant.user.id) return defaultForOwnerOnly();
  const next: Track = {
    ...track,
    title: fields.title ?? track.title,
    isDefault: fields.isDefault ?? track.isDefault,
    state: fields.state ?? track.state,
    synchronizationPoints: fields.synchronizationPoints ?? track.synchronizationPoints,
    modificationDate: parts.now(),
  };
  await parts.tracks.saveTrack(next);
  return jsonResponse(200, trackView(parts, request, next));
}

async function deleteScoreTrack(parts: TrackRoutesParts, request: ApiRequest, grant: Grant): Promise<ApiOutcome> {
  const { score, track } = unwrap(await trackOf(parts, request, grant, true));
  await parts.tracks.deleteTrack(score.id, track.id);
  if (track.audioFile !== null) await parts.uploads.remove([track.audioFile]);
  return { status: 204 };
}
