import { Algorithm, CounterStoreError, LIMIT_UNITS, slidingWindowCount, tokenBucketAfter, type AlgorithmCount, unitName, unitSeconds, type CounterIncrement, type CounterStore, type Unit } from '../../engine/index.js';
import { FP_HI, FP_LO, fingerprint } from './fingerprint.js';
import { MOVED, SEALED, UNSET, bucketShape, decodeFullAt, encodeFullAt } from './bucket-word.js';
import {
  CHUNK_SLOTS_LOG2,
  G_CLEAR_COUNT,
  G_EXPIRED_COUNT,
  G_FULL_COUNT,
  G_MAGIC,
  G_MAX_KEYS,
  G_SLOTS_LOG2,
  G_TABLE_HEADER_STRIDE,
  LEVEL0_HEADROOM,
  LEVEL_PROBE_CAP,
  MAGIC,
  MAX_COUNT,
  MAX_KEYS_PER_WINDOW_LIMIT,
  MIN_LEVEL0_SLOTS,
  PROBE_CAP,
  SLOT_COUNT,
  SLOT_FP_LO,
  SLOT_WORDS,
  TH_DIRTY,
  TH_LEVEL0_SLOTS,
  TH_SEQ,
  TH_TAG,
  TH_USED,
  VERSION,
  G_VERSION,
  WINDOWS_PER_UNIT,
  geometryFor,
  geometryFromLog2,
  type Geometry,
} from './layout.js';

/*
 * Why this is hand-written: no maintained npm package provides a hash table of counters in a
 * SharedArrayBuffer driven by Atomics (the nearest are an SPSC ring buffer, an Atomics RPC proxy
 * and native or inter-process shared memory modules). The design, insert-only tables rotated per
 * window, needs no locks on the hot path and cannot suffer ABA: a slot changes owner only when its
 * whole table is cleared for a new window.
 *
 * Plain and atomic reads. Atomics.load measured about 10 ns here on Node 20, a plain Int32Array
 * read about 1 ns, so an increment of a known key makes exactly three atomic accesses: the
 * seqlock read that opens the table (acquire: everything read after it sees the clear and tag that
 * preceded it), the compareExchange on the count, and the seqlock re-read that proves the table
 * was not recycled meanwhile. Reads in between are plain: aligned Int32Array reads never tear, a
 * stale 0 in fpHi only leads to a compareExchange that returns the real value, a stale count only
 * fails the compareExchange once, and a 0 in fpLo is re-read atomically until published. Spins
 * and reads that decide a result without a compareExchange (hits 0) stay atomic.
 */

/** Name of the setting that sizes the store; quoted when the store is full. */
export const MAX_KEYS_SETTING = 'MEMORY_STORE_MAX_KEYS_PER_WINDOW';

export interface SharedMemoryCounterStoreOptions {
  /** Distinct keys one window of one unit must hold; tables get 2x that many slots. */
  maxKeysPerWindow: number;
}

export interface SharedMemoryCounterStats {
  /** Keys held now (claimed slots of the W-1, W, W+1 tables of every unit). */
  keysInUse: number;
  /** keysInUse split by unit name (SECOND, MINUTE, ...). */
  keysInUseByUnit: Record<string, number>;
  /** Increments refused because a table was full, by any thread, since creation. */
  fullCount: number;
  /** Increments for a window already recycled (a thread stalled three windows), answered with `hits`. */
  expiredCount: number;
  /** Tables cleared for a new window, by maintain() or the hot path. */
  tableClears: number;
  /** Size of the SharedArrayBuffer (virtual; pages become resident as keys arrive). */
  bytesReserved: number;
  maxKeysPerWindow: number;
}

// Return values of probe(); real results are word offsets (>= 0).
const NOT_FOUND = -1;
const EXHAUSTED = -2;
/** openTable(): the table already holds a later window. Seqs are even, so -1 never collides. */
const EXPIRED = -1;

