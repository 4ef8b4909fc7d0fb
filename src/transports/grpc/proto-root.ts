import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import protobuf from 'protobufjs';

/** The repository's proto/ directory (this file runs from dist/src/transports/grpc/). */
export const PROTO_DIR = fileURLToPath(new URL('../../../../proto/', import.meta.url));

const FILES = ['envoy/service/ratelimit/v3/rls.proto', 'grpc/health/v1/health.proto'];

let root: protobuf.Root | undefined;

/**
 * The project's protos, parsed once. Well-known types (google/protobuf/*) come from
 * protobufjs' built-in definitions; every other import resolves inside proto/.
 */
export function protoRoot(): protobuf.Root {
  if (root !== undefined) return root;
  const loaded = new protobuf.Root();
  loaded.resolvePath = (_origin, target) => (target.startsWith('google/protobuf/') ? target : join(PROTO_DIR, target));
  loaded.loadSync(FILES);
  loaded.resolveAll();
  root = loaded;
  return loaded;
}

export const RLS_SERVICE = 'envoy.service.ratelimit.v3.RateLimitService';
export const SHOULD_RATE_LIMIT_PATH = `/${RLS_SERVICE}/ShouldRateLimit`;
export const HEALTH_SERVICE = 'grpc.health.v1.Health';
