/**
 * Every error the service reports, whatever the API: a stable code with an area prefix, mapped
 * once to an HTTP status, a gRPC status and the body form of the API it belongs to.
 *
 *   RL_   rate limit decisions (gRPC ShouldRateLimit, HTTP /json, /healthcheck)
 *   AM_   alert management (Alertmanager API v2 under /api/v2/, /-/healthy, /-/ready)
 *   SC_   scores and education (under /v2/)
 *   HTTP_ the HTTP front itself, for paths no API owns
 *   CFG_  loading the rate limit configuration (never sent to a client; logged and counted)
 *   DBG_  the debug server (/stats, /rlconfig, /debug/pprof/*)
 *
 * Upstream ratelimit returns plain Go errors, which grpc-go sends as UNKNOWN (2), so the upstream
 * cases keep UNKNOWN; /json answers every request error with 400 `Bad Request` as upstream does,
 * except the size limit (413). gRPC numbers are google.golang.org/grpc/codes.
 */
export type BodyForm =
  /** Upstream ratelimit's `/json`: the status text as body, the reason in `X-Ratelimit-Error`. */
  | 'ratelimit'
  /** Alertmanager's go-openapi errors: `{"code":N,"message":"..."}`, status N or 422 for N >= 600. */
  | 'alertmanager-object'
  /** Alertmanager's handler errors: the message as one JSON string. */
  | 'alertmanager-string'
  /** The score API's FlatErrorResponse: `{"code":"...","message":"...","param":"..."}`. */
  | 'flat'
  /** Go's http.Error: the message and a newline as text/plain. */
  | 'text';

export interface CatalogueEntry {
  readonly http: number;
  readonly grpc: number;
  readonly body: BodyForm;
  /**
   * The code an API shows in its body where its clients expect one of its own: Alertmanager's
   * numeric go-openapi codes (601 and up become HTTP 422), the score API's code strings.
   */
  readonly apiCode?: number | string;
  /** What it means, for the README's table and for people reading logs. */
  readonly meaning: string;
}

const GRPC = {
  UNKNOWN: 2,
  INVALID_ARGUMENT: 3,
  NOT_FOUND: 5,
  ALREADY_EXISTS: 6,
  PERMISSION_DENIED: 7,
  RESOURCE_EXHAUSTED: 8,
  FAILED_PRECONDITION: 9,
  UNIMPLEMENTED: 12,
  INTERNAL: 13,
  UNAVAILABLE: 14,
  UNAUTHENTICATED: 16,
} as const;

