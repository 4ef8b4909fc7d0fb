/**
 * V8 flags every benchmarked server runs with, the service and the bare ceilings alike (the same
 * flag is in `npm start`). A larger young generation lets the short-lived objects of each request
 * die in scavenges instead of being promoted: measured here, gRPC on the service went from ~10.6k
 * to ~11.9k calls/s (mean of 4 interleaved runs) while the bare grpc-js ceiling did not change.
 * The max alone does not keep /json's young generation large: it only grows when many objects
 * survive, and a /json request's garbage does not, so it stayed at 1 MiB and scavenged every few
 * hundred requests. The min makes it 8 MiB from the start: under callgrind (instructions are
 * repeatable on this noisy host) /json went from 42.9k to 41.4k instructions per request, the
 * bare uWS ceiling from 29.2k to 28.8k. It costs about 16 MiB of RSS per thread.
 */
export const SERVER_NODE_FLAGS: readonly string[] = ['--max-semi-space-size=32', '--min-semi-space-size=8'];
