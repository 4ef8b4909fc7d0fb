import { Code, type Decide, type Decision, type RateLimitRequest } from '../../engine/index.js';
import { ServiceError, httpStatusOf } from '../../errors/index.js';
import type { Logger, ServerSpan, Tracing } from '../../observability/index.js';
import { decodeBodyText, readBodyView, type Exchange, type HeaderList, type HttpRequest, type HttpRoute } from '../../transports/http/index.js';
import { encodeRateLimitResponseJson, encodeRateLimitResponseJsonBytes, isJsonDecodeError, parseRateLimitRequestJson } from './json-codec.js';
import { RepeatedRequests } from '../repeated-requests.js';

export interface RateLimitRoutesOptions {
  decide: Decide;
  isHealthy(): boolean;
  maxRequestBytes: number;
  /** REQUEST_CACHE_SIZE: distinct bodies kept read and matched for their repeats (0: none). */
  requestCacheSize: number;
  logger: Logger;
  /** Absent: requests are not traced, and the route runs no tracing code. */
  tracing?: Tracing;
}

// Constants, so the hot path builds no status line or header list per request.
const OK = '200 OK';
const TOO_MANY_REQUESTS = '429 Too Many Requests';
const INTERNAL_SERVER_ERROR = '500 Internal Server Error';
const JSON_HEADERS: HeaderList = [['Content-Type', 'application/json']];
const NO_HEADERS: HeaderList = [];
const DECISION_FAILED = new ServiceError('RL_INTERNAL', 'internal error');
const NOT_UTF8 = new ServiceError('RL_MALFORMED_REQUEST', 'body is not valid UTF-8');
/** Upstream's /json takes any method; HEAD would consume hits and throw the answer away. */
const HEAD_REFUSED = new ServiceError('RL_METHOD_NOT_ALLOWED', 'HEAD /json would count hits without returning the answer; use POST', { allow: 'POST' });

function answer(exchange: Exchange, decision: Decision): void {
  if (decision instanceof ServiceError) {
    exchange.replyError(decision);
    return;
  }
  const code = decision.overallCode;
  const status = code === Code.OK ? OK : code === Code.OVER_LIMIT ? TOO_MANY_REQUESTS : INTERNAL_SERVER_ERROR;
  // RESPONSE_LIMIT_POLICY (extension): the policy of the limit that fired, or of the closest one.
  const headers: HeaderList = decision.limitPolicy === undefined ? JSON_HEADERS : [...JSON_HEADERS, ['RateLimit-Policy', decision.limitPolicy]];
  exchange.replyLent(status, headers, encodeRateLimitResponseJsonBytes(decision));
}

/** `body` is read during the call only (it may be uWS's memory). */
type DecideBody = <C>(
  exchange: Exchange,
  body: Uint8Array,
  context: C,
  reply: (exchange: Exchange, context: C, decision: Decision) => void,
  fail: (exchange: Exchange, context: C, error: unknown) => void,
) => void;

/** The HTTP status a decision is answered with. */
function statusOf(decision: Decision): number {
  if (decision instanceof ServiceError) return httpStatusOf(decision.code);
  return decision.overallCode === Code.OK ? 200 : decision.overallCode === Code.OVER_LIMIT ? 429 : 500;
}

/** The propagation headers of a request, read while uWS still holds it. */
function traceHeaders(req: HttpRequest, names: readonly string[]): Map<string, string> {
  const headers = new Map<string, string>();
  for (const name of names) {
    const value = req.getHeader(name);
    if (value !== '') headers.set(name, value);
  }
  return headers;
}

function endHttpSpan(span: ServerSpan, status: number): void {
  span.setAttribute('http.response.status_code', status);
  if (status >= 500) span.fail(`HTTP ${status}`);
  span.end();
}

/**
 * The rate limit API's HTTP routes: `/json` (ShouldRateLimit as proto3 JSON, any method, as
 * upstream's `/json` handler) and `/healthcheck` (upstream's health handler: 200 `OK` or 500).
 */
