import { Code, type Decision, type RateLimitRequest } from '../engine/index.js';
import { ServiceError } from '../errors/index.js';
import type { Logger } from '../observability/index.js';
import { readBodyText, type Exchange, type HeaderList, type HttpRoute } from '../transports/http/index.js';
import { encodeRateLimitResponseJson, isJsonDecodeError, parseRateLimitRequestJson } from './json-codec.js';

export interface RateLimitRoutesOptions {
  decide(request: RateLimitRequest): Decision | Promise<Decision>;
  isHealthy(): boolean;
  maxRequestBytes: number;
  logger: Logger;
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
  exchange.reply(status, JSON_HEADERS, encodeRateLimitResponseJson(decision));
}

/**
 * The rate limit API's HTTP routes: `/json` (ShouldRateLimit as proto3 JSON, any method, as
 * upstream's `/json` handler) and `/healthcheck` (upstream's health handler: 200 `OK` or 500).
 */
export function rateLimitRoutes(options: RateLimitRoutesOptions): HttpRoute[] {
  const { decide, isHealthy, maxRequestBytes, logger } = options;
  const tooLarge = new ServiceError('RL_BODY_TOO_LARGE', `body larger than MAX_REQUEST_BYTES (${maxRequestBytes})`);
  const failed = (exchange: Exchange, error: unknown): void => {
    logger.error('decision failed', { error: String(error) });
    exchange.replyError(DECISION_FAILED);
  };

  const handleBody = (exchange: Exchange, body: string): void => {
    const request = parseRateLimitRequestJson(body);
    if (isJsonDecodeError(request)) {
      logger.debug('bad /json request', { error: request.message });
      exchange.replyError(new ServiceError('RL_MALFORMED_REQUEST', request.message));
      return;
    }
    let decision: Decision | Promise<Decision>;
    try {
      decision = decide(request);
    } catch (error) {
      failed(exchange, error);
      return;
    }
    if (decision instanceof Promise) {
      decision.then(
        (d) => answer(exchange, d),
        (error: unknown) => failed(exchange, error),
      );
    } else {
      answer(exchange, decision);
    }
  };

  return [
    { method: 'head', pattern: '/json', handle: (exchange) => exchange.replyError(HEAD_REFUSED) },
    {
      method: 'any',
      pattern: '/json',
      handle(exchange) {
        readBodyText(exchange.res, maxRequestBytes, (result) => {
          if (!exchange.isOpen) return;
          if (result.ok) handleBody(exchange, result.body);
          else exchange.replyError(result.error === 'too large' ? tooLarge : NOT_UTF8);
        });
      },
    },
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
