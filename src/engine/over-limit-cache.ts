import { LRUCache } from 'lru-cache';
import type { Gauge, StatsStore } from '../observability/stats.js';

/** When an entry stops counting as over the limit, and when it was last read (both epoch seconds). */
interface Entry {
  expiresAt: number;
  accessedAt: number;
}

/**
 * Rough heap cost of one entry besides its key's characters: the entry object, the cache's
 * per-slot arrays and map slot. The bound is approximate, as freecache's is exact only for its
 * own slab; what matters is that memory stays proportional to LOCAL_CACHE_SIZE_IN_BYTES.
 */
const ENTRY_OVERHEAD_BYTES = 96;
/** freecache raises smaller sizes to its 512 KiB minimum; so do we, so tiny settings still hold some keys. */
export const MIN_LOCAL_CACHE_BYTES = 512 * 1024;

/**
 * The local over-limit cache (upstream's freecache one): cache keys the store reported over their
 * limit, so the rest of their window is answered without a round trip. Byte-bounded LRU (lru-cache,
 * the one package with a real byte bound). Expiry is checked against the engine's clock, not the
 * cache's timers, so an injected clock drives it in tests; an entry ends with its window, which is
 * when its key (which contains the window start) could no longer be asked for anyway. One per
 * thread: a key another thread found over costs that thread one store round trip.
 */
export class OverLimitCache {
  private readonly cache: LRUCache<string, Entry>;
  private accessTimeSum = 0;
  private readonly gauges: Record<
    'hitCount' | 'missCount' | 'lookupCount' | 'entryCount' | 'evacuateCount' | 'expiredCount' | 'overwriteCount' | 'averageAccessTime',
    Gauge
  >;

  constructor(sizeBytes: number, stats: StatsStore) {
    const gauge = (name: string) => stats.gauge(`ratelimit.localcache.${name}`);
    // Upstream's freecache gauges (ratelimit.localcache.*), kept current: a few additions per lookup.
    this.gauges = {
      hitCount: gauge('hitCount'),
      missCount: gauge('missCount'),
      lookupCount: gauge('lookupCount'),
      entryCount: gauge('entryCount'),
      evacuateCount: gauge('evacuateCount'),
      expiredCount: gauge('expiredCount'),
      overwriteCount: gauge('overwriteCount'),
      averageAccessTime: gauge('averageAccessTime'),
    };
    this.cache = new LRUCache<string, Entry>({
      maxSize: Math.max(sizeBytes, MIN_LOCAL_CACHE_BYTES),
      sizeCalculation: (_entry, key) => key.length * 2 + ENTRY_OVERHEAD_BYTES,
      // Called only when an entry leaves or is replaced, which is rare next to lookups.
      dispose: (entry, _key, reason) => {
        this.accessTimeSum -= entry.accessedAt;
        if (reason === 'evict') this.gauges.evacuateCount.value++;
      },
    });
  }

  /** True while `key` is known to be over its limit at `now`. */
  isOverLimit(key: string, now: number): boolean {
    const g = this.gauges;
    g.lookupCount.value++;
    const entry = this.cache.get(key);
    if (entry === undefined) {
      g.missCount.value++;
      return false;
    }
    if (entry.expiresAt <= now) {
      g.expiredCount.value++;
      g.missCount.value++;
      this.cache.delete(key);
      this.publishSize();
      return false;
    }
    g.hitCount.value++;
    this.accessTimeSum += now - entry.accessedAt;
    entry.accessedAt = now;
    this.publishSize();
    return true;
  }

  /** Remembers that `key` is over its limit until `expiresAt` (the end of its window). */
  markOverLimit(key: string, expiresAt: number, now: number): void {
    if (this.cache.has(key)) this.gauges.overwriteCount.value++;
    this.cache.set(key, { expiresAt, accessedAt: now });
    this.accessTimeSum += now;
    this.publishSize();
  }

  private publishSize(): void {
    const size = this.cache.size;
    this.gauges.entryCount.value = size;
    this.gauges.averageAccessTime.value = size === 0 ? 0 : Math.floor(this.accessTimeSum / size);
  }
}
