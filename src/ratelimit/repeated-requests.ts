import { DecisionReuse, type RateLimitRequest } from '../engine/index.js';

/** A request read before: the request, read once, and what the engine keeps to decide it again. */
export interface RepeatedRequest {
  readonly request: RateLimitRequest;
  readonly reuse: DecisionReuse;
}

/**
 * The latest distinct requests one thread decided, by their exact form: a `/json` body's text, or
 * a gRPC message's bytes as latin1 text (REQUEST_CACHE_SIZE). A sidecar's clients send the same
 * few requests again and again (one per route, or per route and caller); a repeat skips reading
 * the request, matching its descriptors and building its cache keys, and pays one hash of its
 * form instead. Only forms that read as a valid request are kept.
 *
 * Written by hand, not with an LRU library: a hit costs one `Map.get`. The oldest entry goes
 * first (a Map iterates in insertion order) and a hit does not move its entry, since moving it
 * would cost every hit a delete and a set.
 */
export class RepeatedRequests {
  private readonly entries = new Map<string, RepeatedRequest>();

  constructor(
    /** Requests kept; 0 keeps none. */
    private readonly capacity: number,
    /** Longer forms are not kept: they are rare, and each would hold its text and request. */
    private readonly maxFormLength = MAX_KEPT_FORM_LENGTH,
  ) {}

  /** False when nothing is kept: a caller then need not build the form at all. */
  get enabled(): boolean {
    return this.capacity > 0;
  }

  get(form: string): RepeatedRequest | undefined {
    return this.capacity === 0 ? undefined : this.entries.get(form);
  }

  /** Keeps `request` as the reading of `form`; undefined when the form is not kept. */
  remember(form: string, request: RateLimitRequest): RepeatedRequest | undefined {
    if (this.capacity === 0 || form.length > this.maxFormLength) return undefined;
    if (this.entries.size >= this.capacity) this.entries.delete(this.entries.keys().next().value as string);
    const entry: RepeatedRequest = { request, reuse: new DecisionReuse() };
    this.entries.set(form, entry);
    return entry;
  }

  get size(): number {
    return this.entries.size;
  }
}

/** Characters of the longest form kept: a request of a few dozen descriptors. */
export const MAX_KEPT_FORM_LENGTH = 4096;
