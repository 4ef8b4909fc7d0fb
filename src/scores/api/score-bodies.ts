import { attempt, type ServiceError, unwrap } from '../../errors/index.js';
import { bad, oneOf, optionalString } from './body-fields.js';
import { CREATION_TYPES, LICENSES, SCORE_PRIVACIES, type Score, type ScorePrivacy } from '../library/score.js';

/**
 * The notation a ScoreCreation or ScoreRevisionCreation carries: `data` as MusicXML text, or
 * base64 (`dataEncoding: "base64"`, for a compressed .mxl).
 */
export function scoreData(body: Record<string, unknown>): Uint8Array | ServiceError {
  const data = body['data'];
  if (typeof data !== 'string' || data === '') return bad('data', 'data is required: the MusicXML of the score (base64 with dataEncoding "base64" for .mxl)');
  const encoding = body['dataEncoding'];
  if (encoding === undefined || encoding === null) return new TextEncoder().encode(data);
  if (encoding !== 'base64') return bad('dataEncoding', 'dataEncoding must be base64 when given');
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(data.replace(/\s+/g, ''))) return bad('data', 'data is not valid base64');
  return Buffer.from(data, 'base64');
}

export interface ScoreCreationFields {
  title: string | undefined;
  filename: string | undefined;
  privacy: ScorePrivacy;
}

/** ScoreCreation's fields besides the data: `privacy` is required. */
export function scoreCreation(body: Record<string, unknown>): ScoreCreationFields | ServiceError {
  return attempt(() => {
    const privacy = unwrap(oneOf(body, 'privacy', SCORE_PRIVACIES));
    if (privacy === undefined) return bad('privacy', `privacy is required: one of ${SCORE_PRIVACIES.join(', ')}`);
    const title = unwrap(optionalString(body, 'title', 255));
    const filename = unwrap(optionalString(body, 'filename', 255));
    return { title, filename, privacy };
  });
}

const TAG = /^[a-zA-Z0-9]{1,30}$/;
const SHARING_KEY = /^[a-f0-9]{128}$/;

/** ScoreModification applied to `score`: every field optional, each checked as the definition says. */
export function modifiedScore(score: Score, body: Record<string, unknown>): Score | ServiceError {
  return attempt(() => {
    const next: Score = { ...score };
    for (const name of ['title', 'subtitle', 'composer', 'lyricist', 'arranger', 'licenseText'] as const) {
      const value = unwrap(optionalString(body, name, 255));
      if (value !== undefined) next[name] = value;
    }
    const description = unwrap(optionalString(body, 'description', 2000));
    if (description !== undefined) next.description = description;
    const privacy = unwrap(oneOf(body, 'privacy', SCORE_PRIVACIES));
    if (privacy !== undefined) next.privacy = privacy;
    const creationType = unwrap(oneOf(body, 'creationType', CREATION_TYPES));
    if (creationType !== undefined) next.creationType = creationType;
    const license = unwrap(oneOf(body, 'license', LICENSES));
    if (license !== undefined) next.license = license;
    const sharingKey = unwrap(optionalString(body, 'sharingKey', 128));
    if (sharingKey !== undefined) {
      if (!SHARING_KEY.test(sharingKey)) return bad('sharingKey', 'sharingKey must be 128 lower-case hex digits');
      next.sharingKey = sharingKey;
    }
    const tags = body['tags'];
    if (tags !== undefined && tags !== null) {
      if (!Array.isArray(tags) || !tags.every((tag) => typeof tag === 'string' && TAG.test(tag))) return bad('tags', 'tags must be a list of 1-30 letters or digits each');
      next.tags = tags as string[];
    }
    return next;
  });
}
