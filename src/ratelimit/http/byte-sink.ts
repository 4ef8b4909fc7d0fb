/**
 * A growing buffer that an encoder writes UTF-8 into, reused from one encoding to the next. The
 * `/json` answer is written here as bytes, so that uWS takes them as they are: a string answer
 * cost a flatten of the concatenated string, a UTF-8 length scan and a UTF-8 copy on every request.
 */
export class ByteSink {
  private buffer: Uint8Array;
  private length = 0;
  /** Views of the buffer's first bytes, by length (see `written`); given up when the buffer grows. */
  private views: Array<Uint8Array | undefined> = [];

  constructor(initialBytes: number) {
    this.buffer = new Uint8Array(initialBytes);
  }

  /** Starts a new encoding: what was written before is given up. */
  reset(): void {
    this.length = 0;
  }

  /**
   * The bytes written since `reset`, lent: the next encoding writes over them. The view of each
   * length is made once (answers come in a few lengths), not one per encoding.
   */
  written(): Uint8Array {
    const length = this.length;
    let view = this.views[length];
    if (view === undefined) {
      view = this.buffer.subarray(0, length);
      this.views[length] = view;
    }
    return view;
  }

  byte(value: number): void {
    if (this.length === this.buffer.length) this.grow(1);
    this.buffer[this.length++] = value;
  }

  /** Bytes encoded once (see `utf8Bytes`). Short pieces are copied in a loop: `set` costs a call. */
  bytes(piece: Uint8Array): void {
    const n = piece.length;
    if (this.length + n > this.buffer.length) this.grow(n);
    const buffer = this.buffer;
    let at = this.length;
    if (n <= 16) {
      for (let i = 0; i < n; i++) buffer[at++] = piece[i] as number;
    } else {
      buffer.set(piece, at);
      at += n;
    }
    this.length = at;
  }

  /** Any string, as UTF-8 (lone surrogates become U+FFFD, as Go writes them). */
  text(value: string): void {
    if (this.length + value.length * 3 > this.buffer.length) this.grow(value.length * 3);
    this.length += utf8.encodeInto(value, this.buffer.subarray(this.length)).written;
  }

  /**
   * A number as `String` writes it. Counts below 2^31 (a limit's remaining count, different on
   * every request) are written digit by digit: V8's number-to-string conversion files each string
   * it makes in a cache the young-generation collector scans (see decimal-text.ts).
   */
  decimal(n: number): void {
    if (n >= 0 && n <= MAX_SMALL && (n | 0) === n) this.smallDecimal(n);
    else this.text(String(n));
  }

  /** 0 to 2^31 - 1 (a limit's remaining count), in integer arithmetic. */
  private smallDecimal(n: number): void {
    const count = n < 10 ? 1 : n < 100 ? 2 : n < 1000 ? 3 : n < 10_000 ? 4 : n < 100_000 ? 5 : n < 1_000_000 ? 6 : n < 10_000_000 ? 7 : n < 100_000_000 ? 8 : n < 1_000_000_000 ? 9 : 10;
    if (this.length + count > this.buffer.length) this.grow(count);
    const buffer = this.buffer;
    let at = this.length + count;
    this.length = at;
    let rest = n;
    do {
      const next = (rest / 10) | 0;
      buffer[--at] = ZERO + rest - next * 10;
      rest = next;
    } while (rest > 0);
  }

  private grow(needed: number): void {
    const bigger = new Uint8Array(Math.max(this.buffer.length * 2, this.length + needed));
    bigger.set(this.buffer.subarray(0, this.length));
    this.buffer = bigger;
    this.views = [];
  }
}

const ZERO = 0x30;
/** The largest count written in integer arithmetic. */
const MAX_SMALL = 0x7fffffff;
const utf8 = new TextEncoder();

/** The UTF-8 bytes of a piece written again and again, encoded once. */
export function utf8Bytes(text: string): Uint8Array {
  return utf8.encode(text);
}
