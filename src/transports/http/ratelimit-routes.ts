import type { Decision } from '../../engine/index.js';
import { Code, type RateLimitRequest } from '../../engine/index.js';
import { RateLimitError, httpStatusOf } from '../../errors/index.js';
import type { Logger } from '../../observability/index.js';
import { readBody } from './body-reader.js';
import type { HttpRoutes, InFlight } from './http-server.js';
import { encodeRateLimitResponseJson, isJsonDecodeError, parseRateLimitRequestJson } from './json-codec.js';
import type { HttpResponse, TemplatedApp } from './uws.js';

export interface RateLimitRoutesOptions {
  decide(request: RateLimitRequest): Decision | Promise<Decision>;
  isHealthy(): boolean;
  maxRequestBytes: number;
  logger: Logger;
}

const STATUS_LINE: Readonly<Record<number, string>> = {
  200: '200 OK',
  400: '400 Bad Request',
  413: '413 Payload Too Large',
  429: '429 Too Many Requests',
  500: '500 Internal Server Error',
};
const TEXT_BODY: Readonly<Record<number, string>> = {
  400: 'Bad Request\n',
  413: 'Payload Too Large\n',
  500: 'Internal Server Error\n',
};
const TEXT_PLAIN = 'text/plain; charset=utf-8';

/** Header values may carry only visible ASCII; a reason quotes client input, so mask the rest. */
function headerSafe(text: string): string {
  const safe = text.replace(/[^\x20-\x7e]/g, '?');
  return safe.length > 200 ? `${safe.slice(0, 200)}...` : safe;
}

/** Tracks one request's connection, since uWS forbids touching a response after it was aborted. */
interface Exchange {
  res: HttpResponse;
  open: boolean;
  inFlight: InFlight;
}

/** Marks the exchange answered or aborted; false if it already was. */
function close(exchange: Exchange): boolean {
  if (!exchange.open) return false;
  exchange.open = false;
  exchange.inFlight.end();
  return true;
}

function finish(exchange: Exchange, status: number, contentType: string, body: string, reason?: string): void {
  if (!close(exchange)) return;
  const res = exchange.res;
  res.cork(() => {
    res.writeStatus(STATUS_LINE[status] ?? String(status)).writeHeader('Content-Type', contentType);
    // Upstream answers every bad request with a bare `Bad Request`; the reason rides in a header.
    if (reason !== undefined) res.writeHeader('X-Ratelimit-Error', headerSafe(reason));
    res.end(body, exchange.inFlight.draining);
  });
}

function finishWithError(exchange: Exchange, error: RateLimitError): void {
  const status = httpStatusOf(error.code);
  finish(exchange, status, TEXT_PLAIN, TEXT_BODY[status] ?? 'Bad Request\n', error.message);
}

function finishWithDecision(exchange: Exchange, decision: Decision): void {
  if (decision instanceof RateLimitError) {
    finishWithError(exchange, decision);
    return;
  }
  const code = decision.overallCode;
  const status = code === Code.OK ? 200 : code === Code.OVER_LIMIT ? 429 : 500;
  finish(exchange, status, 'application/json', encodeRateLimitResponseJson(decision));
}

/** `/json` (ShouldRateLimit as proto3 JSON, any method) and `/healthcheck` (ref §2.15, §2.16). */
export function rateLimitRoutes(options: RateLimitRoutesOptions): HttpRoutes {
  const { decide, isHealthy, maxRequestBytes, logger } = options;

  const handleBody = (exchange: Exchange, body: string): void => {
    const request = parseRateLimitRequestJson(body);
    if (isJsonDecodeError(request)) {
      logger.debug('bad /json request', { error: request.message });
      finishWithError(exchange, new RateLimitError('MALFORMED_REQUEST', request.message));
      return;
    }
    let decision: Decision | Promise<Decision>;
    try {
      decision = decide(request);
    } catch (error) {
      logger.error('decision failed', { error: String(error) });
      finish(exchange, 500, TEXT_PLAIN, TEXT_BODY[500] as string);
      return;
    }
    if (decision instanceof Promise) {
      decision.then(
        (d) => finishWithDecision(exchange, d),
        (error: unknown) => {
          logger.error('decision failed', { error: String(error) });
          finish(exchange, 500, TEXT_PLAIN, TEXT_BODY[500] as string);
        },
      );
    } else {
      finishWithDecision(exchange, decision);
    }
  };

  return {
    register(app: TemplatedApp, inFlight: InFlight) {
      app.any('/json', (res) => {
        const exchange: Exchange = { res, open: true, inFlight };
        inFlight.begin();
        res.onAborted(() => close(exchange));
        // The size limit is enforced while reading, which also covers chunked bodies.
        readBody(res, maxRequestBytes, (result) => {
          if (!exchange.open) return;
          if (!result.ok) {
            finishWithError(
              exchange,
              result.error === 'too large'
                ? new RateLimitError('BODY_TOO_LARGE', `body larger than MAX_REQUEST_BYTES (${maxRequestBytes})`)
                : new RateLimitError('MALFORMED_REQUEST', 'body is not valid UTF-8'),
            );
            return;
          }
          handleBody(exchange, result.body);
        });
      });

      app.any('/healthcheck', (res) => {
        if (isHealthy()) res.writeStatus('200 OK').end('OK', inFlight.draining);
        else res.writeStatus('500 Internal Server Error').end(undefined, inFlight.draining);
      });
    },
  };
}
