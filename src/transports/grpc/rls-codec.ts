import type { RateLimitRequest, RateLimitResponse } from '../../engine/index.js';
import { RateLimitError } from '../../errors/index.js';
import { protoRoot } from './proto-root.js';
import { decodeRateLimitRequestBytes, MalformedMessage } from './rls-request-decoder.js';

const root = protoRoot();
const RequestType = root.lookupType('envoy.service.ratelimit.v3.RateLimitRequest');
const ResponseType = root.lookupType('envoy.service.ratelimit.v3.RateLimitResponse');

/**
 * protobuf bytes -> RateLimitRequest. Never throws: grpc-js would answer a throwing
 * deserializer with INTERNAL, while a malformed message is the caller's error.
 */
export function decodeRateLimitRequest(bytes: Buffer): RateLimitRequest | RateLimitError {
  try {
    return decodeRateLimitRequestBytes(bytes);
  } catch (error) {
    const reason = error instanceof MalformedMessage ? error.message : String(error);
    return new RateLimitError('MALFORMED_REQUEST', `malformed RateLimitRequest: ${reason}`);
  }
}

/**
 * RateLimitResponse -> protobuf bytes. protobufjs writes every field that is present, so
 * proto3 defaults (0, '', UNKNOWN) are left out here to keep the wire canonical, as Go's is.
 */
export function encodeRateLimitResponse(response: RateLimitResponse): Buffer {
  const statuses = new Array<Record<string, unknown>>(response.statuses.length);
  for (let i = 0; i < statuses.length; i++) {
    const status = response.statuses[i] as RateLimitResponse['statuses'][number];
    const wire: Record<string, unknown> = { code: status.code };
    const limit = status.currentLimit;
    if (limit !== undefined) {
      const wireLimit: Record<string, unknown> = { unit: limit.unit };
      if (limit.name !== '') wireLimit['name'] = limit.name;
      if (limit.requestsPerUnit !== 0) wireLimit['requestsPerUnit'] = limit.requestsPerUnit;
      wire['currentLimit'] = wireLimit;
    }
    if (status.limitRemaining !== 0) wire['limitRemaining'] = status.limitRemaining;
    if (status.durationUntilResetSeconds !== undefined) wire['durationUntilReset'] = { seconds: status.durationUntilResetSeconds };
    statuses[i] = wire;
  }
  const bytes = ResponseType.encode({
    overallCode: response.overallCode,
    statuses,
    responseHeadersToAdd: response.responseHeadersToAdd,
  }).finish();
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/** For clients and tests: the inverse pair. */
export function encodeRateLimitRequest(request: unknown): Buffer {
  const bytes = RequestType.encode(RequestType.fromObject(request as Record<string, unknown>)).finish();
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

export function decodeRateLimitResponse(bytes: Buffer): Record<string, unknown> {
  return ResponseType.toObject(ResponseType.decode(bytes), { enums: String, longs: Number, defaults: false });
}