/** Spins on a half-published slot before re-checking whether its table was recycled. */
const SPIN_CHECK_EVERY = 1024;
/** Spins after which a half-published slot is treated as another key (its writer died). */
const SPIN_LIMIT = 1 << 20;
/** How long a waiter sleeps per round while another thread clears a table. */
const CLEAR_WAIT_MS = 1;
/** A clear that holds the seqlock this long belonged to a terminated thread and is taken over. */
const CLEAR_STEAL_MS = 5000;

/** Window length per Unit enum value, as an array for a cheap indexed read. */
const UNIT_SECONDS: readonly number[] = Array.from({ length: 8 }, (_, unit) => unitSeconds(unit as Unit));

/**
 * Embedded counter store shared by every thread of the process; see layout.ts for the memory
 * layout and the probe scheme. Each thread owns one instance over the same buffer
 * (`create` in the main thread, `attach(buffer)` in workers). All methods are synchronous.
 */
export class SharedMemoryCounterStore implements CounterStore {
  readonly buffer: SharedArrayBuffer;
  readonly maxKeysPerWindow: number;
  /** Slots per table. */
  readonly slots: number;
  private readonly words: Int32Array;
  private readonly headersBase: number;
  private readonly headerStride: number;
  private readonly slotsBase: number;
  private readonly tableWords: number;
  /** Fingerprint of the key being counted; reused so hashing allocates nothing. */
  private readonly fp = new Int32Array(2);
  /** Per Unit enum value: the window start last counted and its table and tag (NaN: none). */
  private readonly lastWindowStart = new Float64Array(UNIT_SECONDS.length).fill(Number.NaN);
  private readonly lastTable = new Int32Array(UNIT_SECONDS.length);
  private readonly lastTag = new Int32Array(UNIT_SECONDS.length);

  private constructor(buffer: SharedArrayBuffer, geometry: Geometry) {
    this.buffer = buffer;
    this.words = new Int32Array(buffer, 0, geometry.totalWords);
    this.maxKeysPerWindow = geometry.maxKeysPerWindow;
    this.slots = geometry.slots;
    this.headersBase = geometry.headersBase;
    this.headerStride = geometry.tableHeaderStride;
    this.slotsBase = geometry.slotsBase;
    this.tableWords = geometry.slots * SLOT_WORDS;
  }

  /** A new zeroed buffer sized for `maxKeysPerWindow` (RangeError outside [1, 2^24]). */
  static create(options: SharedMemoryCounterStoreOptions): SharedMemoryCounterStore {
    const geometry = geometryFor(options.maxKeysPerWindow);
    const buffer = new SharedArrayBuffer(geometry.totalWords * 4);
    const words = new Int32Array(buffer, 0, 8);
    words[G_MAX_KEYS] = geometry.maxKeysPerWindow;
    words[G_SLOTS_LOG2] = geometry.slotsLog2;
    words[G_TABLE_HEADER_STRIDE] = geometry.tableHeaderStride;
    words[G_VERSION] = VERSION;
    Atomics.store(words, G_MAGIC, MAGIC); // last: publishes the header
    return new SharedMemoryCounterStore(buffer, geometry);
  }

  /** The store over a buffer made by `create` in another thread (posted via workerData). */
  static attach(buffer: SharedArrayBuffer): SharedMemoryCounterStore {
    if (!(buffer instanceof SharedArrayBuffer) || buffer.byteLength < 32) {
      throw new TypeError('attach expects the SharedArrayBuffer of a SharedMemoryCounterStore');
    }
    const words = new Int32Array(buffer, 0, 8);
    if (Atomics.load(words, G_MAGIC) !== MAGIC || words[G_VERSION] !== VERSION) {
      throw new TypeError('buffer is not a SharedMemoryCounterStore of this version');
    }
    const maxKeys = words[G_MAX_KEYS] ?? 0;
    const slotsLog2 = words[G_SLOTS_LOG2] ?? 0;
    if (slotsLog2 !== geometryFor(Math.min(Math.max(maxKeys, 1), MAX_KEYS_PER_WINDOW_LIMIT)).slotsLog2) {
      throw new TypeError('SharedMemoryCounterStore buffer header is inconsistent');
    }
    const geometry = geometryFromLog2(maxKeys, slotsLog2);
    if (geometry.tableHeaderStride !== words[G_TABLE_HEADER_STRIDE] || geometry.totalWords * 4 > buffer.byteLength) {
      throw new TypeError('SharedMemoryCounterStore buffer header does not match its size');
    }
    return new SharedMemoryCounterStore(buffer, geometry);
  }