export function rateLimitRoutes(options: RateLimitRoutesOptions): HttpRoute[] {
  const { decide, isHealthy, maxRequestBytes, logger } = options;
  const repeated = new RepeatedRequests(options.requestCacheSize);
  const tooLarge = new ServiceError('RL_BODY_TOO_LARGE', `body larger than MAX_REQUEST_BYTES (${maxRequestBytes})`);
  const failed = (exchange: Exchange, error: unknown): void => {
    logger.error('decision failed', { error: String(error) });
    exchange.replyError(DECISION_FAILED);
  };

  /**
   * Decides a `/json` body and hands the decision, or the failure, to `reply` or `fail` with
   * `context` passed along: the plain route passes nothing, the traced one its server span.
   */
  const decideBody: DecideBody = (exchange, body, context, reply, fail) => {
    // A repeat of a kept body is not read again (see RepeatedRequests).
    const cached = repeated.use();
    let repeat = cached ? repeated.get(body) : undefined;
    let request: RateLimitRequest;
    if (repeat !== undefined) {
      request = repeat.request;
    } else {
      const text = decodeBodyText(body);
      if (!text.ok) {
        reply(exchange, context, NOT_UTF8);
        return;
      }
      const read = parseRateLimitRequestJson(text.body);
      if (isJsonDecodeError(read)) {
        logger.debug('bad /json request', { error: read.message });
        reply(exchange, context, new ServiceError('RL_MALFORMED_REQUEST', read.message));
        return;
      }
      request = read;
      if (cached) repeat = repeated.remember(body, read);
    }
    let decision: Decision | Promise<Decision>;
    try {
      decision = decide(request, repeat?.reuse);
    } catch (error) {
      fail(exchange, context, error);
      return;
    }
    if (decision instanceof Promise) {
      decision.then(
        (d) => reply(exchange, context, d),
        (error: unknown) => fail(exchange, context, error),
      );
    } else {
      reply(exchange, context, decision);
    }
  };
  const plainReply = (exchange: Exchange, _: undefined, decision: Decision) => answer(exchange, decision);
  const plainFail = (exchange: Exchange, _: undefined, error: unknown) => failed(exchange, error);

  const json: HttpRoute = {
    method: 'any',
    pattern: '/json',
    handle(exchange) {
      readBodyView(exchange.res, maxRequestBytes, (result) => {
        if (!exchange.isOpen) return;
        if (result.ok) decideBody(exchange, result.bytes, undefined, plainReply, plainFail);
        else exchange.replyError(tooLarge);
      });
    },
  };

  return [
    { method: 'head', pattern: '/json', handle: (exchange) => exchange.replyError(HEAD_REFUSED) },
    options.tracing === undefined ? json : tracedJsonRoute(options.tracing, maxRequestBytes, decideBody, tooLarge, failed),
    {
      method: 'any',
      pattern: '/healthcheck',
      handle(exchange) {
        if (isHealthy()) exchange.reply(OK, NO_HEADERS, 'OK');
        else exchange.reply(INTERNAL_SERVER_ERROR, NO_HEADERS, '');
      },
    },
  ];
}

/**
 * `/json` in a SERVER span that continues the trace of the request's `traceparent` or B3 headers,
 * with the decision span inside and upstream's `NewJsonHandler Remaining Execution` span (the
 * answer as its `response` attribute) around the reply.
 */
function tracedJsonRoute(tracing: Tracing, maxRequestBytes: number, decideBody: DecideBody, tooLarge: ServiceError, failed: (exchange: Exchange, error: unknown) => void): HttpRoute {
  const reply = (exchange: Exchange, span: ServerSpan, decision: Decision) => {
    const response = () => ({ response: decision instanceof ServiceError ? decision.message : encodeRateLimitResponseJson(decision) });
    // answer() writes synchronously, so the span has ended when inSpan returns.
    void tracing.inLeafSpan('NewJsonHandler Remaining Execution', response, () => answer(exchange, decision));
    endHttpSpan(span, statusOf(decision));
  };
  const fail = (exchange: Exchange, span: ServerSpan, error: unknown) => {
    failed(exchange, error);
    endHttpSpan(span, 500);
  };
  return {
    method: 'any',
    pattern: '/json',
    handle(exchange, req) {
      const method = req.getCaseSensitiveMethod();
      const headers = traceHeaders(req, tracing.propagationHeaders);
      const attributes = { 'http.request.method': method, 'url.path': '/json' };
      readBodyView(exchange.res, maxRequestBytes, (result) => {
        if (!exchange.isOpen) return;
        // Synchronous: the body is read before uWS takes its memory back.
        tracing.inServerSpan(`${method} /json`, (name) => headers.get(name), attributes, (span) => {
          if (result.ok) decideBody(exchange, result.bytes, span, reply, fail);
          else reply(exchange, span, tooLarge);
        });
      });
    },
  };
}
