import { isUtf8 } from 'node:buffer';
import type { DescriptorEntry, LimitOverride, RateLimitRequest, RequestDescriptor } from '../../engine/index.js';

/**
 * Protobuf wire format -> RateLimitRequest, written by hand for two reasons: it is the gRPC hot
 * path (no intermediate message objects, no Long for uint64), and it must be strict where
 * protobufjs is lenient: protobufjs cuts a string whose length runs past the message end and
 * ignores a known field's wire type, so truncated or garbled requests were decided as if valid.
 * Like Go's proto.Unmarshal, this refuses truncation, wrong wire types, groups, field 0 and
 * strings that are not UTF-8, and skips unknown fields.
 *
 *   RateLimitRequest     1 domain: string   2 descriptors: RateLimitDescriptor   3 hits_addend: uint32
 *   RateLimitDescriptor  1 entries: Entry   2 limit: RateLimitOverride           3 hits_addend: UInt64Value
 *   Entry                1 key: string      2 value: string
 *   RateLimitOverride    1 requests_per_unit: uint32   2 unit: enum
 *   UInt64Value          1 value: uint64
 */
export class MalformedMessage extends Error {
  override readonly name = 'MalformedMessage';
}

const VARINT = 0;
const FIXED64 = 1;
const LENGTH_DELIMITED = 2;
const START_GROUP = 3;
const END_GROUP = 4;
const FIXED32 = 5;

/**
 * `latin1Slice` is what `toString('latin1', start, end)` ends in, minus the argument checks and
 * the encoding lookup; an old, undocumented Buffer method, so used only when present (as
 * fingerprint.ts does with ucs2Write).
 */
type Latin1Slicing = Buffer & { latin1Slice?: (start: number, end: number) => string };
const DIRECT_LATIN1 = typeof (Buffer.prototype as Latin1Slicing).latin1Slice === 'function';

/**
 * One reader per request. A sub-message narrows `end` to its own length for the time it is read
 * (`enter`/`leave`) instead of getting a reader of its own: one object per call, not one per entry.
 */
class Reader {
  constructor(
    readonly buf: Buffer,
    public pos: number,
    public end: number,
  ) {}

  /** Reads a length prefix and narrows the reader to that sub-message; returns the outer end. */
  enter(): number {
    const outer = this.end;
    this.end = this.lengthDelimited();
    return outer;
  }

  /** Back to the outer message, past the sub-message. */
  leave(outer: number): void {
    this.pos = this.end;
    this.end = outer;
  }

  /** A varint's low 32 bits, unsigned (uint32 and enum fields keep only those, as protobuf says). */
  uint32(): number {
    let result = 0;
    for (let shift = 0; shift < 70; shift += 7) {
      if (this.pos >= this.end) throw new MalformedMessage('truncated varint');
      const byte = this.buf[this.pos++] as number;
      if (shift < 32) result |= (byte & 0x7f) << shift;
      if (byte < 0x80) return result >>> 0;
    }
    throw new MalformedMessage('varint longer than 10 bytes');
  }

  /** A uint64 varint as a number, clamped at 2^53-1 (a hit count beyond that is meaningless). */
  uint64(): number {
    let result = 0;
    let scale = 1;
    for (let i = 0; i < 10; i++) {
      if (this.pos >= this.end) throw new MalformedMessage('truncated varint');
      const byte = this.buf[this.pos++] as number;
      result += (byte & 0x7f) * scale;
      scale *= 128;
      if (byte < 0x80) return Math.min(result, Number.MAX_SAFE_INTEGER);
    }
    throw new MalformedMessage('varint longer than 10 bytes');
  }

  /** The end offset of a length-delimited field that starts here. */
  lengthDelimited(): number {
    const length = this.uint32();
    const end = this.pos + length;
    if (end > this.end) throw new MalformedMessage('length runs past the end of the message');
    return end;
  }

