/**
 * The part of memcached's binary protocol the counters use, encoded by hand: this is the
 * decision path's store call, and a general client (memjs) costs one request and one answer per
 * key, with no multi-get and no pipelining. Reference: memcached's doc/protocol-binary.txt
 * (https://github.com/memcached/memcached/wiki/BinaryProtocolRevamped).
 *
 * Every packet is a 24-byte header, then extras, key and value:
 *
 *   magic(1) opcode(1) keyLength(2) extrasLength(1) dataType(1) vbucket|status(2)
 *   totalBodyLength(4) opaque(4) cas(8)
 *
 * The opaque is echoed in the answer, which is how a pipelined answer is matched to its request.
 * Quiet opcodes (GETKQ, INCREMENTQ) answer only a hit or a failure, so a batch ends with a
 * command that always answers (NOOP) and everything before it has then been answered.
 */

export const HEADER_BYTES = 24;
const REQUEST_MAGIC = 0x80;
export const RESPONSE_MAGIC = 0x81;

export const Opcode = {
  Increment: 0x05,
  Delete: 0x04,
  Noop: 0x0a,
  GetK: 0x0c,
  GetKQ: 0x0d,
  IncrementQ: 0x15,
} as const;

export const Status = {
  Ok: 0x00,
  KeyNotFound: 0x01,
  NotStored: 0x05,
} as const;

/** memcached's names for the statuses it answers (protocol_binary.h). */
const STATUS_TEXT: Record<number, string> = {
  0x01: 'key not found',
  0x02: 'key exists',
  0x03: 'value too large',
  0x04: 'invalid arguments',
  0x05: 'item not stored',
  0x06: 'incr/decr on a non-numeric value',
  0x07: 'vbucket belongs to another server',
  0x08: 'authentication error',
  0x20: 'authentication error',
  0x81: 'unknown command',
  0x82: 'out of memory',
  0x83: 'not supported',
  0x84: 'internal error',
  0x85: 'busy',
  0x86: 'temporary failure',
};

export function statusText(status: number): string {
  return STATUS_TEXT[status] ?? `status 0x${status.toString(16)}`;
}

const INCREMENT_EXTRAS_BYTES = 20;

/** One answer, read in place: `body` is extras + key + value. */
export interface ResponseFrame {
  opcode: number;
  status: number;
  opaque: number;
  extrasLength: number;
  keyLength: number;
  body: Buffer;
}

/** Writes a request header at `offset` of `out`. */
function writeHeader(out: Buffer, offset: number, opcode: number, keyLength: number, extrasLength: number, bodyLength: number, opaque: number): void {
  out[offset] = REQUEST_MAGIC;
  out[offset + 1] = opcode;
  out.writeUInt16BE(keyLength, offset + 2);
  out[offset + 4] = extrasLength;
  out[offset + 5] = 0; // data type: raw bytes
  out.writeUInt16BE(0, offset + 6); // vbucket
  out.writeUInt32BE(bodyLength, offset + 8);
  out.writeUInt32BE(opaque, offset + 12);
  out.writeBigUInt64BE(0n, offset + 16); // cas
}

/** Keys as UTF-8, measured once: one buffer per batch is sized from them. */
export function keyBytes(keys: readonly string[]): number[] {
  return keys.map((key) => Buffer.byteLength(key, 'utf8'));
}

/**
 * A multi-get: GETKQ for each key (opaque `firstOpaque + i`), then NOOP (`firstOpaque +
 * keys.length`). Hits answer with their key and value; misses are silent; NOOP's answer ends it.
 */
export function encodeMultiGet(keys: readonly string[], firstOpaque: number): Buffer {
  const lengths = keyBytes(keys);
  let size = HEADER_BYTES;
  for (const length of lengths) size += HEADER_BYTES + length;
  const out = Buffer.allocUnsafe(size);
  let offset = 0;
  for (let i = 0; i < keys.length; i++) {
    const length = lengths[i] as number;
    writeHeader(out, offset, Opcode.GetKQ, length, 0, length, (firstOpaque + i) >>> 0);
    out.write(keys[i] as string, offset + HEADER_BYTES, length, 'utf8');
    offset += HEADER_BYTES + length;
  }
  writeHeader(out, offset, Opcode.Noop, 0, 0, 0, (firstOpaque + keys.length) >>> 0);
  return out;
}

