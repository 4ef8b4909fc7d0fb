import { ServiceError, statusLine, type ErrorCode } from '../../../errors/index.js';
import type { Admission } from '../basic-auth/index.js';
import { readBodyBytes } from '../body-reader.js';
import type { Exchange, HeaderList } from '../exchange.js';
import type { HttpRoute } from '../route.js';
import type { ApiThreadClient } from './api-thread-client.js';
import type { ForwardedReply } from './messages.js';

/** One API served on the API thread, by path prefix, with the errors the front answers for it. */
export interface HandedOffApi {
  /** uWS pattern ending in `/*`, e.g. `/api/v2/*`; the bare prefix without the slash is taken too. */
  pattern: string;
  /** Catalogue codes, so the front's own refusals come in the API's body form. */
  errors: { tooLarge: ErrorCode; unavailable: ErrorCode };
  /** Behind the web configuration's `basic_auth_users` (Alertmanager's paths are). */
  guarded?: boolean;
}

export interface HandoffOptions {
  client: ApiThreadClient;
  apis: readonly HandedOffApi[];
  /** Largest body the front reads for these APIs. */
  maxRequestBytes: number;
  /** Who may use a guarded API, from the request's headers; absent: everyone. */
  admit?: (headers: HeaderList) => Admission | Promise<Admission>;
}

function writeReply(exchange: Exchange, reply: ForwardedReply): void {
  const body = reply.body;
  if (typeof body === 'string' || body instanceof ArrayBuffer) exchange.reply(statusLine(reply.status), reply.headers, body);
  else exchange.replyFile(statusLine(reply.status), reply.headers, body.file, body.size);
}

/**
 * Routes that read a request whole on the front thread and hand it to the API thread, which owns
 * the state of the alert and score APIs; the reply is written back on the front thread. The front
 * does no more work per request than copying the request out of uWS and the reply into it.
 */
export function handoffRoutes({ client, apis, maxRequestBytes, admit }: HandoffOptions): HttpRoute[] {
  const routes: HttpRoute[] = [];
  for (const api of apis) {
    const tooLarge = new ServiceError(api.errors.tooLarge, `request body larger than API_MAX_REQUEST_BYTES (${maxRequestBytes})`);
    const unavailable = new ServiceError(api.errors.unavailable, 'the API thread is restarting; try again');
    const overloaded = new ServiceError(api.errors.unavailable, `API_MAX_PENDING (${client.maxPending}) requests are waiting for the API thread; try again`);
    const handle = (exchange: Exchange, req: Parameters<HttpRoute['handle']>[1]): void => {
      // uWS reuses the request object once this function returns: copy what the API thread needs now.
      const method = req.getCaseSensitiveMethod();
      const url = req.getUrl();
      const query = req.getQuery() ?? '';
      const headers: Array<[string, string]> = [];
      req.forEach((name, value) => headers.push([name, value]));
      const admission = api.guarded === true && admit !== undefined ? admit(headers) : undefined;
      if (admission instanceof ServiceError) {
        exchange.replyError(admission);
        return;
      }
      // A credential not seen before is checked while the body arrives (it must be read now or never).
      readBodyBytes(exchange.res, maxRequestBytes, (body) => {
        const proceed = (refused: Admission) => {
          if (!exchange.isOpen) return;
          if (refused !== undefined) {
            exchange.replyError(refused);
            return;
          }
          if (!body.ok) {
            exchange.replyError(tooLarge);
            return;
          }
          const outcome = client.send({ method, url, query, headers, body: body.bytes.buffer as ArrayBuffer }, (reply) => {
            if (reply === undefined) exchange.replyError(unavailable);
            else writeReply(exchange, reply);
          });
          if (outcome === 'unavailable') exchange.replyError(unavailable);
          else if (outcome === 'overloaded') exchange.replyError(overloaded);
        };
        if (admission === undefined) proceed(undefined);
        else void admission.then(proceed);
      });
    };
    routes.push({ method: 'any', pattern: api.pattern, handle });
    routes.push({ method: 'any', pattern: api.pattern.slice(0, -2), handle });
  }
  return routes;
}