  /** Increments refused as full, by every thread. */
  get fullCount(): number {
    return Atomics.load(this.words, G_FULL_COUNT);
  }

  increment(increments: readonly CounterIncrement[]): number[] {
    const n = increments.length;
    if (n === 1) {
      const inc = increments[0]!;
      return [inc.algorithm === undefined ? this.incrementOne(inc, inc.hits) : this.countByAlgorithm(inc, inc.hits)];
    }
    const results: number[] = [];
    for (let i = 0; i < n; i++) {
      const inc = increments[i]!;
      results.push(inc.algorithm === undefined ? this.incrementOne(inc, inc.hits) : this.countByAlgorithm(inc, inc.hits));
    }
    return results;
  }

  read(increments: readonly CounterIncrement[]): number[] {
    const results: number[] = [];
    for (const inc of increments) results.push(inc.algorithm === undefined ? this.incrementOne(inc, 0) : this.countByAlgorithm(inc, 0));
    return results;
  }

  /**
   * Zeroes each counter's word with one atomic exchange, so a concurrent increment lands wholly
   * before (and is erased) or after (and counts from zero); a key never counted stays unclaimed.
   * A token bucket is set full in its current window's table (its previous window is then no
   * longer carried over); one another thread already moved to the next window is set full there.
   */
  reset(increments: readonly CounterIncrement[]): void {
    const zero = (at: number) => (at < 0 ? 0 : Atomics.exchange(this.words, at, 0));
    for (const inc of increments) {
      const count = inc.algorithm;
      if (count?.algorithm === Algorithm.TOKEN_BUCKET) {
        this.refillBucket(inc, count);
        continue;
      }
      this.atSlot(inc.key, inc.unit, inc.windowStart, false, zero);
      if (count !== undefined) this.atSlot(count.previousKey, inc.unit, inc.windowStart - (UNIT_SECONDS[inc.unit] ?? 0), false, zero);
    }
  }

  private refillBucket(inc: CounterIncrement, count: AlgorithmCount): void {
    const full = encodeFullAt(0, bucketShape(count.limit)) | 0;
    const seconds = UNIT_SECONDS[inc.unit] ?? 0;
    for (let windowStart = inc.windowStart; ; windowStart += seconds) {
      const moved = this.atSlot(inc.key, inc.unit, windowStart, true, (at) => {
        if (at < 0) return 0; // that window's table is gone: the bucket was not counted since
        for (;;) {
          const word = Atomics.load(this.words, at);
          if (word >>> 0 === SEALED) return MOVED;
          if (Atomics.compareExchange(this.words, at, word, full) === word) return 0;
        }
      });
      if (moved !== MOVED) return;
    }
  }

