import { join } from 'node:path';
import protobuf from 'protobufjs';
import { packageFile } from '../package-files.js';

/** The package's proto/ folder. */
export const PROTO_DIR = packageFile('proto');

const roots = new Map<string, protobuf.Root>();

/**
 * Proto files of proto/, parsed once per set. Well-known types (google/protobuf/*) come from
 * protobufjs' built-in definitions; every other import resolves inside proto/.
 */
export function loadProtos(files: readonly string[]): protobuf.Root {
  const key = files.join('\n');
  const cached = roots.get(key);
  if (cached !== undefined) return cached;
  const root = new protobuf.Root();
  root.resolvePath = (_origin, target) => (target.startsWith('google/protobuf/') ? target : join(PROTO_DIR, target));
  root.loadSync([...files]);
  root.resolveAll();
  roots.set(key, root);
  return root;
}

export const HEALTH_PROTO = 'grpc/health/v1/health.proto';
export const HEALTH_SERVICE = 'grpc.health.v1.Health';
