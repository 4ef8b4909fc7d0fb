import { ServiceError } from '../../errors/index.js';
import { newMatcher } from '../matchers/index.js';
import type { Matcher, MatchType } from '../matchers/matcher.js';
import type { SilenceMatcher } from '../model.js';
import type { SilenceRequest } from '../silence-store.js';
import { parseTime, ZERO_TIME, type TimeValue } from '../time.js';
import { goJsonType } from './json-body.js';

const PARSE_PREFIX = 'parsing silence body from "" failed, because ';

function unmarshalError(message: string): ServiceError {
  return new ServiceError('AM_PARSE_ERROR', PARSE_PREFIX + message);
}

function typeOf(value: unknown, goType: string, field: string): ServiceError {
  return unmarshalError(`json: cannot unmarshal ${goJsonType(value)} into Go struct field PostableSilence.${field} of type ${goType}`);
}

const TYPE_OF: Readonly<Record<string, MatchType>> = { 'true,false': '=', 'false,false': '!=', 'true,true': '=~', 'false,true': '!~' };

/**
 * The body of POST /api/v2/silences as go-openapi checks it (unmarshal 400s, then the schema's
 * 422s in field order), then the handler's own checks (400 strings) for times and matchers, with
 * Alertmanager 0.34's messages, and the bound on one matcher's value (`maxMatcherBytes`, 0 for
 * none), checked before anything is compiled. Returns the request for the silence store.
 */
export function decodePostableSilence(body: unknown, now: number, maxMatcherBytes: number): SilenceRequest | ServiceError {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    return unmarshalError(`json: cannot unmarshal ${goJsonType(body)} into Go value of type models.PostableSilence`);
  }
  const raw = body as Record<string, unknown>;
  for (const field of ['comment', 'createdBy'] as const) {
    if (raw[field] !== undefined && raw[field] !== null && typeof raw[field] !== 'string') return typeOf(raw[field], 'string', field);
  }
  if (raw['id'] !== undefined && raw['id'] !== null && typeof raw['id'] !== 'string') return typeOf(raw['id'], 'string', 'id');
  const times: Partial<Record<'startsAt' | 'endsAt', TimeValue>> = {};
  for (const field of ['startsAt', 'endsAt'] as const) {
    const value = raw[field];
    if (value === undefined || value === null) continue;
    if (typeof value !== 'string') return typeOf(value, 'strfmt.DateTime', field);
    const parsed = parseTime(value);
    if (!parsed.ok) return unmarshalError(parsed.error);
    times[field] = parsed;
  }
  const matchersRaw = raw['matchers'];
  if (matchersRaw !== undefined && matchersRaw !== null && !Array.isArray(matchersRaw)) return typeOf(matchersRaw, 'models.Matchers', 'matchers');
  const items = (matchersRaw ?? []) as unknown[];
  for (const item of items) {
    if (item === null || typeof item !== 'object' || Array.isArray(item)) return typeOf(item, 'models.Matcher', 'matchers');
    const m = item as Record<string, unknown>;
    for (const field of ['isEqual', 'isRegex'] as const) {
      if (m[field] !== undefined && m[field] !== null && typeof m[field] !== 'boolean') return typeOf(m[field], 'bool', `matchers.${field}`);
    }
    for (const field of ['name', 'value'] as const) {
      if (m[field] !== undefined && m[field] !== null && typeof m[field] !== 'string') return typeOf(m[field], 'string', 'matchers');
    }
  }
  const annotationsRaw = raw['annotations'];
  const annotations: Record<string, string> = {};
  if (annotationsRaw !== undefined && annotationsRaw !== null) {
    if (typeof annotationsRaw !== 'object' || Array.isArray(annotationsRaw)) return typeOf(annotationsRaw, 'models.LabelSet', 'annotations');
    for (const [name, value] of Object.entries(annotationsRaw as Record<string, unknown>)) {
      if (typeof value !== 'string') return typeOf(value, 'string', 'annotations');
      annotations[name] = value;
    }
  }

  const schemaError = silenceSchemaError(raw, times);
  if (schemaError !== undefined) return schemaError;
  const matchers: SilenceMatcher[] = items.map((item) => {
    const m = item as { isEqual?: boolean | null; isRegex: boolean; name: string; value: string };
    return { name: m.name, type: TYPE_OF[`${m.isEqual ?? true},${m.isRegex}`] as MatchType, value: m.value };
  });

  const startsAt = times.startsAt?.ms ?? ZERO_TIME;
  const endsAt = times.endsAt?.ms ?? ZERO_TIME;
  if (!(startsAt < endsAt)) return new ServiceError('AM_BAD_REQUEST', 'Failed to create silence: start time must be before end time');
  if (endsAt < now) return new ServiceError('AM_BAD_REQUEST', "Failed to create silence: end time can't be in the past");
  const tooLong = oversizedMatcher(matchers, maxMatcherBytes);
  if (tooLong !== undefined) return new ServiceError('AM_BAD_REQUEST', `invalid silence: ${tooLong}`);
  const compiled = compileChecked(matchers);
  if (typeof compiled === 'string') return new ServiceError('AM_BAD_REQUEST', `invalid silence: ${compiled}`);
  const id = raw['id'];
  return {
    id: typeof id === 'string' && id !== '' ? id : undefined,
    matchers,
    compiled,
    // Go's zero start is replaced by now when the silence is stored.
    startsAt: Number.isFinite(startsAt) ? startsAt : now,
    endsAt,
    createdBy: raw['createdBy'] as string,
    comment: raw['comment'] as string,
    annotations,
  };
}

