/**
 * What native-bench measures, in table order. (a) and (b) are the ceilings: the least a server
 * on this stack must do for the same request. (c)-(e) are the service; HTTP rows are compared
 * with (a), gRPC rows with (b).
 */
import { SERVER_NODE_FLAGS } from '../bench/node-flags.js';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ManagedProcess } from '../bench/managed-process.js';
import { startService } from '../bench/service-process.js';
import { startMemcachedServer, startRedisServer, type StoreProcess } from '../bench/store-processes.js';
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
  const service = await startService(env, SERVER_CPUS);
  return {
    endpoints: { http: service.ports.http, grpc: service.ports.grpc, debug: service.ports.debug, pid: service.process.child.pid },
    stop: () => service.stop(),
  };
}

/** The service beside a fresh store server (pinned apart from it, see fairness.ts); both stop together. */
async function startWithStore(
  configEnv: Record<string, string>,
  startStore: (cpus: string) => Promise<StoreProcess>,
  storeEnv: (store: StoreProcess) => Record<string, string>,
): Promise<RunningTarget> {
  const store = await startStore(STORE_CPUS);
  try {
    const service = await startServiceTarget(configEnv, 'inline', storeEnv(store));
    return {
      endpoints: service.endpoints,
      async stop() {
        await service.stop();
        await store.stop();
      },
    };
  } catch (error) {
    await store.stop();
    throw error;
  }
}

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
      start: () => startWithStore(configEnv, startRedisServer, (redis) => ({ KVSTORE_URL: redis.url, KVSTORE_POOL_SIZE: '1' })),
    },
    {
      id: 'f',
      name: 'service, memcached store (memcached on CPU 1), inline',
      protocols: ['http', 'grpc'],
      start: () =>
        startWithStore(configEnv, startMemcachedServer, (memcached) => ({ BACKEND_TYPE: 'objcache', OBJCACHE_HOST_PORT: memcached.url, OBJCACHE_MAX_IDLE_CONNS: '1' })),
    },
  ];
}
