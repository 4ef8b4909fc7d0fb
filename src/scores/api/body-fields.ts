import { ServiceError } from '../../errors/index.js';
import { parseJsonBody } from '../../transports/http/index.js';
import type { ApiRequest } from '../../transports/http/handoff/index.js';

/**
 * Reading the fields of a JSON request body: each reader gives the value, undefined when the
 * field is absent or null, or the 400 naming the field (`param`) and what it must be.
 */
export function bad(param: string, message: string): ServiceError {
  return new ServiceError('SC_BAD_REQUEST', message, { param });
}

/** The JSON object a POST or PUT carries, or a 400. */
export function jsonObjectBody(request: ApiRequest): Record<string, unknown> | ServiceError {
  const parsed = parseJsonBody(request.body);
  if (!parsed.ok) return bad('body', `the body must be a JSON object: ${parsed.reason}`);
  if (parsed.value === null || typeof parsed.value !== 'object' || Array.isArray(parsed.value)) return bad('body', 'the body must be a JSON object');
  return parsed.value as Record<string, unknown>;
}

/** As jsonObjectBody, but an empty body is an empty object (operations whose body is optional). */
export function optionalJsonObjectBody(request: ApiRequest): Record<string, unknown> | ServiceError {
  return request.body.byteLength === 0 ? {} : jsonObjectBody(request);
}

export function optionalString(body: Record<string, unknown>, name: string, maxLength = 1000): string | undefined | ServiceError {
  const value = body[name];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') return bad(name, `${name} must be a string`);
  if (value.length > maxLength) return bad(name, `${name} must be at most ${maxLength} characters`);
  return value;
}

export function oneOf<T extends string>(body: Record<string, unknown>, name: string, allowed: readonly T[]): T | undefined | ServiceError {
  const value = body[name];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string' || !(allowed as readonly string[]).includes(value)) return bad(name, `${name} must be one of ${allowed.join(', ')}`);
  return value as T;
}

export function optionalBoolean(body: Record<string, unknown>, name: string): boolean | undefined | ServiceError {
  const value = body[name];
  if (value === undefined || value === null) return undefined;
  return typeof value === 'boolean' ? value : bad(name, `${name} must be true or false`);
}

export function optionalNumber(body: Record<string, unknown>, name: string, min: number, max: number): number | undefined | ServiceError {
  const value = body[name];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'number' || !Number.isFinite(value) || value < min || value > max) return bad(name, `${name} must be a number from ${min} to ${max}`);
  return value;
}

// RFC 3339 date-time, as OpenAPI's `format: date-time` means it: a date, a time and an offset.
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/i;

/** A date-time field as epoch milliseconds. */
export function optionalDate(body: Record<string, unknown>, name: string): number | undefined | ServiceError {
  const value = body[name];
  if (value === undefined || value === null) return undefined;
  const ms = typeof value === 'string' && DATE_TIME.test(value) ? Date.parse(value) : NaN;
  return Number.isNaN(ms) ? bad(name, `${name} must be a date-time such as 2021-07-19T08:00:00Z`) : ms;
}

export function stringList(value: unknown, name: string, maxItems: number): string[] | ServiceError {
  if (!Array.isArray(value) || value.length > maxItems || !value.every((item) => typeof item === 'string' && item.length <= 255)) {
    return bad(name, `${name} must be a list of at most ${maxItems} strings`);
  }
  return value as string[];
}
