/**
 * Every error a client can receive, with a stable code, mapped once to an HTTP status
 * and a gRPC status. Upstream returns plain Go errors, which grpc-go sends as UNKNOWN (2),
 * so the upstream cases keep UNKNOWN; /json answers every request error with 400
 * `Bad Request\n` as upstream does (ref §2.15), except the size limit (413).
 */
export const ERROR_CATALOGUE = {
  EMPTY_DOMAIN: { http: 400, grpc: 2, upstream: true },
  NO_DESCRIPTORS: { http: 400, grpc: 2, upstream: true },
  NO_CONFIG: { http: 400, grpc: 2, upstream: true },
  STORE_ERROR: { http: 400, grpc: 2, upstream: true },
  INVALID_LIMIT_OVERRIDE: { http: 400, grpc: 3, upstream: false },
  TOO_MANY_DESCRIPTORS: { http: 400, grpc: 3, upstream: false },
  INVALID_CACHE_KEY: { http: 400, grpc: 3, upstream: false },
  MALFORMED_REQUEST: { http: 400, grpc: 3, upstream: true },
  BODY_TOO_LARGE: { http: 413, grpc: 8, upstream: false },
} as const;

export type ErrorCode = keyof typeof ERROR_CATALOGUE;

/** An expected failure, returned as a value by the engine and mapped by each transport. */
export class RateLimitError {
  constructor(
    readonly code: ErrorCode,
    readonly message: string,
  ) {}
}

export function httpStatusOf(code: ErrorCode): number {
  return ERROR_CATALOGUE[code].http;
}

export function grpcStatusOf(code: ErrorCode): number {
  return ERROR_CATALOGUE[code].grpc;
}