  /**
   * A sliding window or token bucket count (algorithms.ts): the count after as the engine reads
   * it, the hits added only when allowed, with one compareExchange on the key's word.
   */
  private countByAlgorithm(inc: CounterIncrement, hits: number): number {
    const count = inc.algorithm!;
    const seconds = UNIT_SECONDS[inc.unit] ?? 0;
    if (count.algorithm === Algorithm.SLIDING_WINDOW) {
      const previous = this.atSlot(count.previousKey, inc.unit, inc.windowStart - seconds, false, (at) => (at < 0 ? 0 : Atomics.load(this.words, at) >>> 0));
      const elapsedMs = count.nowMs - inc.windowStart * 1000;
      return this.atSlot(inc.key, inc.unit, inc.windowStart, hits > 0, (at) =>
        at < 0 ? slidingWindowCount(previous, 0, elapsedMs, count.unitMs) + hits : slidingWindowAdd(this.words, at, previous, elapsedMs, count, hits),
      );
    }
    let windowStart = inc.windowStart;
    let nowMs = count.nowMs;
    for (;;) {
      const after = this.atSlot(inc.key, inc.unit, windowStart, true, (at) =>
        at < 0 ? this.expiredBucket(count, hits) : this.takeTokens(at, inc.key, inc.unit, windowStart, nowMs, count, hits),
      );
      if (after !== MOVED) return after;
      // Another thread already counts this bucket in the next window: count there, at its start.
      windowStart += seconds;
      nowMs = Math.max(nowMs, windowStart * 1000);
    }
  }

  /**
   * A bucket whose window's table already holds a later window (the request waited across the
   * ring of tables): answered as a full bucket and not counted, as a fixed window's late increment
   * is answered as a fresh counter.
   */
  private expiredBucket(count: AlgorithmCount, hits: number): number {
    Atomics.add(this.words, G_EXPIRED_COUNT, 1);
    return tokenBucketAfter(count.limit, hits, count.limit);
  }

  /**
   * A token bucket in one word of the window's table (bucket-word.ts). Its first use in a window
   * carries the bucket over from the previous window's word, which it seals, so a thread still in
   * the previous window cannot take tokens there unseen.
   */
  private takeTokens(at: number, key: string, unit: Unit, windowStart: number, nowMs: number, count: AlgorithmCount, hits: number): number {
    const words = this.words;
    const shape = bucketShape(count.limit);
    const nowTokens = ((nowMs - windowStart * 1000) * count.limit) / count.unitMs;
    for (let spins = 0; ; spins++) {
      const word = Atomics.load(words, at) >>> 0;
      if (word === SEALED) return MOVED;
      if (word === UNSET) {
        const carried = this.sealPrevious(key, unit, windowStart);
        if (carried === SEALED && spins < SPIN_LIMIT) continue; // the sealer is about to set this word
        const initial = encodeFullAt(Math.max(0, (carried === SEALED ? 0 : decodeFullAt(carried, shape)) - count.limit), shape);
        Atomics.compareExchange(words, at, UNSET, initial | 0);
        continue;
      }
      const fullAt = decodeFullAt(word, shape);
      const tokens = count.limit - Math.max(0, fullAt - nowTokens);
      const after = tokenBucketAfter(tokens + shape.slack, hits, count.limit);
      if (hits <= 0 || after > count.limit) return after;
      const next = encodeFullAt(Math.max(fullAt, nowTokens) + hits, shape);
      if (Atomics.compareExchange(words, at, word | 0, next | 0) === (word | 0)) return after;
    }
  }

  /** Seals the bucket's word of the previous window and answers what it held (UNSET for none), or SEALED if another thread did. */
  private sealPrevious(key: string, unit: Unit, windowStart: number): number {
    const previousStart = windowStart - (UNIT_SECONDS[unit] ?? 0);
    return this.atSlot(key, unit, previousStart, true, (at) => {
      if (at < 0) return UNSET;
      for (;;) {
        const word = Atomics.load(this.words, at) >>> 0;
        if (word === SEALED) return SEALED;
        if (Atomics.compareExchange(this.words, at, word | 0, SEALED | 0) === (word | 0)) return word;
      }
    });
  }

