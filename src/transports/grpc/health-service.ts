import * as grpc from '@grpc/grpc-js';
import { protoRoot } from './proto-root.js';

const root = protoRoot();
const RequestType = root.lookupType('grpc.health.v1.HealthCheckRequest');
const ResponseType = root.lookupType('grpc.health.v1.HealthCheckResponse');

const SERVING = 1;
const NOT_SERVING = 2;
const SERVICE_UNKNOWN = 3;

/** The service name whose health follows `/healthcheck` (upstream registers "ratelimit"). */
export const RATE_LIMIT_HEALTH_SERVICE = 'ratelimit';

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

/**
 * grpc.health.v1 as grpc-go's health server behaves for upstream: "" is always SERVING,
 * "ratelimit" follows the service's health, any other name is NOT_FOUND (Check) or
 * SERVICE_UNKNOWN (Watch).
 */
export function healthHandlers(source: HealthSource): {
  check: grpc.handleUnaryCall<HealthCheckRequest, number>;
  watch: grpc.handleServerStreamingCall<HealthCheckRequest, number>;
  /** Ends every Watch stream (at shutdown, so the server need not wait for clients to leave). */
  endWatches(): void;
} {
  const statusOf = (service: string): number | undefined => {
    if (service === '') return SERVING;
    if (service === RATE_LIMIT_HEALTH_SERVICE) return source.isHealthy() ? SERVING : NOT_SERVING;
    return undefined;
  };
  const watchers = new Set<grpc.ServerWritableStream<HealthCheckRequest, number>>();
  source.onChange((healthy) => {
    for (const call of watchers) call.write(healthy ? SERVING : NOT_SERVING);
  });
  return {
    check(call, callback) {
      const status = statusOf(call.request.service);
      if (status === undefined) callback({ code: grpc.status.NOT_FOUND, details: 'unknown service' });
      else callback(null, status);
    },
    watch(call) {
      const service = call.request.service;
      call.write(statusOf(service) ?? SERVICE_UNKNOWN);
      if (service !== RATE_LIMIT_HEALTH_SERVICE) return;
      watchers.add(call);
      call.on('cancelled', () => watchers.delete(call));
      call.on('close', () => watchers.delete(call));
    },
    endWatches() {
      for (const call of watchers) call.end();
      watchers.clear();
    },
  };
}