export const ERROR_CATALOGUE = {
  RL_EMPTY_DOMAIN: { http: 400, grpc: GRPC.UNKNOWN, body: 'ratelimit', meaning: 'the request names no domain' },
  RL_NO_DESCRIPTORS: { http: 400, grpc: GRPC.UNKNOWN, body: 'ratelimit', meaning: 'the request carries no descriptors' },
  RL_NO_CONFIG: { http: 400, grpc: GRPC.UNKNOWN, body: 'ratelimit', meaning: 'no configuration has loaded yet' },
  RL_STORE_ERROR: { http: 400, grpc: GRPC.UNKNOWN, body: 'ratelimit', meaning: 'the counter store could not count (down, timed out, full)' },
  RL_INVALID_LIMIT_OVERRIDE: { http: 400, grpc: GRPC.INVALID_ARGUMENT, body: 'ratelimit', meaning: 'a descriptor limit override has no usable unit' },
  RL_TOO_MANY_DESCRIPTORS: { http: 400, grpc: GRPC.INVALID_ARGUMENT, body: 'ratelimit', meaning: 'more descriptors than MAX_DESCRIPTORS_PER_REQUEST' },
  RL_INVALID_CACHE_KEY: { http: 400, grpc: GRPC.INVALID_ARGUMENT, body: 'ratelimit', meaning: 'a cache key the store cannot hold (memcached: too long or with spaces)' },
  RL_MALFORMED_REQUEST: { http: 400, grpc: GRPC.INVALID_ARGUMENT, body: 'ratelimit', meaning: 'the body is not a valid RateLimitRequest' },
  RL_BODY_TOO_LARGE: { http: 413, grpc: GRPC.RESOURCE_EXHAUSTED, body: 'ratelimit', meaning: 'the body is larger than MAX_REQUEST_BYTES' },
  RL_METHOD_NOT_ALLOWED: { http: 405, grpc: GRPC.UNIMPLEMENTED, body: 'ratelimit', meaning: 'HEAD /json: it would count hits and return no answer' },
  RL_INTERNAL: { http: 500, grpc: GRPC.INTERNAL, body: 'ratelimit', meaning: 'a decision failed unexpectedly (a defect; the log says more)' },

  AM_NOT_FOUND: { http: 404, grpc: GRPC.NOT_FOUND, body: 'alertmanager-object', apiCode: 404, meaning: 'no alert API route has this path' },
  AM_METHOD_NOT_ALLOWED: { http: 405, grpc: GRPC.UNIMPLEMENTED, body: 'alertmanager-object', apiCode: 405, meaning: 'the path exists but not for this method' },
  AM_BODY_TOO_LARGE: { http: 413, grpc: GRPC.RESOURCE_EXHAUSTED, body: 'alertmanager-object', apiCode: 413, meaning: 'the body is larger than API_MAX_REQUEST_BYTES' },
  AM_UNAVAILABLE: { http: 503, grpc: GRPC.UNAVAILABLE, body: 'alertmanager-object', apiCode: 503, meaning: 'the API thread or this API on it is not running yet (starting, restarting, loading its state), API_MAX_PENDING requests are queued, or request bodies being read take API_MAX_BODY_BYTES_IN_FLIGHT' },
  AM_PARSE_ERROR: { http: 400, grpc: GRPC.INVALID_ARGUMENT, body: 'alertmanager-object', apiCode: 400, meaning: 'the body is not the JSON the operation takes' },
  AM_UNSUPPORTED_MEDIA_TYPE: { http: 415, grpc: GRPC.INVALID_ARGUMENT, body: 'alertmanager-object', apiCode: 415, meaning: 'a POST body that is not application/json' },
  AM_INVALID_TYPE: { http: 422, grpc: GRPC.INVALID_ARGUMENT, body: 'alertmanager-object', apiCode: 601, meaning: 'a field or parameter of the wrong type or format (go-openapi code 601)' },
  AM_REQUIRED: { http: 422, grpc: GRPC.INVALID_ARGUMENT, body: 'alertmanager-object', apiCode: 602, meaning: 'a required field is missing (go-openapi code 602)' },
  AM_TOO_MANY_ITEMS: { http: 422, grpc: GRPC.RESOURCE_EXHAUSTED, body: 'alertmanager-object', apiCode: 611, meaning: 'more alerts in one POST than ALERTMANAGER_MAX_ALERTS_PER_REQUEST (go-openapi code 611)' },
  AM_TOO_FEW_ITEMS: { http: 422, grpc: GRPC.INVALID_ARGUMENT, body: 'alertmanager-object', apiCode: 612, meaning: 'a list with fewer items than required (go-openapi code 612)' },
  AM_BAD_REQUEST: { http: 400, grpc: GRPC.INVALID_ARGUMENT, body: 'alertmanager-string', meaning: 'a request the handler refuses: a bad filter, invalid alerts or silence' },
  AM_SILENCE_NOT_FOUND: { http: 404, grpc: GRPC.NOT_FOUND, body: 'alertmanager-string', meaning: 'POST /silences with an id that does not exist' },
  AM_RELOAD_FAILED: { http: 500, grpc: GRPC.FAILED_PRECONDITION, body: 'text', meaning: 'POST /-/reload with a configuration that does not load; the old one stays' },
  AM_INTERNAL: { http: 500, grpc: GRPC.INTERNAL, body: 'alertmanager-string', meaning: 'a handler failed unexpectedly (a defect; the log says more)' },
  AM_NOT_READY: { http: 503, grpc: GRPC.UNAVAILABLE, body: 'alertmanager-object', apiCode: 503, meaning: 'an alert or silence route while the alert state is still loading at start (/-/ready answers 503 meanwhile)' },
  AM_ALERTS_FULL: { http: 503, grpc: GRPC.RESOURCE_EXHAUSTED, body: 'alertmanager-string', meaning: 'POST /alerts with new alerts while ALERTMANAGER_MAX_ALERTS are held; alerts already held (resolves) are still taken' },

  SC_NOT_FOUND: { http: 404, grpc: GRPC.NOT_FOUND, body: 'flat', apiCode: 'NOT_FOUND', meaning: 'no score API route has this path' },
  SC_METHOD_NOT_ALLOWED: { http: 405, grpc: GRPC.UNIMPLEMENTED, body: 'flat', apiCode: 'METHOD_NOT_ALLOWED', meaning: 'the path exists but not for this method' },
  SC_BODY_TOO_LARGE: { http: 413, grpc: GRPC.RESOURCE_EXHAUSTED, body: 'flat', apiCode: 'PAYLOAD_TOO_LARGE', meaning: 'the body is larger than API_MAX_REQUEST_BYTES' },
  SC_UNAVAILABLE: { http: 503, grpc: GRPC.UNAVAILABLE, body: 'flat', apiCode: 'SERVICE_UNAVAILABLE', meaning: 'the API thread or this API on it is not running yet (starting, restarting, loading its state), API_MAX_PENDING requests are queued, or request bodies being read take API_MAX_BODY_BYTES_IN_FLIGHT' },
  SC_BAD_REQUEST: { http: 400, grpc: GRPC.INVALID_ARGUMENT, body: 'flat', apiCode: 'BAD_REQUEST', meaning: 'a parameter or body field the operation cannot take (param names it)' },
  SC_UNAUTHORIZED: { http: 401, grpc: GRPC.UNAUTHENTICATED, body: 'flat', apiCode: 'UNAUTHORIZED', meaning: 'no bearer token, or one that was never issued' },
  SC_FORBIDDEN: { http: 403, grpc: GRPC.PERMISSION_DENIED, body: 'flat', apiCode: 'FORBIDDEN', meaning: "the token has none of the scopes the operation accepts, or the caller's role does not allow the operation (not the owner, not a teacher of the class)" },
  SC_INVALID_MUSICXML: { http: 400, grpc: GRPC.INVALID_ARGUMENT, body: 'flat', apiCode: 'INVALID_MUSICXML', meaning: 'score data that is not MusicXML (.xml or .mxl); the message says what and where' },
  SC_SCORE_TOO_LARGE: { http: 413, grpc: GRPC.RESOURCE_EXHAUSTED, body: 'flat', apiCode: 'PAYLOAD_TOO_LARGE', meaning: 'MusicXML larger than SCORES_MAX_MUSICXML_BYTES (after inflating an .mxl), or an .mxl entry inflating to more than SCORES_MXL_MAX_RATIO times its compressed size' },
  SC_SCORE_NOT_FOUND: { http: 404, grpc: GRPC.NOT_FOUND, body: 'flat', apiCode: 'NOT_FOUND', meaning: 'no such score, or it is in the trash' },
  SC_REVISION_NOT_FOUND: { http: 404, grpc: GRPC.NOT_FOUND, body: 'flat', apiCode: 'NOT_FOUND', meaning: 'the score has no such revision' },
  SC_EXPORT_UNAVAILABLE: { http: 501, grpc: GRPC.UNIMPLEMENTED, body: 'flat', apiCode: 'NOT_IMPLEMENTED', meaning: 'an audio export while FluidSynth, LAME or the SoundFont is not installed (the message names it)' },
  SC_EXPORT_NOT_CACHED: { http: 404, grpc: GRPC.NOT_FOUND, body: 'flat', apiCode: 'NOT_FOUND', meaning: 'onlyCached=true and the export was not produced yet' },
  SC_EXPORT_FAILED: { http: 422, grpc: GRPC.FAILED_PRECONDITION, body: 'flat', apiCode: 'EXPORT_FAILED', meaning: 'the revision could not be engraved or synthesised (the message says why)' },
  SC_EXPORT_OVER_LIMIT: { http: 422, grpc: GRPC.RESOURCE_EXHAUSTED, body: 'flat', apiCode: 'EXPORT_OVER_LIMIT', meaning: 'producing the export would pass a bound: SCORES_MAX_EXPANDED_MEASURES, SCORES_MAX_AUDIO_DURATION, SCORES_RENDER_MAX_MEMORY_MB or SCORES_RENDER_TIMEOUT (the message names it)' },
  SC_EXPORT_BUSY: { http: 503, grpc: GRPC.UNAVAILABLE, body: 'flat', apiCode: 'SERVICE_UNAVAILABLE', meaning: 'SCORES_EXPORT_MAX_QUEUED exports already wait for a render process or a synthesiser; try again later' },
  SC_FILE_LINK_INVALID: { http: 403, grpc: GRPC.PERMISSION_DENIED, body: 'flat', apiCode: 'FORBIDDEN', meaning: 'a file URL whose signature does not match, or that has expired' },
  SC_COLLABORATOR_NOT_FOUND: { http: 404, grpc: GRPC.NOT_FOUND, body: 'flat', apiCode: 'NOT_FOUND', meaning: 'the score has no such collaborator (a permission id, or a user or group id)' },
  SC_COMMENT_NOT_FOUND: { http: 404, grpc: GRPC.NOT_FOUND, body: 'flat', apiCode: 'NOT_FOUND', meaning: 'the score, or the submission, has no such comment' },
  SC_SCORE_SHARING_FULL: { http: 402, grpc: GRPC.RESOURCE_EXHAUSTED, body: 'flat', apiCode: 'QUOTA_EXCEEDED', meaning: "the score already has SCORES_MAX_COMMENTS_PER_SCORE comments, or 100 collaborators; Flat's 402 Account overquota" },
  SC_TRACK_NOT_FOUND: { http: 404, grpc: GRPC.NOT_FOUND, body: 'flat', apiCode: 'NOT_FOUND', meaning: 'the score has no such track' },
  SC_FILE_NOT_FOUND: { http: 404, grpc: GRPC.NOT_FOUND, body: 'flat', apiCode: 'NOT_FOUND', meaning: 'no such uploaded file (picture or track audio)' },
  SC_CLASS_NOT_FOUND: { http: 404, grpc: GRPC.NOT_FOUND, body: 'flat', apiCode: 'NOT_FOUND', meaning: 'no such class, or no class has this enrollment code' },
  SC_ASSIGNMENT_NOT_FOUND: { http: 404, grpc: GRPC.NOT_FOUND, body: 'flat', apiCode: 'NOT_FOUND', meaning: 'the class has no such assignment, or not one the student may see yet' },
  SC_SUBMISSION_NOT_FOUND: { http: 404, grpc: GRPC.NOT_FOUND, body: 'flat', apiCode: 'NOT_FOUND', meaning: 'the assignment has no such submission (or it was reset)' },
  SC_COLLECTION_NOT_FOUND: { http: 404, grpc: GRPC.NOT_FOUND, body: 'flat', apiCode: 'NOT_FOUND', meaning: 'no such collection (another account\'s special collections are not found either)' },
  SC_TOO_MANY_COLLECTIONS: { http: 402, grpc: GRPC.RESOURCE_EXHAUSTED, body: 'flat', apiCode: 'QUOTA_EXCEEDED', meaning: 'the account already has SCORES_ACCOUNT_MAX_COLLECTIONS collections (trashed ones count)' },
  SC_USER_NOT_FOUND: { http: 404, grpc: GRPC.NOT_FOUND, body: 'flat', apiCode: 'NOT_FOUND', meaning: "no account has this id, or it is not of the caller's organization (organization routes)" },
  SC_QUOTA_EXCEEDED: { http: 402, grpc: GRPC.RESOURCE_EXHAUSTED, body: 'flat', apiCode: 'QUOTA_EXCEEDED', meaning: "the write would take the account past its quota (SCORES_ACCOUNT_MAX_BYTES, SCORES_ACCOUNT_MAX_UPLOADS) or the score past SCORES_MAX_REVISIONS_PER_SCORE; Flat's 402 Account overquota" },
  SC_TOO_MANY_ENROLLMENT_FAILURES: { http: 429, grpc: GRPC.RESOURCE_EXHAUSTED, body: 'flat', apiCode: 'API_RATE_LIMIT_EXCEEDED', meaning: 'the account gave SCORES_ENROLL_FAILURES_PER_MINUTE unknown enrollment codes this minute; Retry-After says when it may try again' },
  SC_TOKEN_EXPIRED: { http: 401, grpc: GRPC.UNAUTHENTICATED, body: 'flat', apiCode: 'UNAUTHORIZED', meaning: 'a personal access token past its expiration date' },
  SC_TOKEN_REVOKED: { http: 401, grpc: GRPC.UNAUTHENTICATED, body: 'flat', apiCode: 'UNAUTHORIZED', meaning: 'a personal access token that was revoked' },
  SC_TOKEN_NOT_FOUND: { http: 404, grpc: GRPC.NOT_FOUND, body: 'flat', apiCode: 'NOT_FOUND', meaning: 'no personal access token has this id (admin routes)' },
  SC_INVITATION_NOT_FOUND: { http: 404, grpc: GRPC.NOT_FOUND, body: 'flat', apiCode: 'NOT_FOUND', meaning: "the caller's organization has no such invitation" },
  SC_LTI_CREDENTIALS_NOT_FOUND: { http: 404, grpc: GRPC.NOT_FOUND, body: 'flat', apiCode: 'NOT_FOUND', meaning: "the caller's organization has no such LTI credentials" },
  SC_LIST_FULL: { http: 409, grpc: GRPC.RESOURCE_EXHAUSTED, body: 'flat', apiCode: 'CONFLICT', meaning: "the list is at its maximum (an organization's LTI credentials, a submission's comments; README's Limits table)" },
  SC_CONFLICT: { http: 409, grpc: GRPC.ALREADY_EXISTS, body: 'flat', apiCode: 'CONFLICT', meaning: "the write clashes with the current state: an e-mail another account has, a student's change to a turned-in submission, a return of one not turned in" },
  SC_INTERNAL: { http: 500, grpc: GRPC.INTERNAL, body: 'flat', apiCode: 'INTERNAL_ERROR', meaning: 'a handler failed unexpectedly (a defect; the log says more)' },

  HTTP_NOT_FOUND: { http: 404, grpc: GRPC.NOT_FOUND, body: 'text', meaning: 'no API owns this path (Go http.NotFound text, as upstream)' },
  HTTP_UNAUTHORIZED: { http: 401, grpc: GRPC.UNAUTHENTICATED, body: 'text', meaning: "WEB_CONFIG_FILE's basic_auth_users is set and a request to an Alertmanager path carries no user and password that match (exporter-toolkit's answer)" },
  HTTP_AUTH_BUSY: { http: 503, grpc: GRPC.UNAVAILABLE, body: 'text', meaning: 'too many credentials not seen before are waiting for their bcrypt check on this HTTP thread; try again' },

  CFG_INVALID: { http: 500, grpc: GRPC.FAILED_PRECONDITION, body: 'text', meaning: 'a rules file failed validation; the rules in service stay' },
  CFG_UNREADABLE: { http: 500, grpc: GRPC.FAILED_PRECONDITION, body: 'text', meaning: 'the rules directory or a file in it could not be read; the rules in service stay' },
  CFG_TOO_LARGE: { http: 500, grpc: GRPC.RESOURCE_EXHAUSTED, body: 'text', meaning: 'the rules are larger than CONFIG_MAX_BYTES; the rules in service stay' },

  DBG_NOT_FOUND: { http: 404, grpc: GRPC.NOT_FOUND, body: 'text', meaning: 'no debug endpoint has this path' },
  DBG_UNKNOWN_PROFILE: { http: 404, grpc: GRPC.NOT_FOUND, body: 'text', meaning: 'a /debug/pprof/ name Node.js has no profile for' },
  DBG_METHOD_NOT_ALLOWED: { http: 405, grpc: GRPC.UNIMPLEMENTED, body: 'text', meaning: 'the endpoint exists but not for this method' },
  DBG_BAD_REQUEST: { http: 400, grpc: GRPC.INVALID_ARGUMENT, body: 'text', meaning: 'a malformed target or query parameter' },
  DBG_CAPTURE_BUSY: { http: 409, grpc: GRPC.FAILED_PRECONDITION, body: 'text', meaning: 'a capture of the same kind is running; one at a time' },
  DBG_SHUTTING_DOWN: { http: 503, grpc: GRPC.UNAVAILABLE, body: 'text', meaning: 'the capture was abandoned because the server is closing or the client left' },
  DBG_INTERNAL: { http: 500, grpc: GRPC.INTERNAL, body: 'text', meaning: 'a debug endpoint failed unexpectedly' },
  DBG_UNAUTHORIZED: { http: 401, grpc: GRPC.UNAUTHENTICATED, body: 'text', meaning: 'a profile or heap snapshot without the DEBUG_TOKEN bearer token (or ?token=)' },
  DBG_FORBIDDEN: { http: 403, grpc: GRPC.PERMISSION_DENIED, body: 'text', meaning: 'a profile or heap snapshot on a debug port that listens beyond loopback while DEBUG_TOKEN is not set' },
  DBG_COUNTER_BAD_REQUEST: { http: 400, grpc: GRPC.INVALID_ARGUMENT, body: 'flat', apiCode: 'BAD_REQUEST', meaning: 'a /counters request whose domain or descriptor parameter is missing or malformed (param names it)' },
  DBG_COUNTER_NOT_FOUND: { http: 404, grpc: GRPC.NOT_FOUND, body: 'flat', apiCode: 'NOT_FOUND', meaning: 'the /counters domain or descriptor matches no rule with a limit (or no configuration is loaded)' },
  DBG_COUNTER_RESET_UNSUPPORTED: { http: 501, grpc: GRPC.UNIMPLEMENTED, body: 'flat', apiCode: 'NOT_IMPLEMENTED', meaning: 'POST /counters/reset on a counter store that cannot reset counters' },
  DBG_COUNTER_STORE_ERROR: { http: 503, grpc: GRPC.UNAVAILABLE, body: 'flat', apiCode: 'STORE_ERROR', meaning: 'the counter store could not read or reset the counter (down, timed out)' },
  DBG_COUNTER_RESET_UNAUTHORIZED: { http: 401, grpc: GRPC.UNAUTHENTICATED, body: 'flat', apiCode: 'UNAUTHORIZED', meaning: 'POST /counters/reset without the DEBUG_TOKEN bearer token (or ?token=)' },
  DBG_COUNTER_RESET_FORBIDDEN: { http: 403, grpc: GRPC.PERMISSION_DENIED, body: 'flat', apiCode: 'FORBIDDEN', meaning: 'POST /counters/reset on a debug port that listens beyond loopback while DEBUG_TOKEN is not set' },
} as const satisfies Record<string, CatalogueEntry>;

export type ErrorCode = keyof typeof ERROR_CATALOGUE;

/** Codes by area prefix, e.g. `RateLimitErrorCode` is every `RL_` code. */
export type ErrorCodeOf<Prefix extends string> = Extract<ErrorCode, `${Prefix}_${string}`>;

export function catalogueEntry(code: ErrorCode): CatalogueEntry {
  return ERROR_CATALOGUE[code];
}

export function httpStatusOf(code: ErrorCode): number {
  return ERROR_CATALOGUE[code].http;
}

export function grpcStatusOf(code: ErrorCode): number {
  return ERROR_CATALOGUE[code].grpc;
}
