import type Long from 'long';
import type { RateLimitRequest, RateLimitResponse, RequestDescriptor } from '../../engine/index.js';
import { RateLimitError } from '../../errors/index.js';
import { protoRoot } from './proto-root.js';

/** Shapes protobufjs decodes into (unset message fields are null; uint64 is a Long). */
interface WireEntry {
  key: string;
  value: string;
}
interface WireDescriptor {
  entries: WireEntry[];
  limit: { requestsPerUnit: number; unit: number } | null;
  hitsAddend: { value: Long | number } | null;
}
interface WireRequest {
  domain: string;
  descriptors: WireDescriptor[];
  hitsAddend: number;
}

const root = protoRoot();
const RequestType = root.lookupType('envoy.service.ratelimit.v3.RateLimitRequest');
const ResponseType = root.lookupType('envoy.service.ratelimit.v3.RateLimitResponse');

function toSafeNumber(value: Long | number): number {
  if (typeof value === 'number') return value;
  // Beyond 2^53 a hit count is meaningless anyway; clamp instead of losing precision silently.
  if (value.high >>> 0 >= 0x200000) return Number.MAX_SAFE_INTEGER;
  return value.toNumber();
}

/**
 * protobuf bytes -> RateLimitRequest. Never throws: grpc-js would answer a throwing
 * deserializer with INTERNAL, while a malformed message is the caller's error.
 */
export function decodeRateLimitRequest(bytes: Buffer): RateLimitRequest | RateLimitError {
  let wire: WireRequest;
  try {
    wire = RequestType.decode(bytes) as unknown as WireRequest;
  } catch (error) {
    return new RateLimitError('MALFORMED_REQUEST', `malformed RateLimitRequest: ${(error as Error).message}`);
  }
  const descriptors: RequestDescriptor[] = new Array(wire.descriptors.length);
  for (let i = 0; i < wire.descriptors.length; i++) {
    const d = wire.descriptors[i] as WireDescriptor;
    const descriptor: RequestDescriptor = { entries: d.entries };
    if (d.limit !== null) descriptor.limit = { requestsPerUnit: d.limit.requestsPerUnit, unit: d.limit.unit };
    if (d.hitsAddend !== null) descriptor.hitsAddend = toSafeNumber(d.hitsAddend.value);
    descriptors[i] = descriptor;
  }
  return { domain: wire.domain, descriptors, hitsAddend: wire.hitsAddend };
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