/** One counter to add to, created at `delta` with `expiration` when absent. */
export interface IncrementCommand {
  key: string;
  delta: number;
  /** Seconds, or a Unix time above 30 days (memcached's rule). */
  expiration: number;
}

/**
 * INCREMENTQ for each command (opaque `firstOpaque + i`), then NOOP. memcached creates an absent
 * key with the initial value (here the delta) and the expiration in the same step, so a counter
 * needs one command, not an increment then an add. Successes are silent; only failures answer.
 */
export function encodeIncrements(commands: readonly IncrementCommand[], firstOpaque: number): Buffer {
  const lengths = keyBytes(commands.map((command) => command.key));
  let size = HEADER_BYTES;
  for (const length of lengths) size += HEADER_BYTES + INCREMENT_EXTRAS_BYTES + length;
  const out = Buffer.allocUnsafe(size);
  let offset = 0;
  for (let i = 0; i < commands.length; i++) {
    const command = commands[i] as IncrementCommand;
    const length = lengths[i] as number;
    writeHeader(out, offset, Opcode.IncrementQ, length, INCREMENT_EXTRAS_BYTES, INCREMENT_EXTRAS_BYTES + length, (firstOpaque + i) >>> 0);
    const extras = offset + HEADER_BYTES;
    const delta = BigInt(command.delta);
    out.writeBigUInt64BE(delta, extras);
    out.writeBigUInt64BE(delta, extras + 8); // initial value on a miss
    out.writeUInt32BE(command.expiration, extras + 16);
    out.write(command.key, extras + INCREMENT_EXTRAS_BYTES, length, 'utf8');
    offset += HEADER_BYTES + INCREMENT_EXTRAS_BYTES + length;
  }
  writeHeader(out, offset, Opcode.Noop, 0, 0, 0, (firstOpaque + commands.length) >>> 0);
  return out;
}

/** DELETE of one key (it always answers: OK, or key not found). */
export function encodeDelete(key: string, opaque: number): Buffer {
  const length = Buffer.byteLength(key, 'utf8');
  const out = Buffer.allocUnsafe(HEADER_BYTES + length);
  writeHeader(out, 0, Opcode.Delete, length, 0, length, opaque >>> 0);
  out.write(key, HEADER_BYTES, length, 'utf8');
  return out;
}

/**
 * The counter a GETK answer holds: memcached keeps incremented values as decimal text. Anything
 * else (a value some other client stored) counts as 0, as upstream reads it.
 */
export function counterValue(frame: ResponseFrame): number {
  const { body } = frame;
  const start = frame.extrasLength + frame.keyLength;
  if (start === body.length || body.length - start > 20) return 0;
  let n = 0;
  for (let i = start; i < body.length; i++) {
    const digit = (body[i] as number) - 0x30;
    if (digit < 0 || digit > 9) return 0;
    n = n * 10 + digit;
  }
  return Number.isSafeInteger(n) ? n : 0;
}

/** The key a GETK answer names. */
export function frameKey(frame: ResponseFrame): string {
  return frame.body.toString('utf8', frame.extrasLength, frame.extrasLength + frame.keyLength);
}

/**
 * Splits `input` into complete answers, calling `onFrame` for each (its body is a view of
 * `input`, valid only during the call). Returns the bytes of an incomplete last answer (to be
 * prefixed to the next chunk), or undefined when none is left; throws on bytes that are not an
 * answer, after which the stream cannot be trusted.
 */
export function readFrames(input: Buffer, onFrame: (frame: ResponseFrame) => void): Buffer | undefined {
  let offset = 0;
  while (input.length - offset >= HEADER_BYTES) {
    if (input[offset] !== RESPONSE_MAGIC) throw new Error(`not a memcached binary answer (first byte 0x${(input[offset] as number).toString(16)})`);
    const bodyLength = input.readUInt32BE(offset + 8);
    const end = offset + HEADER_BYTES + bodyLength;
    if (end > input.length) break;
    onFrame({
      opcode: input[offset + 1] as number,
      keyLength: input.readUInt16BE(offset + 2),
      extrasLength: input[offset + 4] as number,
      status: input.readUInt16BE(offset + 6),
      opaque: input.readUInt32BE(offset + 12),
      body: input.subarray(offset + HEADER_BYTES, end),
    });
    offset = end;
  }
  return offset === input.length ? undefined : input.subarray(offset);
}
