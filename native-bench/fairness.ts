/**
 * Fairness rules of every comparison (also in README.md): servers, bare or service, run on CPU 0
 * (`taskset -c 0`, inherited by all their threads), the load generator on CPU 1; the service
 * runs with HTTP_WORKERS=0 unless `--http-workers` says otherwise; every target gets the same
 * request and the same tool settings.
 */
export const SERVER_CPUS = '0';
export const LOAD_CPUS = '1';
/**
 * redis-server and memcached run beside the load generator, not the service: in production the
 * store is another machine, so the service's core budget stays the bare server's. The store's CPU
 * time is not in the service's cpu us/req; it slows the load generator a little instead.
 */
export const STORE_CPUS = '1';
/**
 * HTTP on the main thread unless `--http-workers` says otherwise: the service's own default on
 * one core (settings.ts defaultHttpWorkers), and the one to measure on it. A worker thread beside
 * the main thread makes two threads take turns on CPU 0: at half rate the /json p99 was 1.9 ms
 * with HTTP_WORKERS=1 against 0.46 ms with 0 (bare uWS 0.41 ms), same host, minutes apart.
 */
export const DEFAULT_SERVICE_HTTP_WORKERS = 0;
/**
 * Load before each maximum-rate run. One-second windows on a fresh server: the first two cost
 * 1.5-6x the steady CPU per request (JIT, young generation growing) for the bare servers and the
 * service alike, from the third on they were steady.
 */
export const WARM_UP_SECONDS = 4;
/**
 * gRPC load before each gRPC maximum-rate run: long enough (about 500,000 calls) for the server's
 * first mark-compact under gRPC load, after which bare grpc-js and the service alike keep about
 * 8 MB alive through every scavenge for as long as they run (native-bench/README.md, "One protocol
 * per process"). With 4 s, a fresh service met that change inside its measured run while its
 * ceiling, which had served more calls, was past it: 0.81 of the ceiling against 0.97 after 20 s
 * (same build, same host, minutes apart).
 */
export const GRPC_WARM_UP_SECONDS = 20;

/** gRPC load shape, as the ceiling in DESIGN.md was measured. */
export const GRPC_CLIENTS = 16;
export const GRPC_STREAMS = 16;

/**
 * Load shape of the half-rate latency runs. h2load's --rps fires every client's requests on the
 * same timer tick, so 64 HTTP clients (or 16x16 gRPC streams) at a fixed rate arrive as bursts
 * and measure h2load's own queueing (bare uWS: p50 1.1 ms with 64 clients, 0.10 ms with 8, at
 * 25k req/s). Fewer connections match a sidecar's caller too: Envoy keeps one HTTP/2
 * connection per worker thread.
 */
export const LATENCY_HTTP_CLIENTS = 8;
export const LATENCY_GRPC_CLIENTS = 2;
export const LATENCY_GRPC_STREAMS = 1;

export const fairnessNote = (serviceHttpWorkers: number): string =>
  `servers (bare and service) pinned with taskset -c ${SERVER_CPUS}, load generators with taskset -c ${LOAD_CPUS}; ` +
  `redis-server/memcached with taskset -c ${STORE_CPUS}; service runs with HTTP_WORKERS=${serviceHttpWorkers}; same request body/frame for every target; ` +
  `${WARM_UP_SECONDS} s warm-up before each maximum-rate run (gRPC: ${GRPC_WARM_UP_SECONDS} s)`;
