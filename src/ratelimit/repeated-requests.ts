import { webcrypto } from 'node:crypto';
import { endianness } from 'node:os';
import { DecisionReuse, type RateLimitRequest } from '../engine/index.js';

/** A request read before: the request, read once, and what the engine keeps to decide it again. */
export interface RepeatedRequest {
  readonly request: RateLimitRequest;
  readonly reuse: DecisionReuse;
}

/** One form in the table: its bytes, and its request once it was seen twice. */
interface Form {
  readonly bytes: Uint8Array;
  /** The bytes as whole 32-bit words (the tail past them is compared byte by byte). */
  readonly words: Int32Array;
  readonly hash: number;
  kept: RepeatedRequest | undefined;
  /** The next form of the same hash. */
  next: Form | undefined;
}

/**
 * The latest distinct requests one thread decided, by their exact bytes: a `/json` body or a gRPC
 * message (REQUEST_CACHE_SIZE). A sidecar's clients send the same few requests again and again
 * (one per route, or per route and caller); a repeat skips decoding the request, reading it,
 * matching its descriptors and building its cache keys, and pays one hash of its bytes and one
 * comparison instead.
 *
 * Keyed by bytes, not by the text of the bytes: decoding a `/json` body and V8's hash of the
 * resulting string cost twice what hashing the bytes 32 bits at a time does. The hash is written
 * here, on the hot path, because it has to run on uWS's memory before anything is copied. Its seed
 * is random per process and a hash holds at most MAX_FORMS_PER_HASH forms, so bodies made to
 * collide cost a few comparisons and are not kept, never a long scan.
 *
 * A form is kept on its second sight: the first only marks it, holding nothing but its bytes.
 * Keeping every form at once cost a load of distinct requests (a caller's address in each)
 * 27,000 instructions per request more than keeping none, most of it the young-generation
 * collector copying a thousand kept requests at every scavenge and V8 then allocating their
 * objects straight into the old generation.
 *
 * A load where few requests repeat still paid one hash of each form, its mark and its eviction.
 * So the cache watches what it finds: over each period of PERIOD lookups that found fewer than one
 * kept request in 8, it is left aside for the next 7 periods' worth of requests, which go straight
 * to the reader.
 *
 * Written by hand, not with an LRU library: a hit costs one hash, one `Map.get` by a small integer
 * and one comparison. The oldest form goes first, found in a ring of the forms in their order of
 * arrival; a hit does not move its entry, which would cost every hit a delete and a set.
 */
export class RepeatedRequests {
  private readonly byHash = new Map<number, Form>();
  /** The forms held, by order of arrival from `oldest` on (a ring of `capacity` places). */
  private readonly order: Form[] = [];
  private oldest = 0;
  /** The bytes `get` last missed and their hash, so `remember` right after does not hash again. */
  private missed: Uint8Array | undefined;
  private missedHash = 0;
  /** Lookups and hits of the current period. */
  private lookups = 0;
  private hits = 0;
  /** Requests still to go straight to the reader before the cache is tried again. */
  private resting = 0;

