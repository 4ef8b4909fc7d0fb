/**
 * Rate limit units. Numbers follow `RateLimitResponse.RateLimit.Unit` of
 * envoy.service.ratelimit.v3 (WEEK was appended as 7 after MONTH/YEAR).
 * MONTH and YEAR are fixed 30 and 365 day windows, not calendar periods,
 * exactly as upstream ratelimit.
 */
export enum Unit {
  UNKNOWN = 0,
  SECOND = 1,
  MINUTE = 2,
  HOUR = 3,
  DAY = 4,
  MONTH = 5,
  YEAR = 6,
  WEEK = 7,
}

const SECONDS: Readonly<Record<Unit, number>> = {
  [Unit.UNKNOWN]: 0,
  [Unit.SECOND]: 1,
  [Unit.MINUTE]: 60,
  [Unit.HOUR]: 3600,
  [Unit.DAY]: 86400,
  [Unit.WEEK]: 604800,
  [Unit.MONTH]: 2592000,
  [Unit.YEAR]: 31536000,
};

/** Length of one window of `unit` in seconds; 0 for UNKNOWN. */
export function unitSeconds(unit: Unit): number {
  return SECONDS[unit] ?? 0;
}

/** Every unit a limit may use, in enum order. */
export const LIMIT_UNITS: readonly Unit[] = [
  Unit.SECOND,
  Unit.MINUTE,
  Unit.HOUR,
  Unit.DAY,
  Unit.MONTH,
  Unit.YEAR,
  Unit.WEEK,
];

/** Upper-case enum name, as used in protojson and /rlconfig. */
export function unitName(unit: Unit): string {
  return Unit[unit] ?? 'UNKNOWN';
}

/** Case-insensitive unit name (as in YAML `unit: minute`) to Unit; undefined if not a unit name. */
export function parseUnitName(name: string): Unit | undefined {
  const upper = name.toUpperCase();
  const value = (Unit as unknown as Record<string, unknown>)[upper];
  return typeof value === 'number' ? (value as Unit) : undefined;
}

/** Epoch-aligned start of the window containing `nowSeconds`. */
export function windowStart(nowSeconds: number, unit: Unit): number {
  const length = SECONDS[unit];
  return nowSeconds - (nowSeconds % length);
}

/** Seconds until the window containing `nowSeconds` ends, in [1, unitSeconds]. */
export function secondsUntilReset(nowSeconds: number, unit: Unit): number {
  const length = SECONDS[unit];
  return length - (nowSeconds % length);
}
