import type { ErrorCode, ServiceError } from '../../../errors/index.js';

/** A request as an API thread handler sees it: read whole, body included. */
export interface ApiRequest {
  /** Upper case (`GET`). */
  method: string;
  /** The path as sent, still percent-encoded. */
  path: string;
  /** Path parameters, decoded (`{silenceID}` -> `params.silenceID`). */
  params: Readonly<Record<string, string | undefined>>;
  query: URLSearchParams;
  /** Lower-case names; a repeated header keeps its last value. */
  headers: ReadonlyMap<string, string>;
  body: Uint8Array;
}

/**
 * A reply body the front thread streams from a file as the client reads it: a large export
 * never sits whole in memory and never crosses threads. The file must not change while it is
 * sent (exports are written under a temporary name and renamed into place, so it does not).
 */
export interface ApiFileBody {
  file: string;
  /** Its length in bytes, for Content-Length. */
  size: number;
}

export interface ApiResponse {
  status: number;
  headers?: Array<[string, string]>;
  /** Absent or '' for none. */
  body?: string | Uint8Array | ApiFileBody;
}

export type ApiOutcome = ApiResponse | ServiceError;
export type ApiHandler = (request: ApiRequest) => ApiOutcome | Promise<ApiOutcome>;

export interface ApiRoute {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'HEAD' | 'OPTIONS';
  /** find-my-way pattern: `/api/v2/silence/:silenceID`. */
  path: string;
  handle: ApiHandler;
}

/**
 * What the HTTP front and the API thread both know of an API before any of its code loads: the
 * paths it owns and the codes of the refusals they answer for it.
 */
export interface ApiManifest {
  name: string;
  /** Paths starting with one of these (or equal to one without its last slash) belong to this API. */
  prefixes: readonly string[];
  /** Behind the web configuration's `basic_auth_users` (Alertmanager's paths are, as in Alertmanager). */
  guarded?: boolean;
  errors: {
    /** A body past API_MAX_REQUEST_BYTES. */
    tooLarge: ErrorCode;
    /** The API thread, or this API on it, cannot answer now. */
    unavailable: ErrorCode;
  };
}

/** One API served by the API thread: its routes and how it words its routing errors. */
export interface ApiDefinition {
  /** Its manifest's name; which paths it owns is the manifest's to say. */
  name: string;
  routes: readonly ApiRoute[];
  notFound(method: string, path: string): ServiceError;
  methodNotAllowed(method: string, path: string, allowed: readonly string[]): ServiceError;
  /** The code of an unexpected failure in one of its handlers. */
  internalError: ErrorCode;
}
