/**
 * The config that answers the bench request (bench-request.ts) written where the service reads
 * it, and the way every benchmark runs the service.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { startProcess, type ServiceProcess } from '../test/support/process-harness.js';
import { makeTempDir } from '../test/support/temp-dir.js';
import { BENCH_CONFIG_YAML } from './bench-request.js';
import { SERVER_NODE_FLAGS } from './node-flags.js';

/** Runtime settings pointing at a temporary config dir (ROOT/SUB/APP/bench.yaml). */
export interface BenchConfigDir {
  env: { RUNTIME_ROOT: string; RUNTIME_SUBDIRECTORY: string; RUNTIME_APPDIRECTORY: string };
  remove(): Promise<void>;
}

export async function writeBenchConfig(yaml: string = BENCH_CONFIG_YAML): Promise<BenchConfigDir> {
  const root = await makeTempDir('ratelimit-bench-');
  const appDir = join(root.path, 'ratelimit', 'config');
  await mkdir(appDir, { recursive: true });
  await writeFile(join(appDir, 'bench.yaml'), yaml);
  return {
    env: { RUNTIME_ROOT: root.path, RUNTIME_SUBDIRECTORY: 'ratelimit', RUNTIME_APPDIRECTORY: 'config' },
    remove: root.remove,
  };
}

/**
 * The service (`node dist/src/main.js`) on 127.0.0.1 and free ports, with the V8 flags of
 * node-flags.ts, optionally pinned to `cpus`; resolves once it listens. It runs in the caller's
 * environment, as a benchmark's user started it, under `env`; the caller stops it.
 */
export function startBenchService(env: Record<string, string>, cpus?: string): Promise<ServiceProcess> {
  // The service's own defaults (every API, its HTTP thread count), not the tests' (one HTTP thread, only the APIs a test asks for).
  return startProcess(undefined, { APIS: 'alerts,scores', HTTP_WORKERS: '', ...env, LOG_LEVEL: 'info', LOG_FORMAT: 'text' }, { nodeFlags: SERVER_NODE_FLAGS, cpus, inheritEnv: true });
}