  string(): string {
    const end = this.lengthDelimited();
    const { buf, pos } = this;
    this.pos = end;
    let ascii = true;
    for (let i = pos; i < end; i++) {
      if ((buf[i] as number) >= 0x80) {
        ascii = false;
        break;
      }
    }
    if (ascii) return DIRECT_LATIN1 ? (buf as Latin1Slicing).latin1Slice!(pos, end) : buf.toString('latin1', pos, end);
    if (!isUtf8(buf.subarray(pos, end))) throw new MalformedMessage('string field is not valid UTF-8');
    return buf.toString('utf8', pos, end);
  }

  /** Reads a field key; the field number is returned and the wire type kept in `wireType`. */
  wireType = 0;
  field(): number {
    const key = this.uint32();
    this.wireType = key & 7;
    const number = key >>> 3;
    if (number === 0) throw new MalformedMessage('field number 0');
    return number;
  }

  expect(wireType: number): void {
    if (this.wireType !== wireType) throw new MalformedMessage(`wire type ${this.wireType} where ${wireType} belongs`);
  }

  skip(): void {
    switch (this.wireType) {
      case VARINT:
        this.uint64();
        return;
      case FIXED64:
        this.advance(8);
        return;
      case LENGTH_DELIMITED:
        this.pos = this.lengthDelimited();
        return;
      case FIXED32:
        this.advance(4);
        return;
      case START_GROUP:
      case END_GROUP:
        throw new MalformedMessage('groups are not allowed in proto3');
      default:
        throw new MalformedMessage(`invalid wire type ${this.wireType}`);
    }
  }

  private advance(bytes: number): void {
    if (this.pos + bytes > this.end) throw new MalformedMessage('truncated fixed-width field');
    this.pos += bytes;
  }
}

function entry(r: Reader): DescriptorEntry {
  const outer = r.enter();
  let key = '';
  let value = '';
  while (r.pos < r.end) {
    const field = r.field();
    if (field === 1) {
      r.expect(LENGTH_DELIMITED);
      key = r.string();
    } else if (field === 2) {
      r.expect(LENGTH_DELIMITED);
      value = r.string();
    } else r.skip();
  }
  r.leave(outer);
  return { key, value };
}

function override(r: Reader): LimitOverride {
  const outer = r.enter();
  let requestsPerUnit = 0;
  let unit = 0;
  while (r.pos < r.end) {
    const field = r.field();
    if (field === 1) {
      r.expect(VARINT);
      requestsPerUnit = r.uint32();
    } else if (field === 2) {
      r.expect(VARINT);
      unit = r.uint32() | 0;
    } else r.skip();
  }
  r.leave(outer);
  return { requestsPerUnit, unit };
}

function uint64Value(r: Reader): number {
  const outer = r.enter();
  let value = 0;
  while (r.pos < r.end) {
    if (r.field() === 1) {
      r.expect(VARINT);
      value = r.uint64();
    } else r.skip();
  }
  r.leave(outer);
  return value;
}

function descriptor(r: Reader): RequestDescriptor {
  const outer = r.enter();
  const result: RequestDescriptor = { entries: [] };
  while (r.pos < r.end) {
    const field = r.field();
    if (field === 1) {
      r.expect(LENGTH_DELIMITED);
      result.entries.push(entry(r));
    } else if (field === 2) {
      r.expect(LENGTH_DELIMITED);
      result.limit = override(r);
    } else if (field === 3) {
      r.expect(LENGTH_DELIMITED);
      result.hitsAddend = uint64Value(r);
    } else r.skip();
  }
  r.leave(outer);
  return result;
}

/** Throws MalformedMessage for bytes that are not a valid RateLimitRequest. */
export function decodeRateLimitRequestBytes(bytes: Buffer): RateLimitRequest {
  const r = new Reader(bytes, 0, bytes.length);
  const request: RateLimitRequest = { domain: '', descriptors: [], hitsAddend: 0 };
  while (r.pos < r.end) {
    const field = r.field();
    if (field === 1) {
      r.expect(LENGTH_DELIMITED);
      request.domain = r.string();
    } else if (field === 2) {
      r.expect(LENGTH_DELIMITED);
      request.descriptors.push(descriptor(r));
    } else if (field === 3) {
      r.expect(VARINT);
      request.hitsAddend = r.uint32();
    } else r.skip();
  }
  return request;
}
