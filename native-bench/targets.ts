/**
 * What native-bench measures, in table order. (a) and (b) are the ceilings: the least a server
 * on this stack must do for the same request. (c)-(h) are the service; HTTP rows are compared
 * with (a), gRPC rows with (b). (p) is the Node peer users compare the service with, over HTTP.
 */
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { BENCH_CONFIG_YAML } from '../bench/bench-request.js';
import { startBenchService, writeBenchConfig } from '../bench/bench-fixture.js';
import { SERVER_NODE_FLAGS } from '../bench/node-flags.js';
import { ManagedProcess } from '../test/support/managed-process.js';
import { startMemcached, startRedis } from '../test/support/store-servers.js';
import { Teardowns, type Teardown } from '../test/support/teardown.js';
import { parseListeningPort } from './bare-reply.js';
import { SERVER_CPUS, STORE_CPUS } from './fairness.js';

export type Protocol = 'http' | 'grpc';

export interface Endpoints {
  http?: number;
  grpc?: number;
  /** The service's debug server, for its error counters. */
  debug?: number;
  /** The server's process (taskset execs node, so this is node's PID), for its CPU time. */
  pid?: number;
}

export interface RunningTarget {
  endpoints: Endpoints;
  stop(): Promise<void>;
}

export interface Target {
  id: string;
  name: string;
  protocols: readonly Protocol[];
  /** Present: the row is listed but not measured, with this note. */
  skipReason?: string;
  start(): Promise<RunningTarget>;
}

/** Which target each protocol's ratio divides by. */
export const CEILING_OF: Readonly<Record<Protocol, string>> = { http: 'a', grpc: 'b' };

const HERE = dirname(fileURLToPath(import.meta.url));

/** A server script of this folder, pinned with the service's V8 flags, ready once it prints `LISTENING <port>`: the ceilings and the Node peer. */
async function startBare(script: string, protocol: Protocol): Promise<RunningTarget> {
  const proc = new ManagedProcess({ command: process.execPath, args: [...SERVER_NODE_FLAGS, join(HERE, script)], cpus: SERVER_CPUS });
  try {
    const port = await proc.waitFor('LISTENING <port>', parseListeningPort);
    return { endpoints: { [protocol]: port, pid: proc.child.pid }, stop: () => proc.stop() };
  } catch (error) {
    await proc.stop();
    throw error;
  }
}

async function startServiceTarget(configEnv: Record<string, string>, mode: 'pool' | 'inline', storeEnv: Record<string, string> = {}): Promise<RunningTarget> {
  const env = { ...configEnv, DECISION_MODE: mode, POOL_THREADS: '1', ...storeEnv };
  const service = await startBenchService(env, SERVER_CPUS);
  return {
    endpoints: { http: service.httpPort, grpc: Number(service.grpcTarget), debug: service.debugPort, pid: service.child.pid },
    stop: () => service.stop(),
  };
}

/** The service beside a fresh store server (pinned apart from it, see fairness.ts); both stop together, the service first. */
async function startWithStore(
  configEnv: Record<string, string>,
  startStore: (t: Teardown, cpus: string) => Promise<{ url: string }>,
  storeEnv: (storeUrl: string) => Record<string, string>,
): Promise<RunningTarget> {
  const teardowns = new Teardowns();
  try {
    const store = await startStore(teardowns, STORE_CPUS);
    const service = await startServiceTarget(configEnv, 'inline', storeEnv(store.url));
    teardowns.teardown(() => service.stop());
    return { endpoints: service.endpoints, stop: () => teardowns.run() };
  } catch (error) {
    await teardowns.run();
    throw error;
  }
}

/**
 * The benchmark's rule counted by another algorithm (an extension): its own configuration
 * directory, removed when the target stops. A token bucket holds at most 2^20 tokens on the
 * embedded store: 1,000,000 per second, which no run uses up.
 */
async function startAlgorithmTarget(httpWorkers: number, algorithm: 'sliding_window' | 'token_bucket'): Promise<RunningTarget> {
  const perSecond = algorithm === 'token_bucket' ? 1_000_000 : undefined;
  let yaml = BENCH_CONFIG_YAML.replace('          unit: second\n', `          unit: second\n          algorithm: ${algorithm}\n`);
  if (perSecond !== undefined) yaml = yaml.replace(/requests_per_unit: \d+/, `requests_per_unit: ${perSecond}`);
  const config = await writeBenchConfig(yaml);
  try {
    const running = await startServiceTarget({ ...config.env, HTTP_WORKERS: String(httpWorkers) }, 'inline');
    return {
      endpoints: running.endpoints,
      async stop() {
        await running.stop();
        await config.remove();
      },
    };
  } catch (error) {
    await config.remove();
    throw error;
  }
}

/** Rows compared with another service row rather than with a ceiling: row id -> the row it is divided by. */
export const COMPARED_WITH: Readonly<Record<string, string>> = { g: 'd', h: 'd' };

/** The service row set beside the Node peer's after the table (same request, same CPU, HTTP). */
export const PEER_COMPARISON = { service: 'd', peer: 'p' } as const;

/** `benchConfigEnv` is the service's configuration (files, ports); every service target adds HTTP_WORKERS=`httpWorkers`. */
export function benchTargets(benchConfigEnv: Record<string, string>, httpWorkers: number): Target[] {
  const configEnv = { ...benchConfigEnv, HTTP_WORKERS: String(httpWorkers) };
  return [
    { id: 'a', name: 'bare uWS (POST, JSON.parse, fixed reply)', protocols: ['http'], start: () => startBare('bare-uws-server.js', 'http') },
    { id: 'b', name: 'bare grpc-js (identity serializers, fixed reply)', protocols: ['grpc'], start: () => startBare('bare-grpc-server.js', 'grpc') },
    { id: 'c', name: 'service, embedded store, DECISION_MODE=pool', protocols: ['http', 'grpc'], start: () => startServiceTarget(configEnv, 'pool') },
    { id: 'd', name: 'service, embedded store, DECISION_MODE=inline', protocols: ['http', 'grpc'], start: () => startServiceTarget(configEnv, 'inline') },
    {
      id: 'e',
      name: 'service, Redis store (redis-server on CPU 1), inline',
      protocols: ['http', 'grpc'],
      start: () => startWithStore(configEnv, (t, cpus) => startRedis(t, { cpus }), (url) => ({ KVSTORE_URL: url, KVSTORE_POOL_SIZE: '1' })),
    },
    {
      id: 'f',
      name: 'service, memcached store (memcached on CPU 1), inline',
      protocols: ['http', 'grpc'],
      start: () =>
        startWithStore(
          configEnv,
          (t, cpus) => startMemcached(t, { cpus, memoryMb: 256 }),
          (url) => ({ BACKEND_TYPE: 'objcache', OBJCACHE_HOST_PORT: url }),
        ),
    },
    { id: 'g', name: 'service, embedded store, inline, algorithm: sliding_window', protocols: ['http', 'grpc'], start: () => startAlgorithmTarget(httpWorkers, 'sliding_window') },
    { id: 'h', name: 'service, embedded store, inline, algorithm: token_bucket', protocols: ['http', 'grpc'], start: () => startAlgorithmTarget(httpWorkers, 'token_bucket') },
    { id: 'p', name: 'Node peer: fastify + rate-limiter-flexible (same rule)', protocols: ['http'], start: () => startBare('peer-fastify-server.js', 'http') },
  ];
}