  constructor(
    /** Requests kept or marked; 0 keeps none. */
    private readonly capacity: number,
    /** Longer forms are not kept: they are rare, and each would hold its bytes and request. */
    private readonly maxFormBytes = MAX_KEPT_FORM_BYTES,
    /** Secret, so that no one outside can make forms collide (tests choose it). */
    private readonly seed = webcrypto.getRandomValues(new Int32Array(1))[0] as number,
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

  /** The request kept for these bytes. They are only read, during the call: uWS's memory will do. */
  get(bytes: Uint8Array): RepeatedRequest | undefined {
    let found: RepeatedRequest | undefined;
    if (bytes.length <= this.maxFormBytes) {
      const aligned = alignedWords(bytes);
      const hash = hashBytes(bytes, aligned, this.seed);
      found = this.find(bytes, aligned, hash)?.kept;
      if (found === undefined) {
        this.missed = bytes;
        this.missedHash = hash;
      }
    }
    if (found !== undefined) this.hits++;
    if (++this.lookups === PERIOD) {
      if (this.hits * MIN_HIT_SHARE < PERIOD) this.resting = REST_PERIODS * PERIOD;
      this.lookups = 0;
      this.hits = 0;
    }
    return found;
  }

  /**
   * Called with what `bytes` read as, when `get` had nothing for them: keeps `request` if the form
   * was seen once already, else marks it (copying the bytes). Undefined when the request is not kept.
   */
  remember(bytes: Uint8Array, request: RateLimitRequest): RepeatedRequest | undefined {
    if (bytes.length > this.maxFormBytes) return undefined;
    const aligned = alignedWords(bytes);
    const hash = this.missed === bytes ? this.missedHash : hashBytes(bytes, aligned, this.seed);
    this.missed = undefined;
    let sameHash = 0;
    for (let form = this.byHash.get(hash); form !== undefined; form = form.next, sameHash++) {
      if (!sameBytes(form, bytes, aligned)) continue;
      // Kept in its place in the order: no eviction.
      form.kept ??= { request, reuse: new DecisionReuse() };
      return form.kept;
    }
    if (sameHash >= MAX_FORMS_PER_HASH) return undefined;
    // A copy of its own: `Buffer#slice` (a gRPC message is a Buffer) would share the memory.
    const copy = new Uint8Array(bytes);
    const form: Form = { bytes: copy, words: new Int32Array(copy.buffer, 0, copy.length >> 2), hash, kept: undefined, next: undefined };
    if (this.order.length < this.capacity) {
      this.order.push(form);
    } else {
      this.drop(this.order[this.oldest] as Form);
      this.order[this.oldest] = form;
      this.oldest = (this.oldest + 1) % this.capacity;
    }
    form.next = this.byHash.get(hash);
    this.byHash.set(hash, form);
    return undefined;
  }

  /** Forms kept or marked. */
  get size(): number {
    return this.order.length;
  }

  private find(bytes: Uint8Array, aligned: Int32Array | undefined, hash: number): Form | undefined {
    for (let form = this.byHash.get(hash); form !== undefined; form = form.next) {
      if (sameBytes(form, bytes, aligned)) return form;
    }
    return undefined;
  }

  private drop(form: Form): void {
    const head = this.byHash.get(form.hash);
    if (head === form) {
      if (form.next === undefined) this.byHash.delete(form.hash);
      else this.byHash.set(form.hash, form.next);
      return;
    }
    for (let before = head; before !== undefined; before = before.next) {
      if (before.next === form) {
        before.next = form.next;
        return;
      }
    }
  }
}

/** Lookups over which the cache judges what it finds. */
export const PERIOD = 4096;
/** A period finding fewer than one kept request in MIN_HIT_SHARE lookups rests the cache. */
const MIN_HIT_SHARE = 8;
/** How many periods' worth of requests a rest lasts. */
export const REST_PERIODS = 7;
/** Forms held under one hash: past it, a colliding form is decided but not kept. */
export const MAX_FORMS_PER_HASH = 4;
/** Bytes of the longest form kept: a request of a few dozen descriptors. */
export const MAX_KEPT_FORM_BYTES = 4096;

/** Whole 32-bit words read as an Int32Array are little-endian here, as `wordAt` composes them. */
const LITTLE_ENDIAN = endianness() === 'LE';
const EMPTY_WORDS = new Int32Array(0);

/** The bytes as whole 32-bit words, when they start on a 4-byte boundary (uWS's chunks do). */
function alignedWords(bytes: Uint8Array): Int32Array | undefined {
  if (!LITTLE_ENDIAN || (bytes.byteOffset & 3) !== 0) return undefined;
  const count = bytes.length >> 2;
  return count === 0 ? EMPTY_WORDS : new Int32Array(bytes.buffer, bytes.byteOffset, count);
}

/** The little-endian 32-bit word at word index `i` of `bytes`, composed byte by byte. */
function wordAt(bytes: Uint8Array, i: number): number {
  const at = i << 2;
  return (bytes[at] as number) | ((bytes[at + 1] as number) << 8) | ((bytes[at + 2] as number) << 16) | ((bytes[at + 3] as number) << 24);
}

/** The hash a form is filed under (exported for tests). */
export function formHash(bytes: Uint8Array, seed: number): number {
  return hashBytes(bytes, alignedWords(bytes), seed);
}

/** A multiply-xorshift hash of 32-bit words, the same whether the bytes are aligned or not; a small integer. */
function hashBytes(bytes: Uint8Array, aligned: Int32Array | undefined, seed: number): number {
  const count = bytes.length >> 2;
  let h = seed ^ bytes.length;
  if (aligned !== undefined) {
    for (let i = 0; i < count; i++) {
      h = Math.imul(h ^ (aligned[i] as number), 0x5bd1e995);
      h ^= h >>> 15;
    }
  } else {
    for (let i = 0; i < count; i++) {
      h = Math.imul(h ^ wordAt(bytes, i), 0x5bd1e995);
      h ^= h >>> 15;
    }
  }
  for (let i = count << 2; i < bytes.length; i++) {
    h = Math.imul(h ^ (bytes[i] as number), 0x5bd1e995);
    h ^= h >>> 15;
  }
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  // 30 bits: a V8 small integer, which a Map hashes without a heap number.
  return (h ^ (h >>> 16)) & 0x3fffffff;
}

function sameBytes(form: Form, bytes: Uint8Array, aligned: Int32Array | undefined): boolean {
  const kept = form.bytes;
  if (kept.length !== bytes.length) return false;
  const words = form.words;
  const count = words.length;
  if (aligned !== undefined) {
    for (let i = 0; i < count; i++) if (words[i] !== aligned[i]) return false;
  } else {
    for (let i = 0; i < count; i++) if (words[i] !== wordAt(bytes, i)) return false;
  }
  for (let i = count << 2; i < bytes.length; i++) if (kept[i] !== bytes[i]) return false;
  return true;
}