  /**
   * Runs `use` on the count word of `key` in the table of `windowStart` (-1 when absent and not
   * claimed, or when that window's table already holds a later one), again if the table was
   * recycled meanwhile. Restores the fingerprint it hashes.
   */
  private atSlot(key: string, unit: Unit, windowStart: number, claim: boolean, use: (at: number) => number): number {
    const seconds = UNIT_SECONDS[unit] ?? 0;
    if (!(seconds > 0)) throw new CounterStoreError(`cannot count a limit with unit ${unitName(unit)}`);
    const windowNumber = Math.floor(windowStart / seconds);
    const table = this.tableIndex(unit, windowNumber);
    const header = this.headerOf(table);
    const base = this.slotsBase + table * this.tableWords;
    const words = this.words;
    for (;;) {
      fingerprint(key, this.fp);
      const seq = this.openTable(table, windowTag(windowNumber));
      if (seq === EXPIRED) return use(-1);
      const slot = this.locate(header, base, claim);
      if (slot === EXHAUSTED && claim) {
        if (Atomics.load(words, header + TH_SEQ) !== seq) continue;
        Atomics.add(words, G_FULL_COUNT, 1);
        throw new CounterStoreError(`embedded counter store is full: no free slot for a ${unitName(unit)} key; raise ${MAX_KEYS_SETTING}`);
      }
      const result = use(slot >= 0 ? slot : -1);
      if (Atomics.load(words, header + TH_SEQ) === seq) return result;
    }
  }

  /**
   * Pre-clears the W+1 table of every unit so the hot path rarely clears. Call it from a
   * main-thread timer (once a second is plenty); a table with no keys costs one tag write.
   */
  maintain(nowSeconds: number): void {
    for (const unit of LIMIT_UNITS) {
      const next = Math.floor(nowSeconds / (UNIT_SECONDS[unit] ?? 1)) + 1;
      this.openTable(this.tableIndex(unit, next), windowTag(next));
    }
  }

  stats(): SharedMemoryCounterStats {
    const keysInUseByUnit: Record<string, number> = {};
    let keysInUse = 0;
    for (const unit of LIMIT_UNITS) {
      let used = 0;
      for (let ring = 0; ring < WINDOWS_PER_UNIT; ring++) {
        used += Atomics.load(this.words, this.headerOf((unit - 1) * WINDOWS_PER_UNIT + ring) + TH_USED);
      }
      keysInUseByUnit[unitName(unit)] = used;
      keysInUse += used;
    }
    return {
      keysInUse,
      keysInUseByUnit,
      fullCount: this.fullCount,
      expiredCount: Atomics.load(this.words, G_EXPIRED_COUNT),
      tableClears: Atomics.load(this.words, G_CLEAR_COUNT),
      bytesReserved: this.buffer.byteLength,
      maxKeysPerWindow: this.maxKeysPerWindow,
    };
  }

  /** Nothing to release: the buffer lives as long as some thread references it. */
  close(): Promise<void> {
    return Promise.resolve();
  }

  private incrementOne(increment: CounterIncrement, hits: number): number {
    const unit = increment.unit;
    const windowStart = increment.windowStart;
    const count = hits >= MAX_COUNT ? MAX_COUNT : hits > 0 ? Math.floor(hits) : 0;
    // Nearly every increment of a unit is for the same window as the previous one: reuse its
    // table and tag instead of a division and a floating-point modulo.
    let table: number;
    let tag: number;
    if (this.lastWindowStart[unit] === windowStart) {
      table = this.lastTable[unit]!;
      tag = this.lastTag[unit]!;
    } else {
      const seconds = UNIT_SECONDS[unit] ?? 0;
      if (!(seconds > 0)) throw new CounterStoreError(`cannot count a limit with unit ${unitName(unit)}`);
      const windowNumber = Math.floor(windowStart / seconds);
      if (!Number.isSafeInteger(windowNumber)) throw new CounterStoreError(`invalid window start ${windowStart}`);
      table = this.tableIndex(unit, windowNumber);
      tag = windowTag(windowNumber);
      this.lastWindowStart[unit] = windowStart;
      this.lastTable[unit] = table;
      this.lastTag[unit] = tag;
    }
    const header = this.headerOf(table);
    const base = this.slotsBase + table * this.tableWords;
    this.fingerprintOf(increment);
    const words = this.words;
    for (;;) {
      const seq = this.openTable(table, tag);
      if (seq === EXPIRED) {
        Atomics.add(words, G_EXPIRED_COUNT, 1);
        return count;
      }
      const slot = this.locate(header, base, count !== 0);
      let result: number;
      if (slot >= 0) {
        result = count === 0 ? Atomics.load(words, slot) >>> 0 : this.addSaturating(slot, count);
      } else if (slot === NOT_FOUND || count === 0) {
        result = 0; // a key is always within its probe sequence, so a read that exhausts it found none
      } else {
        if (Atomics.load(words, header + TH_SEQ) !== seq) continue; // recycled while probing
        Atomics.add(words, G_FULL_COUNT, 1);
        throw new CounterStoreError(
          `embedded counter store is full: no free slot for a ${unitName(unit)} key ` +
            `(sized for ${this.maxKeysPerWindow} keys per window of each unit); raise ${MAX_KEYS_SETTING}`,
        );
      }
      // The tag only changes under an odd seq, so an unchanged seq means the table held our
      // window throughout. Otherwise it was recycled underneath (a stall across 3 windows): retry.
      if (Atomics.load(words, header + TH_SEQ) === seq) return result;
    }
  }

