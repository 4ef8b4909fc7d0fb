import * as grpc from '@grpc/grpc-js';
import type { StatsStore, Tracing } from '../../observability/index.js';

/** One service a GrpcServer serves: grpc-js's definition and implementation. */
export interface GrpcService {
  definition: grpc.ServiceDefinition;
  implementation: grpc.UntypedServiceImplementation;
  /** Ends its long-lived calls (health Watch streams) at shutdown, so the server need not wait for clients to leave. */
  close?(): void;
}

/** Refuses calls the server's TLS settings do not admit: every method of every service asks it first. */
export interface CallGuard {
  refusal(call: grpc.ServerUnaryCall<unknown, unknown> | grpc.ServerWritableStream<unknown, unknown>): Partial<grpc.ServiceError> | undefined;
}

/** Per-method statistics, named as upstream's gRPC interceptor names them for every method: `ratelimit_server.<Method>.*`. */
export function methodStats(stats: StatsStore, method: string) {
  return {
    total: stats.counter(`ratelimit_server.${method}.total_requests`),
    time: stats.timer(`ratelimit_server.${method}.response_time`),
  };
}

/**
 * A unary handler in a SERVER span named and described as otelgrpc's (`<service>/<method>`,
 * `rpc.*` attributes, the status code), continuing the trace of the call's metadata.
 */
export function tracedUnary<Req, Res>(tracing: Tracing, service: string, method: string, handler: grpc.handleUnaryCall<Req, Res>): grpc.handleUnaryCall<Req, Res> {
  const attributes = { 'rpc.system': 'grpc', 'rpc.service': service, 'rpc.method': method };
  return (call, callback) => {
    const carrier = (name: string) => {
      const values = call.metadata.get(name);
      return values.length > 0 ? String(values[0]) : undefined;
    };
    tracing.inServerSpan(`${service}/${method}`, carrier, attributes, (span) => {
      handler(call, (error, response) => {
        span.setAttribute('rpc.grpc.status_code', error?.code ?? grpc.status.OK);
        if (error) span.fail(error.details ?? '');
        span.end();
        callback(error, response);
      });
    });
  };
}
