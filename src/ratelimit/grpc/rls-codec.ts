// Imported: on Node 20 the global `Buffer` is an accessor, a getter call per use on the hot path.
import { Buffer } from 'node:buffer';
import type { RateLimitRequest, RateLimitResponse } from '../../engine/index.js';
import { ServiceError } from '../../errors/index.js';
import { rlsProtoRoot } from './rls-protos.js';
import { decodeRateLimitRequestBytes, MalformedMessage } from './rls-request-decoder.js';
import { encodeRateLimitResponseBytes } from './rls-response-encoder.js';

const root = rlsProtoRoot();
const RequestType = root.lookupType('envoy.service.ratelimit.v3.RateLimitRequest');
const ResponseType = root.lookupType('envoy.service.ratelimit.v3.RateLimitResponse');

/**
 * protobuf bytes -> RateLimitRequest. Never throws: grpc-js would answer a throwing
 * deserializer with INTERNAL, while a malformed message is the caller's error.
 */
export function decodeRateLimitRequest(bytes: Buffer): RateLimitRequest | ServiceError {
  try {
    return decodeRateLimitRequestBytes(bytes);
  } catch (error) {
    const reason = error instanceof MalformedMessage ? error.message : String(error);
    return new ServiceError('RL_MALFORMED_REQUEST', `malformed RateLimitRequest: ${reason}`);
  }
}

/** RateLimitResponse -> protobuf bytes (hand-written: rls-response-encoder.ts). */
export const encodeRateLimitResponse = encodeRateLimitResponseBytes;

/** For clients and tests: the inverse pair. */
export function encodeRateLimitRequest(request: unknown): Buffer {
  const bytes = RequestType.encode(RequestType.fromObject(request as Record<string, unknown>)).finish();
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

export function decodeRateLimitResponse(bytes: Buffer): Record<string, unknown> {
  return ResponseType.toObject(ResponseType.decode(bytes), { enums: String, longs: Number, defaults: false });
}