  /** Puts the fingerprint of the increment's key in `fp`: kept on the increment, computed when its key is new. */
  private fingerprintOf(increment: CounterIncrement): void {
    const fp = this.fp;
    const kept = increment.keyFingerprint;
    // The same string object on a repeat: one pointer comparison.
    if (kept !== undefined && kept.key === increment.key) {
      fp[FP_HI] = kept.hi;
      fp[FP_LO] = kept.lo;
      return;
    }
    fingerprint(increment.key, fp);
    increment.keyFingerprint = { key: increment.key, hi: fp[FP_HI] as number, lo: fp[FP_LO] as number };
  }

  /** Word offset of the key's count, or NOT_FOUND (read of an absent key) / EXHAUSTED. */
  private locate(header: number, base: number, claim: boolean): number {
    const hi = this.fp[FP_HI]!;
    const lo = this.fp[FP_LO]!;
    const slots = this.slots;
    const level0 = this.words[header + TH_LEVEL0_SLOTS]!;
    // Start positions drop bit 0, which `| 1` fixed in both fingerprint halves.
    if (level0 === slots) return this.probe(header, base, 0, slots - 1, hi >>> 1, PROBE_CAP, hi, lo, claim);
    let found = this.probe(header, base, 0, level0 - 1, hi >>> 1, LEVEL_PROBE_CAP, hi, lo, claim);
    // Level k >= 1 is [first, 2 * first) with first = level0 * 2^(k-1).
    for (let first = level0, level = 1; found === EXHAUSTED; first *= 2, level++) {
      const last = first * 2 === slots;
      found = this.probe(header, base, first, first - 1, levelStart(hi, lo, level), last ? PROBE_CAP : LEVEL_PROBE_CAP, hi, lo, claim);
      if (last) break;
    }
    return found;
  }

  /**
   * Probes the level of slots [first, first + mask] from `start` (masked) with triangular steps
   * (offsets 0, 1, 3, 6, ...: far less clustering than linear probing, and the first probes share
   * cache lines), at most `cap` slots. The first slot that is empty or holds the key wins; a slot
   * once claimed keeps its key until the table is cleared, so every thread walks to the same slot.
   */
  private probe(
    header: number,
    base: number,
    first: number,
    mask: number,
    start: number,
    cap: number,
    hi: number,
    lo: number,
    claim: boolean,
  ): number {
    const words = this.words;
    let offset = start & mask;
    for (let step = 1; step <= cap; step++) {
      const index = first + offset;
      const slot = base + index * SLOT_WORDS;
      let seen = words[slot]!;
      if (seen === 0) {
        if (!claim) return NOT_FOUND;
        seen = Atomics.compareExchange(words, slot, 0, hi);
        if (seen === 0) {
          Atomics.store(words, slot + SLOT_FP_LO, lo);
          this.recordClaim(header, index);
          return slot + SLOT_COUNT;
        }
      }
      if (seen === hi && this.publishedLo(slot + SLOT_FP_LO, header) === lo) return slot + SLOT_COUNT;
      offset = (offset + step) & mask;
    }
    return EXHAUSTED;
  }

