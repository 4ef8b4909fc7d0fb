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
 * A form is kept on its second sight: the first only marks it, holding nothing but its text.
 * Keeping every form at once cost a load of distinct requests (a caller's address in each)
 * 27,000 instructions per request more than keeping none, most of it the young-generation
 * collector copying a thousand kept requests at every scavenge and V8 then allocating their
 * objects straight into the old generation.
 *
 * A load where few requests repeat (a caller's address in each) still paid one hash of each
 * form, its mark and its eviction: 44.9k instructions per `/json` request against 40.0k with no
 * cache. So the cache watches what it finds: over each period of PERIOD lookups that found fewer
 * than one kept request in 8, it is left aside for the next 7 periods' worth of requests, which
 * go straight to the reader.
 *
 * Written by hand, not with an LRU library: a hit costs one `Map.get`. The oldest form goes first,
 * found in a ring of the forms in their order of arrival (a Map's own first key is found by
 * skipping every deleted slot before it: 5,000 instructions a request once the front had been
 * evicted for a while); a hit does not move its entry, which would cost every hit a delete and a set.
 */
export class RepeatedRequests {
  private readonly entries = new Map<string, RepeatedRequest | typeof SEEN_ONCE>();
  /** The forms held, by order of arrival from `oldest` on (a ring of `capacity` places). */
  private readonly order: string[] = [];
  private oldest = 0;
  /** Lookups and hits of the current period. */
  private lookups = 0;
  private hits = 0;
  /** Requests still to go straight to the reader before the cache is tried again. */
  private resting = 0;

  constructor(
    /** Requests kept or marked; 0 keeps none. */
    private readonly capacity: number,
    /** Longer forms are not kept: they are rare, and each would hold its text and request. */
    private readonly maxFormLength = MAX_KEPT_FORM_LENGTH,
  ) {}

  /**
   * Whether this request goes through the cache (`get`, then `remember` if it was not kept): false
   * when nothing is kept, and while the cache rests after finding too little. Asked once per request.
   */
  use(): boolean {
    if (this.capacity === 0) return false;
    if (this.resting === 0) return true;
    this.resting--;
    return false;
  }

  get(form: string): RepeatedRequest | undefined {
    const entry = this.entries.get(form);
    const found = entry === SEEN_ONCE ? undefined : entry;
    if (found !== undefined) this.hits++;
    if (++this.lookups === PERIOD) {
      if (this.hits * MIN_HIT_SHARE < PERIOD) this.resting = REST_PERIODS * PERIOD;
      this.lookups = 0;
      this.hits = 0;
    }
    return found;
  }

  /**
   * Called with what `form` read as, when `get` had nothing for it: keeps `request` if the form was
   * seen once already, else marks it. Undefined when the request is not kept.
   */
  remember(form: string, request: RateLimitRequest): RepeatedRequest | undefined {
    if (form.length > this.maxFormLength) return undefined;
    if (this.entries.get(form) === SEEN_ONCE) {
      // Set over a key already held keeps its place in the order: no eviction.
      const entry: RepeatedRequest = { request, reuse: new DecisionReuse() };
      this.entries.set(form, entry);
      return entry;
    }
    if (this.order.length < this.capacity) {
      this.order.push(form);
    } else {
      this.entries.delete(this.order[this.oldest] as string);
      this.order[this.oldest] = form;
      this.oldest = (this.oldest + 1) % this.capacity;
    }
    this.entries.set(form, SEEN_ONCE);
    return undefined;
  }

  get size(): number {
    return this.entries.size;
  }
}

/** Lookups over which the cache judges what it finds. */
export const PERIOD = 4096;
/** A period finding fewer than one kept request in MIN_HIT_SHARE lookups rests the cache. */
const MIN_HIT_SHARE = 8;
/** How many periods' worth of requests a rest lasts. */
export const REST_PERIODS = 7;

/** The mark of a form seen once (see RepeatedRequests). */
const SEEN_ONCE = Symbol('seen once');

/** Characters of the longest form kept: a request of a few dozen descriptors. */
export const MAX_KEPT_FORM_LENGTH = 4096;
