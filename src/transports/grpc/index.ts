export { GRPC_TRANSPORT_OPTIONS, startGrpcServer } from './grpc-server.js';
export type { GrpcServer, GrpcServerOptions } from './grpc-server.js';
export { protoRoot, PROTO_DIR, RLS_SERVICE, SHOULD_RATE_LIMIT_PATH, HEALTH_SERVICE } from './proto-root.js';
export { decodeRateLimitRequest, encodeRateLimitResponse, encodeRateLimitRequest, decodeRateLimitResponse } from './rls-codec.js';
export { RATE_LIMIT_HEALTH_SERVICE } from './health-service.js';