  /** fpLo of a slot whose fpHi is set; the claimer stores it right after its compareExchange. */
  private publishedLo(at: number, header: number): number {
    const words = this.words;
    let lo = words[at]!;
    if (lo !== 0) return lo;
    const seq = Atomics.load(words, header + TH_SEQ);
    for (let spins = 1; spins <= SPIN_LIMIT; spins++) {
      lo = Atomics.load(words, at);
      if (lo !== 0) return lo;
      // A recycled table never publishes it; the caller's seq check then retries.
      if (spins % SPIN_CHECK_EVERY === 0 && Atomics.load(words, header + TH_SEQ) !== seq) return 0;
    }
    return 0;
  }

  private recordClaim(header: number, index: number): void {
    const words = this.words;
    Atomics.add(words, header + TH_USED, 1);
    const chunk = index >>> CHUNK_SLOTS_LOG2;
    const word = header + TH_DIRTY + (chunk >>> 5);
    const bit = 1 << (chunk & 31);
    if ((words[word]! & bit) === 0) Atomics.or(words, word, bit);
  }

  /**
   * Adds with compare-and-swap so the stored unsigned count stops at MAX_COUNT instead of
   * wrapping. The caller gets the true sum, past MAX_COUNT if need be: a saturated counter must
   * still read as over a limit of MAX_COUNT (4294967295), which a stored MAX_COUNT would not be.
   */
  private addSaturating(at: number, count: number): number {
    const words = this.words;
    let old = words[at]!; // the compareExchange below validates it
    for (;;) {
      const before = old >>> 0;
      const sum = before + count;
      const after = sum > MAX_COUNT ? MAX_COUNT : sum;
      if (after === before) return sum;
      const seen = Atomics.compareExchange(words, at, old, after | 0);
      if (seen === old) return sum;
      old = seen;
    }
  }

  /**
   * Makes table `table` hold the window tagged `tag` and returns the (even) seq under which it
   * does, or EXPIRED if it already holds a later window. A table holding an earlier window (or
   * none) is recycled by whichever thread wins the seqlock; the others wait for it.
   */
  private openTable(table: number, tag: number): number {
    const words = this.words;
    const header = this.headerOf(table);
    for (;;) {
      const seq = Atomics.load(words, header + TH_SEQ);
      if ((seq & 1) !== 0) {
        this.waitForClear(header, seq);
        continue;
      }
      const held = words[header + TH_TAG]!;
      if (held === tag) return seq;
      if (held !== 0 && ((tag - held) | 0) < 0) return EXPIRED;
      const clearing = (seq + 1) | 0;
      if (Atomics.compareExchange(words, header + TH_SEQ, seq, clearing) !== seq) continue;
      this.recycle(table, header, tag);
      Atomics.compareExchange(words, header + TH_SEQ, clearing, (seq + 2) | 0);
      Atomics.notify(words, header + TH_SEQ);
    }
  }

  /** Under the seqlock: zero the chunks written in the old window, size level 0, set the tag. */
  private recycle(table: number, header: number, tag: number): void {
    const words = this.words;
    const ringStart = table - (table % WINDOWS_PER_UNIT);
    let recentKeys = 0;
    for (let ring = 0; ring < WINDOWS_PER_UNIT; ring++) {
      recentKeys = Math.max(recentKeys, Atomics.load(words, this.headerOf(ringStart + ring) + TH_USED));
    }
    this.zeroDirty(table, header);
    Atomics.store(words, header + TH_LEVEL0_SLOTS, this.level0Slots(recentKeys));
    Atomics.store(words, header + TH_TAG, tag);
    Atomics.add(words, G_CLEAR_COUNT, 1);
  }

