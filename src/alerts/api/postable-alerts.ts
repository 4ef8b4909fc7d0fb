import { attempt, ServiceError, unwrap } from '../../errors/index.js';
import type { IncomingAlert } from '../alerts-service.js';
import { parseTime, ZERO_TIME, type TimeValue } from '../time.js';
import { goJsonType } from './json-body.js';

const PARSE_PREFIX = 'parsing alerts body from "" failed, because ';

/** strfmt's URI check: url.ParseRequestURI succeeds (a scheme, or an absolute path), or a hostname. */
function isUri(text: string): boolean {
  if (/^[A-Za-z][A-Za-z0-9+.-]*:[^\s]*$/.test(text) || /^\/[^\s]*$/.test(text)) return true;
  return /^[A-Za-z0-9]([-A-Za-z0-9]*[A-Za-z0-9])?(\.[A-Za-z0-9]([-A-Za-z0-9]*[A-Za-z0-9])?)*$/.test(text);
}

function unmarshalError(message: string): ServiceError {
  return new ServiceError('AM_PARSE_ERROR', PARSE_PREFIX + message);
}

function stringMap(value: unknown, field: string): Record<string, string> | ServiceError {
  if (value === null || value === undefined) return {};
  if (typeof value !== 'object' || Array.isArray(value)) {
    return unmarshalError(`json: cannot unmarshal ${goJsonType(value)} into Go struct field PostableAlert.${field} of type models.LabelSet`);
  }
  // JSON.parse made this object and nothing else holds it: checked in place, not copied.
  const map = value as Record<string, unknown>;
  for (const name in map) {
    const v = map[name];
    if (typeof v !== 'string') {
      const owner = field === 'labels' ? 'Alert' : 'PostableAlert';
      return unmarshalError(`json: cannot unmarshal ${goJsonType(v)} into Go struct field ${owner}.${field} of type string`);
    }
  }
  return map as Record<string, string>;
}

/** A time field: the parsed time, or Go's unmarshal error (400). */
function time(value: unknown, field: string): TimeValue | ServiceError {
  if (value === null || value === undefined) return { ok: true, ms: ZERO_TIME };
  if (typeof value !== 'string') return unmarshalError(`json: cannot unmarshal ${goJsonType(value)} into Go struct field PostableAlert.${field} of type strfmt.DateTime`);
  const parsed = parseTime(value);
  return parsed.ok ? parsed : unmarshalError(parsed.error);
}

/**
 * The body of POST /api/v2/alerts, checked as go-openapi checks it: first Go's JSON unmarshal
 * into models.PostableAlerts (400 with its message), then the schema (422: labels required, a
 * generatorURL that is a URI, times go-openapi can write back as a date-time). Any failure
 * rejects the whole request. `null` is an empty list.
 */
export function decodePostableAlerts(body: unknown, maxAlerts: number): IncomingAlert[] | ServiceError {
  if (body === null) return [];
  if (!Array.isArray(body)) return unmarshalError(`json: cannot unmarshal ${goJsonType(body)} into Go value of type models.PostableAlerts`);
  // Prometheus sends at most 256 per request; a bound keeps one request from holding the API thread.
  if (body.length > maxAlerts) return new ServiceError('AM_TOO_MANY_ITEMS', `alerts in body should have at most ${maxAlerts} items`);
  return attempt(() => {
    const alerts: IncomingAlert[] = [];
    // go-openapi validates element by element and reports the first error of the first element that has one.
    let schemaError: ServiceError | undefined;
    for (let i = 0; i < body.length; i++) {
      const item = body[i] as unknown;
      if (item === null) {
        schemaError ??= new ServiceError('AM_REQUIRED', `${i}.labels in body is required`);
        continue;
      }
      if (typeof item !== 'object' || Array.isArray(item)) return unmarshalError(`json: cannot unmarshal ${goJsonType(item)} into Go value of type models.PostableAlert`);
      const raw = item as Record<string, unknown>;
      const labels = unwrap(stringMap(raw['labels'], 'labels'));
      const annotations = unwrap(stringMap(raw['annotations'], 'annotations'));
      const startsAt = unwrap(time(raw['startsAt'], 'startsAt'));
      const endsAt = unwrap(time(raw['endsAt'], 'endsAt'));
      const url = raw['generatorURL'] ?? '';
      if (typeof url !== 'string') return unmarshalError(`json: cannot unmarshal ${goJsonType(url)} into Go struct field Alert.generatorURL of type strfmt.URI`);
      schemaError ??= elementSchemaError(i, endsAt, startsAt, url, raw['labels']);
      alerts.push({ labels, annotations, startsAt: startsAt.ms, endsAt: endsAt.ms, generatorURL: url });
    }
    return schemaError ?? alerts;
  });
}

/** The first schema error of element `i`, in PostableAlert.Validate's order: endsAt, startsAt, then Alert's generatorURL and labels. */
function elementSchemaError(i: number, endsAt: TimeValue, startsAt: TimeValue, url: string, labels: unknown): ServiceError | undefined {
  if (endsAt.notDateTime !== undefined) return new ServiceError('AM_INVALID_TYPE', `${i}.endsAt in body must be of type date-time: ${JSON.stringify(endsAt.notDateTime)}`);
  if (startsAt.notDateTime !== undefined) return new ServiceError('AM_INVALID_TYPE', `${i}.startsAt in body must be of type date-time: ${JSON.stringify(startsAt.notDateTime)}`);
  if (url !== '' && !isUri(url)) return new ServiceError('AM_INVALID_TYPE', `${i}.generatorURL in body must be of type uri: ${JSON.stringify(url)}`);
  if (labels === undefined || labels === null) return new ServiceError('AM_REQUIRED', `${i}.labels in body is required`);
  return undefined;
}
