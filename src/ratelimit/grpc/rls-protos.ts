import type protobuf from 'protobufjs';
import { loadProtos } from '../../transports/grpc/index.js';

/** Envoy's rate limit service, v3 (proto/envoy/service/ratelimit/v3/rls.proto). */
export const RLS_SERVICE = 'envoy.service.ratelimit.v3.RateLimitService';
export const SHOULD_RATE_LIMIT_PATH = `/${RLS_SERVICE}/ShouldRateLimit`;

/** The rate limit service's protos (for clients and tests; the server's codec is hand-written). */
export function rlsProtoRoot(): protobuf.Root {
  return loadProtos(['envoy/service/ratelimit/v3/rls.proto']);
}
