/**
 * Layout of the one SharedArrayBuffer behind SharedMemoryCounterStore. Every offset is in
 * 32-bit words of an Int32Array over the whole buffer; every thread derives the same geometry
 * from the global header, so `attach` needs nothing but the buffer.
 *
 * ```
 *  word 0                                                   (all offsets in Int32 words)
 *  +-- global header (GLOBAL_HEADER_WORDS = 32) -------------------------------------------+
 *  | 0 MAGIC | 1 VERSION | 2 MAX_KEYS | 3 SLOTS_LOG2 | 4 TABLE_HEADER_STRIDE | 5..15 0     |
 *  | 16 FULL_COUNT | 17 EXPIRED_COUNT | 18 CLEAR_COUNT | 19..31 0  (own cache lines)       |
 *  +-- table headers: TABLE_COUNT = 7 units x 3 windows, each TABLE_HEADER_STRIDE words ---+
 *  | table t = (unit - 1) * 3 + (windowNumber mod 3)                                        |
 *  |  0 TAG (windowNumber + 1) | 1 SEQ (odd while clearing) | 2 LEVEL0_SLOTS | 3..15 0      |
 *  | 16 USED (claimed slots)   | 17..31 0                                                   |
 *  | 32.. DIRTY bitmap: bit c set once a slot of chunk c (slots c*1024 .. c*1024+1023) is   |
 *  |      claimed; a clear zero-fills only those chunks                                     |
 *  +-- padding to a 4096-byte page boundary ------------------------------------------------+
 *  +-- slots of table 0: SLOTS (power of two) x [fpHi, fpLo, count] -----------------------+
 *  | slot i at SLOTS_BASE + t * SLOTS * 3 + i * 3                                           |
 *  |   fpHi  0 = empty; claimed with compareExchange(0 -> fpHi)                             |
 *  |   fpLo  0 = being published; stored right after the claim                              |
 *  |   count unsigned 32-bit (read with >>> 0), saturating at 4294967295                    |
 *  +-- slots of table 1 ... table 20 ------------------------------------------------------+
 * ```
 *
 * Why probe levels. A hash spreads even a few keys over every page of a table, so a generously
 * reserved table would become resident after a handful of keys. Each window therefore fills a
 * table from the front, in levels of doubling size, every level a power of two at a
 * power-of-two offset:
 *
 *   slots of one table:  [0, L) [L, 2L) [2L, 4L) [4L, 8L) ... [SLOTS/2, SLOTS)
 *                         lvl 0  lvl 1   lvl 2    lvl 3        last level
 *
 * L (LEVEL0_SLOTS in the header) is chosen when the table is cleared for a window: LEVEL0_HEADROOM
 * x the most keys any table of the unit holds now, at least MIN_LEVEL0_SLOTS, and the whole table
 * when that exceeds half of it. A key probes each level for LEVEL_PROBE_CAP slots (PROBE_CAP in the
 * last one) and lands in the first level with room, so steady traffic lives in level 0 and a
 * spike spills into the next levels only as far as it needs: resident memory follows the keys
 * actually counted. Tables are insert-only within a window, so a key's probe sequence is fixed and
 * every thread finds the same slot: the first on it that was empty or already held the key. The
 * chunks written are recorded in DIRTY so that a clear zero-fills only those.
 */

/** "RLM1": guards `attach` against a buffer that is not ours. */
export const MAGIC = 0x524c4d31;
export const VERSION = 1;

// Global header (word offsets).
export const G_MAGIC = 0;
export const G_VERSION = 1;
export const G_MAX_KEYS = 2;
export const G_SLOTS_LOG2 = 3;
export const G_TABLE_HEADER_STRIDE = 4;
/** Increments refused because the probe cap was hit; every thread adds to it. */
export const G_FULL_COUNT = 16;
/** Increments for a window whose table already holds a later window (thread stalled 3 windows). */
export const G_EXPIRED_COUNT = 17;
/** Tables recycled for a new window, by the hot path or by maintain(). */
export const G_CLEAR_COUNT = 18;
export const GLOBAL_HEADER_WORDS = 32;

