// Imported: on Node 20 the global `Buffer` is an accessor, a getter call per use on the hot path.
import { Buffer } from 'node:buffer';
import type { CurrentLimit, DescriptorStatus, HeaderValue, RateLimitResponse } from '../../engine/index.js';
import { encodeStruct } from './struct-encoder.js';

/**
 * RateLimitResponse -> protobuf wire format, written by hand for the gRPC hot path: one exact-size
 * buffer, no intermediate message objects or writer state (protobufjs builds both per call, and
 * its garbage showed as the main extra GC cost over a bare grpc-js server). Default values are
 * left out, as proto3 encoders do.
 *
 *   RateLimitResponse   1 overall_code: enum   2 statuses: DescriptorStatus   3 response_headers_to_add: HeaderValue
 *                       6 dynamic_metadata: google.protobuf.Struct (struct-encoder.ts)
 *   DescriptorStatus    1 code: enum   2 current_limit: RateLimit   3 limit_remaining: uint32   4 duration_until_reset: Duration
 *   RateLimit           3 name: string   1 requests_per_unit: uint32   2 unit: enum
 *   Duration            1 seconds: int64   2 nanos: int32
 *   HeaderValue         1 key: string   2 value: string
 */

const key = (field: number, wireType: number): number => (field << 3) | wireType;
const VARINT = 0;
const LENGTH_DELIMITED = 2;

/** Bytes of a non-negative integer below 2^53 as a varint. */
function varintSize(value: number): number {
  let size = 1;
  while (value >= 128) {
    value = Math.floor(value / 128);
    size++;
  }
  return size;
}

function stringSize(text: string): number {
  if (text === '') return 0;
  const length = Buffer.byteLength(text);
  return 1 + varintSize(length) + length;
}

function varintFieldSize(value: number): number {
  return value === 0 ? 0 : 1 + varintSize(value);
}

function limitSize(limit: CurrentLimit): number {
  return stringSize(limit.name) + varintFieldSize(limit.requestsPerUnit) + varintFieldSize(limit.unit);
}

function durationSize(seconds: number): number {
  return varintFieldSize(seconds);
}

function statusSize(status: DescriptorStatus): number {
  let size = varintFieldSize(status.code);
  if (status.currentLimit !== undefined) {
    const inner = limitSize(status.currentLimit);
    size += 1 + varintSize(inner) + inner;
  }
  size += varintFieldSize(status.limitRemaining);
  if (status.durationUntilResetSeconds !== undefined) {
    const inner = durationSize(status.durationUntilResetSeconds);
    size += 1 + varintSize(inner) + inner;
  }
  return size;
}

function headerSize(header: HeaderValue): number {
  return stringSize(header.key) + stringSize(header.value);
}

class Writer {
  pos = 0;
  constructor(readonly buf: Buffer) {}

  varint(value: number): void {
    while (value >= 128) {
      this.buf[this.pos++] = (value % 128) | 0x80;
      value = Math.floor(value / 128);
    }
    this.buf[this.pos++] = value;
  }

  varintField(field: number, value: number): void {
    if (value === 0) return;
    this.buf[this.pos++] = key(field, VARINT);
    this.varint(value);
  }

  stringField(field: number, text: string): void {
    if (text === '') return;
    this.buf[this.pos++] = key(field, LENGTH_DELIMITED);
    this.varint(Buffer.byteLength(text));
    this.pos += this.buf.write(text, this.pos);
  }

  messageHeader(field: number, size: number): void {
    this.buf[this.pos++] = key(field, LENGTH_DELIMITED);
    this.varint(size);
  }
}

export function encodeRateLimitResponseBytes(response: RateLimitResponse): Buffer {
  const statusSizes = new Array<number>(response.statuses.length);
  let size = varintFieldSize(response.overallCode);
  for (let i = 0; i < response.statuses.length; i++) {
    const inner = statusSize(response.statuses[i] as DescriptorStatus);
    statusSizes[i] = inner;
    size += 1 + varintSize(inner) + inner;
  }
  for (const header of response.responseHeadersToAdd) {
    const inner = headerSize(header);
    size += 1 + varintSize(inner) + inner;
  }
  const metadata = response.dynamicMetadata === undefined ? undefined : encodeStruct(response.dynamicMetadata);
  if (metadata !== undefined) size += 1 + varintSize(metadata.length) + metadata.length;

  const w = new Writer(Buffer.allocUnsafe(size));
  w.varintField(1, response.overallCode);
  for (let i = 0; i < response.statuses.length; i++) {
    const status = response.statuses[i] as DescriptorStatus;
    w.messageHeader(2, statusSizes[i] as number);
    w.varintField(1, status.code);
    const limit = status.currentLimit;
    if (limit !== undefined) {
      w.messageHeader(2, limitSize(limit));
      w.varintField(1, limit.requestsPerUnit);
      w.varintField(2, limit.unit);
      w.stringField(3, limit.name);
    }
    w.varintField(3, status.limitRemaining);
    if (status.durationUntilResetSeconds !== undefined) {
      w.messageHeader(4, durationSize(status.durationUntilResetSeconds));
      w.varintField(1, status.durationUntilResetSeconds);
    }
  }
  for (const header of response.responseHeadersToAdd) {
    w.messageHeader(3, headerSize(header));
    w.stringField(1, header.key);
    w.stringField(2, header.value);
  }
  if (metadata !== undefined) {
    w.messageHeader(6, metadata.length);
    w.pos += metadata.copy(w.buf, w.pos);
  }
  return w.buf;
}
