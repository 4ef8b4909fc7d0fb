import { createHash } from 'node:crypto';

/** Credentials whose bcrypt verdict is kept, as exporter-toolkit keeps them. */
export const VERDICT_CACHE_SIZE = 100;

/**
 * The key of one (user, stored hash, password) triple: a SHA-256 digest, so the cache keeps no
 * password in clear. A changed hash in the file makes a new key.
 */
export function verdictKey(user: string, hash: string, password: string): string {
  return createHash('sha256').update(user).update('\0').update(hash).update('\0').update(password).digest('base64');
}

/**
 * bcrypt verdicts (right or wrong) of credentials already checked, so a known credential costs
 * a hash lookup instead of a bcrypt run. Bounded: when full, a tenth of the entries, picked at
 * random, make room (exporter-toolkit's eviction), so a flood of wrong passwords cannot push out
 * a good credential for sure.
 */
export class VerdictCache {
  private readonly verdicts = new Map<string, boolean>();

  constructor(
    private readonly capacity = VERDICT_CACHE_SIZE,
    private readonly random: () => number = Math.random,
  ) {}

  get size(): number {
    return this.verdicts.size;
  }

  get(key: string): boolean | undefined {
    return this.verdicts.get(key);
  }

  set(key: string, verdict: boolean): void {
    if (!this.verdicts.has(key) && this.verdicts.size >= this.capacity) this.makeRoom();
    this.verdicts.set(key, verdict);
  }

  clear(): void {
    this.verdicts.clear();
  }

  private makeRoom(): void {
    const keys = [...this.verdicts.keys()];
    const evictions = Math.max(1, Math.floor(keys.length / 10));
    for (let i = 0; i < evictions && keys.length > 0; i++) {
      const index = Math.floor(this.random() * keys.length);
      this.verdicts.delete(keys[index] as string);
      keys[index] = keys[keys.length - 1] as string;
      keys.pop();
    }
  }
}
