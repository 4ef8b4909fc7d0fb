import type { StoreTlsFiles } from '../store-tls.js';

/** How to reach the memcached nodes. Plain data: posted to every thread. */
export interface MemcachedStoreOptions {
  /** `host:port` of every node (OBJCACHE_HOST_PORT); empty when `srv` is used. */
  servers: string[];
  /** SRV name (`_service._proto.name`) whose targets are the nodes; empty when `servers` is used. */
  srv: string;
  /** Look the SRV name up again this often (0: only at startup). */
  srvRefreshMs: number;
  /** DNS server (`host:port`) for the SRV lookup; empty: the system's resolvers. */
  srvResolver: string;
  /** Connections per node and thread; requests take them in turn. */
  connectionsPerServer: number;
  /** A get without an answer after this long fails the request (a counted store error). */
  timeoutMs: number;
  /** As upstream: each key's TTL is its unit plus a random [0, this) seconds, set at creation. */
  expirationJitterMaxSeconds: number;
  /** OBJCACHE_TLS: connect with TLS using these files; undefined: plain TCP. */
  tls: StoreTlsFiles | undefined;
}

