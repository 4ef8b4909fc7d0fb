/**
 * V8 flags every benchmarked server runs with, the service and the bare ceilings alike (the same
 * flags are in `npm start`).
 *
 * A young generation of a fixed 64 MiB per semi-space, scavenged by the thread itself: at the
 * gRPC maximum rate the service promoted 4.0 MiB per scavenge (bare grpc-js 0.8 MiB) with
 * `--max-semi-space-size=32 --min-semi-space-size=8`, and each promoted call object kept the
 * young objects it pointed to alive until the next mark-compact, which then came every second:
 * scavenges took 19 ms (bare 7 ms), and in some runs the service's CPU per call was 25% above
 * the same code in others. With these flags (trace-gc, 8 s runs, same host, interleaved): service
 * 98-116 -> 85-86 us per gRPC call, bare grpc-js 93-99 -> 76-80; scavenges 1.2-1.3 s -> 0.3 s,
 * mark-compacts 6-7 -> 1. `--single-threaded-gc` matters on its own: on one core, V8's parallel
 * GC helpers only take turns with the thread they help (64/64 without it: 98 us per call).
 * /json does not change (callgrind: 41.5k instructions per request, bare 29.0k). The price is
 * memory: about 120 MiB more RSS per JavaScript thread (service with HTTP_WORKERS=2 under load:
 * 247 -> 488 MiB). `--min-semi-space-size=16` saves half of that but lost the gain (101-104 us).
 */
export const SERVER_NODE_FLAGS: readonly string[] = ['--single-threaded-gc', '--max-semi-space-size=64', '--min-semi-space-size=64'];
