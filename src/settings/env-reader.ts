import { parseDurationMs } from './duration.js';

/** A setting whose value cannot be used; startup stops with this one-line message. */
export class SettingsError extends Error {
  override readonly name = 'SettingsError';
}

/**
 * Typed reads of environment variables. Each setting has our primary name (KVSTORE_*, OBJCACHE_*)
 * first and, optionally, upstream envoyproxy/ratelimit names as aliases so the service is a drop-in
 * replacement. The first name that is set wins. Every bad value names the variable and value.
 */
export class EnvReader {
  constructor(private readonly env: Readonly<Record<string, string | undefined>>) {}

  /** [variable name, raw value] of the first set name, or undefined. */
  private lookup(names: readonly string[]): [string, string] | undefined {
    for (const name of names) {
      const value = this.env[name];
      if (value !== undefined) return [name, value];
    }
    return undefined;
  }

  private fail(name: string, value: string, expected: string): never {
    throw new SettingsError(`invalid value for ${name}: ${JSON.stringify(value)} (expected ${expected})`);
  }

  /** Whether the variable is set at all (even to ''). */
  has(name: string): boolean {
    return this.env[name] !== undefined;
  }

  string(names: readonly string[], fallback: string): string {
    return this.lookup(names)?.[1] ?? fallback;
  }

  /** Go strconv.ParseBool spellings; an empty value means the default. */
  bool(names: readonly string[], fallback: boolean): boolean {
    const found = this.lookup(names);
    if (found === undefined || found[1] === '') return fallback;
    const [name, value] = found;
    if (['1', 't', 'T', 'true', 'TRUE', 'True'].includes(value)) return true;
    if (['0', 'f', 'F', 'false', 'FALSE', 'False'].includes(value)) return false;
    return this.fail(name, value, 'true or false');
  }

  integer(names: readonly string[], fallback: number, min: number, max: number): number {
    const found = this.lookup(names);
    if (found === undefined || found[1].trim() === '') return fallback;
    const [name, value] = found;
    const n = Number(value.trim());
    if (!/^[+-]?\d+$/.test(value.trim()) || !Number.isSafeInteger(n) || n < min || n > max) {
      return this.fail(name, value, `an integer from ${min} to ${max}`);
    }
    return n;
  }

  port(names: readonly string[], fallback: number): number {
    return this.integer(names, fallback, 0, 65535);
  }

  ratio(names: readonly string[], fallback: number): number {
    const found = this.lookup(names);
    if (found === undefined || found[1].trim() === '') return fallback;
    const [name, value] = found;
    const n = Number(value.trim());
    if (!Number.isFinite(n) || n < 0 || n > 1) return this.fail(name, value, 'a number from 0 to 1');
    return n;
  }

  /** A Go duration (`10s`, `1m30s`, `250ms`) in milliseconds; negative durations are refused. */
  durationMs(names: readonly string[], fallbackMs: number): number {
    const found = this.lookup(names);
    if (found === undefined || found[1].trim() === '') return fallbackMs;
    const [name, value] = found;
    const ms = parseDurationMs(value);
    if (ms === undefined || ms < 0) return this.fail(name, value, 'a duration such as 10s, 1m30s or 250ms');
    return ms;
  }

  choice<T extends string>(names: readonly string[], fallback: T, allowed: readonly T[], caseInsensitive = false): T {
    const found = this.lookup(names);
    if (found === undefined || found[1] === '') return fallback;
    const [name, value] = found;
    const match = allowed.find((a) => (caseInsensitive ? a.toLowerCase() === value.toLowerCase() : a === value));
    if (match === undefined) return this.fail(name, value, `one of ${allowed.join(', ')}`);
    return match;
  }
}
