import { ServiceError } from '../../errors/index.js';
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
  const privacy = oneOf(body, 'privacy', SCORE_PRIVACIES);
  if (privacy instanceof ServiceError) return privacy;
  if (privacy === undefined) return bad('privacy', `privacy is required: one of ${SCORE_PRIVACIES.join(', ')}`);
  const title = optionalString(body, 'title', 255);
  if (title instanceof ServiceError) return title;
  const filename = optionalString(body, 'filename', 255);
  if (filename instanceof ServiceError) return filename;
  return { title, filename, privacy };
}

const TAG = /^[a-zA-Z0-9]{1,30}$/;
const SHARING_KEY = /^[a-f0-9]{128}$/;

/** ScoreModification applied to `score`: every field optional, each checked as the definition says. */
export function modifiedScore(score: Score, body: Record<string, unknown>): Score | ServiceError {
  const next: Score = { ...score };
  for (const name of ['title', 'subtitle', 'composer', 'lyricist', 'arranger', 'licenseText'] as const) {
    const value = optionalString(body, name, 255);
    if (value instanceof ServiceError) return value;
    if (value !== undefined) next[name] = value;
  }
  const description = optionalString(body, 'description', 2000);
  if (description instanceof ServiceError) return description;
  if (description !== undefined) next.description = description;
  const privacy = oneOf(body, 'privacy', SCORE_PRIVACIES);
  if (privacy instanceof ServiceError) return privacy;
  if (privacy !== undefined) next.privacy = privacy;
  const creationType = oneOf(body, 'creationType', CREATION_TYPES);
  if (creationType instanceof ServiceError) return creationType;
  if (creationType !== undefined) next.creationType = creationType;
  const license = oneOf(body, 'license', LICENSES);
  if (license instanceof ServiceError) return license;
  if (license !== undefined) next.license = license;
  const sharingKey = optionalString(body, 'sharingKey', 128);
  if (sharingKey instanceof ServiceError) return sharingKey;
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
}