// Table header (word offsets from the table's header base).
/** (windowNumber + 1) | 0 of the window the table holds; 0 = never used. */
export const TH_TAG = 0;
/** Seqlock: odd while a thread clears the table; +2 per clear. */
export const TH_SEQ = 1;
/** Size of probe level 0 (a power of two <= slots), chosen when the table was cleared. */
export const TH_LEVEL0_SLOTS = 2;
/** Claimed slots; on its own cache line so claims do not disturb TAG/SEQ readers. */
export const TH_USED = 16;
/** First word of the dirty-chunk bitmap. */
export const TH_DIRTY = 32;

/** Words per slot and the offsets inside one. */
export const SLOT_WORDS = 3;
export const SLOT_FP_HI = 0;
export const SLOT_FP_LO = 1;
export const SLOT_COUNT = 2;

/** Enum values SECOND..WEEK are 1..7; a unit's tables start at (unit - 1) * WINDOWS_PER_UNIT. */
export const UNIT_COUNT = 7;
/** Windows W-1, W, W+1. */
export const WINDOWS_PER_UNIT = 3;
export const TABLE_COUNT = UNIT_COUNT * WINDOWS_PER_UNIT;

/** Dirty tracking granularity: 1024 slots = 12 KiB = exactly 3 pages. */
export const CHUNK_SLOTS_LOG2 = 10;
export const PAGE_BYTES = 4096;

/** Probes in the last level before the store reports itself full. */
export const PROBE_CAP = 64;
/** Probes in every other level before falling through to the next. */
export const LEVEL_PROBE_CAP = 8;
export const MIN_LEVEL0_SLOTS = 4096;
/** Level 0 gets this many slots per key seen recently in the unit (load 0.25 when steady). */
export const LEVEL0_HEADROOM = 4;

/** Largest count a slot holds. */
export const MAX_COUNT = 4294967295;
/**
 * Upper bound of the setting: 2^25 slots per table keeps the whole buffer under 2^31 words,
 * the longest Int32Array V8 makes (about 7.9 GiB reserved, touched only as keys arrive).
 */
export const MAX_KEYS_PER_WINDOW_LIMIT = 2 ** 24;

export interface Geometry {
  readonly maxKeysPerWindow: number;
  readonly slotsLog2: number;
  /** Slots per table, a power of two >= 2 x maxKeysPerWindow (load factor <= 0.5). */
  readonly slots: number;
  readonly tableHeaderStride: number;
  /** Word offset of the first table header. */
  readonly headersBase: number;
  /** Word offset of table 0's first slot (page aligned). */
  readonly slotsBase: number;
  readonly totalWords: number;
}

/** Geometry for a capacity; throws RangeError for a capacity outside [1, 2^24]. */
export function geometryFor(maxKeysPerWindow: number): Geometry {
  if (!Number.isInteger(maxKeysPerWindow) || maxKeysPerWindow < 1 || maxKeysPerWindow > MAX_KEYS_PER_WINDOW_LIMIT) {
    throw new RangeError(
      `maxKeysPerWindow must be an integer in [1, ${MAX_KEYS_PER_WINDOW_LIMIT}], got ${maxKeysPerWindow}`,
    );
  }
  let slotsLog2 = 3;
  while (2 ** slotsLog2 < 2 * maxKeysPerWindow) slotsLog2++;
  return geometryFromLog2(maxKeysPerWindow, slotsLog2);
}

export function geometryFromLog2(maxKeysPerWindow: number, slotsLog2: number): Geometry {
  const slots = 2 ** slotsLog2;
  const chunks = Math.max(1, slots >>> CHUNK_SLOTS_LOG2);
  const bitmapWords = Math.ceil(chunks / 32);
  // Strides stay multiples of 16 words (64 bytes) so no two tables share a cache line.
  const tableHeaderStride = TH_DIRTY + Math.ceil(bitmapWords / 16) * 16;
  const headersBase = GLOBAL_HEADER_WORDS;
  const pageWords = PAGE_BYTES / 4;
  const headersEnd = headersBase + TABLE_COUNT * tableHeaderStride;
  const slotsBase = Math.ceil(headersEnd / pageWords) * pageWords;
  const totalWords = slotsBase + TABLE_COUNT * slots * SLOT_WORDS;
  return { maxKeysPerWindow, slotsLog2, slots, tableHeaderStride, headersBase, slotsBase, totalWords };
}

/** Bytes reserved (virtual, not resident) for a capacity. */
export function reservedBytes(maxKeysPerWindow: number): number {
  return geometryFor(maxKeysPerWindow).totalWords * 4;
}
