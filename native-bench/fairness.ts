/**
 * Fairness rules of every comparison (also in README.md): servers, bare or service, run on CPU 0
 * (`taskset -c 0`, inherited by all their threads), the load generator on CPU 1; the service
 * runs with HTTP_WORKERS=1; every target gets the same request and the same tool settings.
 */
export const SERVER_CPUS = '0';
export const LOAD_CPUS = '1';
export const SERVICE_HTTP_WORKERS = '1';
export const WARM_UP_SECONDS = 2;

/** gRPC load shape, as the ceiling in DESIGN.md was measured. */
export const GRPC_CLIENTS = 16;
export const GRPC_STREAMS = 16;

export const FAIRNESS_NOTE =
  `servers (bare and service) pinned with taskset -c ${SERVER_CPUS}, load generators with taskset -c ${LOAD_CPUS}; ` +
  `service runs with HTTP_WORKERS=${SERVICE_HTTP_WORKERS}; same request body/frame for every target; ` +
  `${WARM_UP_SECONDS} s warm-up before each maximum-rate run`;
