/**
 * Exact /json response objects as upstream's /json handler writes them (proto3 JSON mapping):
 * default values (remaining 0, empty name, code UNKNOWN) are omitted; Durations are `"<n>s"`.
 */
export type Unit = 'SECOND' | 'MINUTE' | 'HOUR' | 'DAY' | 'WEEK' | 'MONTH' | 'YEAR';

export const UNIT_SECONDS: Readonly<Record<Unit, number>> = {
  SECOND: 1,
  MINUTE: 60,
  HOUR: 3600,
  DAY: 86400,
  WEEK: 604800,
  MONTH: 2592000,
  YEAR: 31536000,
};

/** Upstream's durationUntilReset, `unitSeconds - now % unitSeconds`, as a Duration string. */
export function resetAt(now: number, unit: Unit): string {
  const length = UNIT_SECONDS[unit];
  return `${length - (now % length)}s`;
}

export interface Limited {
  code: 'OK' | 'OVER_LIMIT';
  rpu: number;
  unit: Unit;
  remaining: number;
  /** Seconds until reset. */
  reset: number;
  name?: string;
}

/** A descriptor status that has a limit. */
export function limited(s: Limited): Record<string, unknown> {
  const currentLimit: Record<string, unknown> = {};
  if (s.name !== undefined && s.name !== '') currentLimit['name'] = s.name;
  if (s.rpu !== 0) currentLimit['requestsPerUnit'] = s.rpu;
  currentLimit['unit'] = s.unit;
  const status: Record<string, unknown> = { code: s.code, currentLimit };
  if (s.remaining !== 0) status['limitRemaining'] = s.remaining;
  status['durationUntilReset'] = `${s.reset}s`;
  return status;
}

export function ok(rpu: number, unit: Unit, remaining: number, reset: number, name?: string): Record<string, unknown> {
  return limited({ code: 'OK', rpu, unit, remaining, reset, ...(name === undefined ? {} : { name }) });
}

export function over(rpu: number, unit: Unit, reset: number, name?: string): Record<string, unknown> {
  return limited({ code: 'OVER_LIMIT', rpu, unit, remaining: 0, reset, ...(name === undefined ? {} : { name }) });
}

/** A descriptor without a limit (no match, whitelisted, replaced, unknown domain). */
export const NO_LIMIT = Object.freeze({ code: 'OK' });
/** An unlimited rule: remaining is the maximum uint32. */
export const UNLIMITED = Object.freeze({ code: 'OK', limitRemaining: 4294967295 });

export function response(
  overallCode: 'OK' | 'OVER_LIMIT',
  statuses: ReadonlyArray<Record<string, unknown>>,
  headers?: ReadonlyArray<[string, string]>,
): Record<string, unknown> {
  const out: Record<string, unknown> = { overallCode, statuses };
  if (headers !== undefined && headers.length > 0) {
    out['responseHeadersToAdd'] = headers.map(([key, value]) => ({ key, value }));
  }
  return out;
}

export const BAD_REQUEST = 'Bad Request\n';
export const TEXT_PLAIN = 'text/plain; charset=utf-8';
