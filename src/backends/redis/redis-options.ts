/** How to reach one Redis deployment (the main store, or the per-second one). Plain data: posted to every thread. */
export interface RedisConnectionOptions {
  /** `single`: one server; `sentinel`: a master found through sentinels; `cluster`: a Redis Cluster. */
  type: 'single' | 'sentinel' | 'cluster';
  /** `tcp` (`host:port`) or `unix` (a socket path); only `single` can use a unix socket. */
  socketType: 'tcp' | 'unix';
  /** single: `host:port` or a socket path; sentinel: `master,host:port,...`; cluster: `host:port,...`. */
  url: string;
  /** Connections this thread opens to the deployment; requests take them in turn. */
  connections: number;
  /** `password` or `user:password` (an ACL user); empty: no AUTH. */
  auth: string;
  /** Password of the sentinels themselves; empty: none. */
  sentinelAuth: string;
  tls: RedisTlsOptions | undefined;
  /** Increments of requests that arrive within this long share one command (0: those of one event-loop turn do). */
  pipelineWindowMs: number;
  /** Send a batch as soon as this many keys wait (0: no limit). */
  pipelineLimit: number;
  /** A command without an answer after this long fails the request (and connecting gives up after it). */
  timeoutMs: number;
  /** Longest pause between reconnection attempts; they start at 50 ms and double. */
  reconnectMaxDelayMs: number;
  /** Cluster only: how many nodes one request's keys go to at once (1: one node after the other). */
  clusterPipelineParallelism: number;
  /** What a request does when no connection is ready: `WAIT` queues it on one that is connecting, `ERROR` fails it at once. */
  poolOnEmptyBehavior: 'WAIT' | 'ERROR';
  /** Until the first connection is up, attempts start this far apart and double up to startupMaxIntervalMs. */
  startupInitialIntervalMs: number;
  startupMaxIntervalMs: number;
}

export interface RedisTlsOptions {
  /** PEM files; empty strings mean "not given". */
  clientCertFile: string;
  clientKeyFile: string;
  caCertFile: string;
  skipHostnameVerification: boolean;
}

export interface RedisStoreOptions {
  main: RedisConnectionOptions;
  /** KVSTORE_PERSECOND: SECOND-unit counters live here instead. */
  perSecond: RedisConnectionOptions | undefined;
  /** Each key's TTL is its unit plus a random [0, this) seconds, as upstream. */
  expirationJitterMaxSeconds: number;
  /** The service stops if no connection came up within this long of starting; 0: it waits forever. */
  startupMaxElapsedMs: number;
}