/**
 * The first schema error, in go-swagger's field order (comment, createdBy, endsAt, matchers,
 * startsAt), each field's checks together: required, then a time's date-time format, or the
 * matchers' count and then each matcher's required fields.
 */
function silenceSchemaError(raw: Record<string, unknown>, times: Partial<Record<'startsAt' | 'endsAt', TimeValue>>): ServiceError | undefined {
  for (const field of ['comment', 'createdBy', 'endsAt', 'matchers', 'startsAt'] as const) {
    if (raw[field] === undefined || raw[field] === null) return new ServiceError('AM_REQUIRED', `${field} in body is required`);
    if (field === 'endsAt' || field === 'startsAt') {
      const notDateTime = times[field]?.notDateTime;
      if (notDateTime !== undefined) return new ServiceError('AM_INVALID_TYPE', `${field} in body must be of type date-time: ${JSON.stringify(notDateTime)}`);
    }
    if (field === 'matchers') {
      const items = raw[field] as Array<Record<string, unknown>>;
      if (items.length === 0) return new ServiceError('AM_TOO_FEW_ITEMS', 'matchers in body should have at least 1 items');
      for (let i = 0; i < items.length; i++) {
        for (const name of ['isRegex', 'name', 'value'] as const) {
          if (items[i]?.[name] === undefined || items[i]?.[name] === null) return new ServiceError('AM_REQUIRED', `matchers.${i}.${name} in body is required`);
        }
      }
    }
  }
  return undefined;
}

/** The first matcher whose value is longer than ALERTMANAGER_MAX_SILENCE_MATCHER_BYTES, as a message. */
function oversizedMatcher(matchers: readonly SilenceMatcher[], maxBytes: number): string | undefined {
  if (maxBytes === 0) return undefined;
  for (let i = 0; i < matchers.length; i++) {
    const value = (matchers[i] as SilenceMatcher).value;
    // UTF-8 takes at most 3 bytes per UTF-16 unit: most values need no count.
    if (value.length * 3 <= maxBytes) continue;
    const bytes = Buffer.byteLength(value);
    if (bytes > maxBytes) return `matchers.${i}.value is ${bytes} bytes, more than ALERTMANAGER_MAX_SILENCE_MATCHER_BYTES (${maxBytes})`;
  }
  return undefined;
}

/** silences.Set's checks, Alertmanager 0.34 wording (one matcher set: set 0); the compiled matchers, or why not. */
function compileChecked(matchers: readonly SilenceMatcher[]): Matcher[] | string {
  let allMatchEmpty = true;
  const compiled: Matcher[] = [];
  for (let i = 0; i < matchers.length; i++) {
    const m = matchers[i] as SilenceMatcher;
    if (m.name === '' || !(m.name as string & { isWellFormed(): boolean }).isWellFormed()) return `invalid label matcher ${i} in set 0: invalid label name ${JSON.stringify(m.name)}`;
    const built = newMatcher(m.name, m.type, m.value);
    if (!built.ok) return `invalid label matcher ${i} in set 0: invalid regular expression ${JSON.stringify(m.value)}: ${built.error}`;
    if (!built.value.matchesValue('') || m.type === '!=' || m.type === '!~') allMatchEmpty = false;
    compiled.push(built.value);
  }
  return allMatchEmpty ? 'matcher set 0: at least one matcher must not match the empty string' : compiled;
}
