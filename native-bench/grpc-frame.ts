/**
 * The gRPC request h2load sends: the bench RateLimitRequest, protobuf-encoded by the service's
 * codec, behind the 5-byte gRPC message prefix (compressed flag 0, big-endian length).
 */
import { encodeRateLimitRequest, SHOULD_RATE_LIMIT_PATH } from '../src/ratelimit/grpc/index.js';
import { BENCH_REQUEST } from '../bench/bench-request.js';

export const GRPC_PATH = SHOULD_RATE_LIMIT_PATH;
export const GRPC_HEADERS = ['content-type: application/grpc', 'te: trailers'] as const;

export function grpcRequestFrame(): Buffer {
  const message = encodeRateLimitRequest(BENCH_REQUEST);
  const prefix = Buffer.alloc(5);
  prefix.writeUInt8(0, 0);
  prefix.writeUInt32BE(message.length, 1);
  return Buffer.concat([prefix, message]);
}
