import { attempt, type ServiceError, unwrap } from '../../errors/index.js';
import { bad } from './body-fields.js';
import { TRACK_STATES, type TrackPoint, type TrackState, type TrackType } from '../library/track.js';

/** The fields of ScoreTrackCreation and ScoreTrackUpdate, each undefined when absent. */
export interface TrackFields {
  title: string | undefined;
  isDefault: boolean | undefined;
  state: TrackState | undefined;
  url: string | undefined;
  synchronizationPoints: TrackPoint[] | undefined;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function points(value: unknown): TrackPoint[] | ServiceError {
  const param = 'synchronizationPoints';
  if (!Array.isArray(value)) return bad(param, 'synchronizationPoints must be an array of {type, time, measureUuid?}');
  const result: TrackPoint[] = [];
  for (const [i, item] of value.entries()) {
    const where = `synchronizationPoints[${i}]`;
    if (item === null || typeof item !== 'object') return bad(param, `${where} must be an object`);
    const { type, time, measureUuid } = item as Record<string, unknown>;
    if (type !== 'measure' && type !== 'end') return bad(param, `${where}.type must be measure or end`);
    if (typeof time !== 'number' || !Number.isFinite(time) || time < 0) return bad(param, `${where}.time must be a number of seconds, 0 or more`);
    if (measureUuid !== undefined && (typeof measureUuid !== 'string' || !UUID.test(measureUuid))) return bad(param, `${where}.measureUuid must be a UUID`);
    const previous = result[result.length - 1];
    if (previous !== undefined && time < previous.time) return bad(param, `${where}.time is before the point ahead of it`);
    result.push(typeof measureUuid === 'string' ? { type, measureUuid, time } : { type, time });
  }
  return result;
}

/**
 * Track fields from a JSON body, or from the text fields of a multipart form (where `default`
 * is `true`/`false` and `synchronizationPoints` is JSON text). `url` only when `withUrl`
 * (creation; an update cannot move a track).
 */
export function trackFields(body: Record<string, unknown>, withUrl: boolean): TrackFields | ServiceError {
  return attempt(() => {
    const fields: TrackFields = { title: undefined, isDefault: undefined, state: undefined, url: undefined, synchronizationPoints: undefined };
    const { title, state, url } = body;
    let isDefault = body['default'];
    let sync = body['synchronizationPoints'];
    if (title !== undefined) {
      if (typeof title !== 'string' || title.length > 255) return bad('title', 'title must be a string of at most 255 characters');
      fields.title = title;
    }
    if (typeof isDefault === 'string') isDefault = isDefault === 'true' ? true : isDefault === 'false' ? false : isDefault;
    if (isDefault !== undefined) {
      if (typeof isDefault !== 'boolean') return bad('default', 'default must be a boolean');
      fields.isDefault = isDefault;
    }
    if (state !== undefined) {
      if (typeof state !== 'string' || !(TRACK_STATES as readonly string[]).includes(state)) return bad('state', `state must be one of ${TRACK_STATES.join(', ')}`);
      fields.state = state as TrackState;
    }
    if (withUrl && url !== undefined) {
      if (typeof url !== 'string') return bad('url', 'url must be a string');
      fields.url = url;
    } else if (!withUrl && url !== undefined) {
      return bad('url', 'the url of a track cannot be changed; create a new track');
    }
    if (typeof sync === 'string') {
      try {
        sync = JSON.parse(sync) as unknown;
      } catch {
        return bad('synchronizationPoints', 'synchronizationPoints must be JSON');
      }
    }
    if (sync !== undefined) fields.synchronizationPoints = unwrap(points(sync));
    return fields;
  });
}

/** What a track URL is: YouTube, Vimeo and SoundCloud pages by their media id, anything else over HTTP(S) as audio. */
export function mediaOf(url: string): { type: TrackType; mediaId: string | null } | ServiceError {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return bad('url', `url is not an absolute URL: ${JSON.stringify(url)}`);
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') return bad('url', 'url must be http or https');
  const host = parsed.hostname.replace(/^(www|m|music)\./, '');
  const segments = parsed.pathname.split('/').filter((s) => s !== '');
  if (host === 'youtube.com') {
    const id = parsed.searchParams.get('v') ?? (segments[0] === 'embed' || segments[0] === 'shorts' ? segments[1] : undefined);
    return id === undefined || id === '' ? bad('url', 'a YouTube url needs a video id (watch?v=…)') : { type: 'youtube', mediaId: id };
  }
  if (host === 'youtu.be') return segments[0] === undefined ? bad('url', 'a youtu.be url needs a video id') : { type: 'youtube', mediaId: segments[0] };
  if (host === 'vimeo.com' || host === 'player.vimeo.com') {
    const id = segments.find((segment) => /^\d+$/.test(segment));
    return id === undefined ? bad('url', 'a Vimeo url needs a video number') : { type: 'vimeo', mediaId: id };
  }
  if (host === 'soundcloud.com') return segments.length < 2 ? bad('url', 'a SoundCloud url names a user and a track') : { type: 'soundcloud', mediaId: segments.slice(0, 2).join('/') };
  return { type: 'audio', mediaId: null };
}
