/**
 * A generic gRPC server (grpc-js): TLS with certificate reload, mutual TLS with a required SAN,
 * connection age limits, grpc.health.v1, per-method statistics and tracing for any service.
 * The rate limit service itself lives in src/ratelimit/grpc/.
 */
export { GRPC_TRANSPORT_OPTIONS, startGrpcServer } from './grpc-server.js';
export type { GrpcServer, GrpcServerOptions } from './grpc-server.js';
export { methodStats, tracedUnary } from './grpc-service.js';
export type { CallGuard, GrpcService } from './grpc-service.js';
export { healthService } from './health-service.js';
export type { HealthServiceOptions, HealthSource } from './health-service.js';
export { loadProtos, PROTO_DIR, HEALTH_PROTO, HEALTH_SERVICE } from './proto-root.js';
