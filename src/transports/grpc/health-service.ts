import * as grpc from '@grpc/grpc-js';
import { performance } from 'node:perf_hooks';
import type { StatsStore } from '../../observability/index.js';
import { methodStats, type CallGuard, type GrpcService } from './grpc-service.js';
import { HEALTH_PROTO, loadProtos } from './proto-root.js';

const root = loadProtos([HEALTH_PROTO]);
const RequestType = root.lookupType('grpc.health.v1.HealthCheckRequest');
const ResponseType = root.lookupType('grpc.health.v1.HealthCheckResponse');

const SERVING = 1;
const NOT_SERVING = 2;
const SERVICE_UNKNOWN = 3;

export interface HealthSource {
  isHealthy(): boolean;
  onChange(listener: (healthy: boolean) => void): void;
}

interface HealthCheckRequest {
  service: string;
}

const serialize = (status: number): Buffer => Buffer.from(ResponseType.encode({ status }).finish());
const deserialize = (bytes: Buffer): HealthCheckRequest => {
  try {
    return RequestType.decode(bytes) as unknown as HealthCheckRequest;
  } catch {
    return { service: '\0malformed' };
  }
};

export const healthServiceDefinition: grpc.ServiceDefinition = {
  Check: {
    path: '/grpc.health.v1.Health/Check',
    requestStream: false,
    responseStream: false,
    requestSerialize: () => Buffer.alloc(0),
    requestDeserialize: deserialize,
    responseSerialize: serialize,
    responseDeserialize: () => 0,
  },
  Watch: {
    path: '/grpc.health.v1.Health/Watch',
    requestStream: false,
    responseStream: true,
    requestSerialize: () => Buffer.alloc(0),
    requestDeserialize: deserialize,
    responseSerialize: serialize,
    responseDeserialize: () => 0,
  },
};

export interface HealthServiceOptions {
  source: HealthSource;
  /** The service name whose health is `source` (upstream registers "ratelimit"). */
  followed: string;
  stats: StatsStore;
  guard: CallGuard;
}

/**
 * grpc.health.v1 as grpc-go's health server behaves: "" is always SERVING, `followed` follows the
 * source, any other name is NOT_FOUND (Check) or SERVICE_UNKNOWN (Watch).
 */
export function healthService({ source, followed, stats, guard }: HealthServiceOptions): GrpcService {
  const statusOf = (service: string): number | undefined => {
    if (service === '') return SERVING;
    if (service === followed) return source.isHealthy() ? SERVING : NOT_SERVING;
    return undefined;
  };
  const watchers = new Set<grpc.ServerWritableStream<HealthCheckRequest, number>>();
  source.onChange((healthy) => {
    for (const call of watchers) call.write(healthy ? SERVING : NOT_SERVING);
  });
  const check = methodStats(stats, 'Check');
  const Check: grpc.handleUnaryCall<HealthCheckRequest, number> = (call, callback) => {
    const started = performance.now();
    check.total.value++;
    const refused = guard.refusal(call);
    if (refused !== undefined) {
      callback(refused);
    } else {
      const status = statusOf(call.request.service);
      if (status === undefined) callback({ code: grpc.status.NOT_FOUND, details: 'unknown service' });
      else callback(null, status);
    }
    check.time.record(Math.round(performance.now() - started));
  };
  const Watch: grpc.handleServerStreamingCall<HealthCheckRequest, number> = (call) => {
    const refused = guard.refusal(call);
    if (refused !== undefined) {
      call.emit('error', refused);
      return;
    }
    const service = call.request.service;
    call.write(statusOf(service) ?? SERVICE_UNKNOWN);
    if (service !== followed) return;
    watchers.add(call);
    call.on('cancelled', () => watchers.delete(call));
    call.on('close', () => watchers.delete(call));
  };
  return {
    definition: healthServiceDefinition,
    implementation: { Check, Watch },
    close() {
      for (const call of watchers) call.end();
      watchers.clear();
    },
  };
}