  private zeroDirty(table: number, header: number): void {
    const words = this.words;
    if (Atomics.load(words, header + TH_USED) !== 0) {
      const base = this.slotsBase + table * this.tableWords;
      const chunkWords = (1 << CHUNK_SLOTS_LOG2) * SLOT_WORDS;
      const bitmapWords = this.headerStride - TH_DIRTY;
      for (let w = 0; w < bitmapWords; w++) {
        const bits = words[header + TH_DIRTY + w] ?? 0;
        if (bits === 0) continue;
        for (let b = 0; b < 32; b++) {
          if ((bits & (1 << b)) === 0) continue;
          const from = base + (w * 32 + b) * chunkWords;
          words.fill(0, from, Math.min(from + chunkWords, base + this.tableWords));
        }
        words[header + TH_DIRTY + w] = 0;
      }
    }
    Atomics.store(words, header + TH_USED, 0);
  }

  /** Level-0 prefix for a window: LEVEL0_HEADROOM x recent keys; the whole table when that is over half. */
  private level0Slots(recentKeys: number): number {
    let slots = MIN_LEVEL0_SLOTS;
    while (slots < LEVEL0_HEADROOM * recentKeys && slots < this.slots) slots *= 2;
    return slots * 2 > this.slots ? this.slots : slots;
  }

  private waitForClear(header: number, seq: number): void {
    const words = this.words;
    const since = Date.now();
    while (Atomics.load(words, header + TH_SEQ) === seq) {
      Atomics.wait(words, header + TH_SEQ, seq, CLEAR_WAIT_MS);
      if (Date.now() - since > CLEAR_STEAL_MS) {
        // The clearer was terminated mid-clear: take the lock over (it stays odd), empty the
        // table and untag it so the next opener recycles it normally.
        const stolen = (seq + 2) | 0;
        if (Atomics.compareExchange(words, header + TH_SEQ, seq, stolen) !== seq) return;
        const table = (header - this.headersBase) / this.headerStride;
        this.zeroDirty(table, header);
        Atomics.store(words, header + TH_TAG, 0);
        Atomics.store(words, header + TH_SEQ, (stolen + 1) | 0);
        Atomics.notify(words, header + TH_SEQ);
        return;
      }
    }
  }

  private tableIndex(unit: Unit, windowNumber: number): number {
    const ring = ((windowNumber % WINDOWS_PER_UNIT) + WINDOWS_PER_UNIT) % WINDOWS_PER_UNIT;
    return (unit - 1) * WINDOWS_PER_UNIT + ring;
  }

  private headerOf(table: number): number {
    return this.headersBase + table * this.headerStride;
  }
}

/** Start of a key in probe level `level` >= 1: fresh bits per level, so keys that crowded one level spread in the next. */
function levelStart(hi: number, lo: number, level: number): number {
  let x = (lo + Math.imul(level, 0x9e3779b9)) ^ hi;
  x = Math.imul(x ^ (x >>> 16), 0x85ebca6b);
  return (x ^ (x >>> 13)) >>> 1;
}

/** A sliding window's conditional add: the hits join the current count only if the estimate stays within the limit. */
function slidingWindowAdd(words: Int32Array, at: number, previous: number, elapsedMs: number, count: AlgorithmCount, hits: number): number {
  for (;;) {
    const current = Atomics.load(words, at);
    const after = slidingWindowCount(previous, current >>> 0, elapsedMs, count.unitMs) + hits;
    if (hits <= 0 || after > count.limit) return after;
    const sum = Math.min(MAX_COUNT, (current >>> 0) + hits);
    if (Atomics.compareExchange(words, at, current, sum | 0) === current) return after;
  }
}

/** Tag stored for a window: its number + 1 as int32 (never 0, which marks an unused table). */
function windowTag(windowNumber: number): number {
  return ((windowNumber + 1) | 0) || 1;
}
