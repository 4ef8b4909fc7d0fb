/**
 * V8 flags every benchmarked server runs with, the service and the bare ceilings alike (the same
 * flag is in `npm start`). A larger young generation lets the short-lived objects of each request
 * die in scavenges instead of being promoted: measured here, gRPC on the service went from ~10.6k
 * to ~11.9k calls/s (mean of 4 interleaved runs) while the bare grpc-js ceiling did not change.
 */
export const SERVER_NODE_FLAGS: readonly string[] = ['--max-semi-space-size=32'];
