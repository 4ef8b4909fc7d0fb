/**
 * Bytes of request bodies held by every HTTP thread together, from the first byte read until the
 * answer went out: one counter in shared memory. Without it, each connection may hold a body of
 * the largest size and a few hundred slow uploads hold gigabytes; with it, a request that would
 * pass the budget is refused at once (503) and holds nothing.
 */
export class BodyBudget {
  private constructor(
    readonly buffer: SharedArrayBuffer,
    private readonly slots: Int32Array,
  ) {}

  /** A budget of `maxBytes` (at most 2^31 - 1), for the main thread to share with the others. */
  static create(maxBytes: number): BodyBudget {
    const buffer = new SharedArrayBuffer(2 * Int32Array.BYTES_PER_ELEMENT);
    const slots = new Int32Array(buffer);
    slots[LIMIT] = maxBytes;
    return new BodyBudget(buffer, slots);
  }

  static attach(buffer: SharedArrayBuffer): BodyBudget {
    return new BodyBudget(buffer, new Int32Array(buffer));
  }

  get maxBytes(): number {
    return Atomics.load(this.slots, LIMIT);
  }

  get heldBytes(): number {
    return Atomics.load(this.slots, HELD);
  }

  /** Takes `bytes`, or nothing (false) when that would pass the budget. */
  take(bytes: number): boolean {
    const limit = this.maxBytes;
    for (;;) {
      const held = Atomics.load(this.slots, HELD);
      if (held + bytes > limit) return false;
      if (Atomics.compareExchange(this.slots, HELD, held, held + bytes) === held) return true;
    }
  }

  give(bytes: number): void {
    Atomics.sub(this.slots, HELD, bytes);
  }
}

/** Slot indexes in the shared buffer. */
const HELD = 0;
const LIMIT = 1;
