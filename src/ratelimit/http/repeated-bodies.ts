import { DecisionReuse, type RateLimitRequest } from '../../engine/index.js';

/** A `/json` body decided before: its request, read once, and what the engine keeps to decide it again. */
export interface RepeatedRequest {
  readonly request: RateLimitRequest;
  readonly reuse: DecisionReuse;
}

/**
 * The latest distinct `/json` bodies one HTTP thread decided, by their text (JSON_REQUEST_CACHE_SIZE).
 * Clients of a sidecar send the same few bodies again and again (one per route, or per route and
 * caller); a repeat skips reading the body, matching its descriptors and building its cache keys,
 * and pays one hash of its text instead. Only bodies that read as a valid request are kept.
 *
 * Written by hand, not with an LRU library: a hit costs one `Map.get`. The oldest entry goes
 * first (a Map iterates in insertion order) and a hit does not move its entry, since moving it
 * would cost every hit a delete and a set.
 */
export class RepeatedBodies {
  private readonly entries = new Map<string, RepeatedRequest>();

  constructor(
    /** Bodies kept; 0 keeps none and `get` costs nothing. */
    private readonly capacity: number,
    /** Longer bodies are not kept: they are rare, and each would hold its text and request. */
    private readonly maxBodyLength = MAX_KEPT_BODY_LENGTH,
  ) {}

  get(body: string): RepeatedRequest | undefined {
    return this.capacity === 0 ? undefined : this.entries.get(body);
  }

  /** Keeps `request` as the reading of `body`; undefined when the body is not kept. */
  remember(body: string, request: RateLimitRequest): RepeatedRequest | undefined {
    if (this.capacity === 0 || body.length > this.maxBodyLength) return undefined;
    if (this.entries.size >= this.capacity) this.entries.delete(this.entries.keys().next().value as string);
    const entry: RepeatedRequest = { request, reuse: new DecisionReuse() };
    this.entries.set(body, entry);
    return entry;
  }

  get size(): number {
    return this.entries.size;
  }
}

/** Characters of the longest body kept: a request of a few dozen descriptors. */
export const MAX_KEPT_BODY_LENGTH = 4096;
