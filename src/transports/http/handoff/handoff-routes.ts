import { ServiceError, statusLine } from '../../../errors/index.js';
import type { Admission } from '../basic-auth/index.js';
import type { BodyBudget } from '../body-budget.js';
import { readBodyBytes } from '../body-reader.js';
import type { Exchange, HeaderList } from '../exchange.js';
import type { HttpRoute } from '../route.js';
import type { ApiManifest } from './api-route.js';
import type { ApiThreadClient } from './api-thread-client.js';
import type { ForwardedReply } from './messages.js';

export interface HandoffOptions {
  client: ApiThreadClient;
  /** The APIs the API thread serves; the front's own refusals come in each one's body form. */
  apis: readonly ApiManifest[];
  /** Largest body the front reads for these APIs. */
  maxRequestBytes: number;
  /** Body bytes every HTTP thread together may hold until their answers went out. */
  budget: BodyBudget;
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
export function handoffRoutes({ client, apis, maxRequestBytes, budget, admit }: HandoffOptions): HttpRoute[] {
  const routes: HttpRoute[] = [];
  for (const api of apis) {
    const tooLarge = new ServiceError(api.errors.tooLarge, `request body larger than API_MAX_REQUEST_BYTES (${maxRequestBytes})`);
    const overBudget = new ServiceError(
      api.errors.unavailable,
      `request bodies being read take API_MAX_BODY_BYTES_IN_FLIGHT (${budget.maxBytes} bytes) already; try again`,
    );
    const unavailable = new ServiceError(api.errors.unavailable, 'the API thread is not running yet (starting or restarting); try again');
    const overloaded = new ServiceError(api.errors.unavailable, `API_MAX_PENDING (${client.maxPending}) requests are waiting for the API thread; try again`);
    const handle = (exchange: Exchange, req: Parameters<HttpRoute['handle']>[1]): void => {
      // uWS reuses the request object once this function returns: copy what the API thread needs now.
      const method = req.getCaseSensitiveMethod();
      const url = req.getUrl();
      const query = req.getQuery() ?? '';
      const headers: Array<[string, string]> = [];
      req.forEach((name, value) => headers.push([name, value]));
      const admission = api.guarded === true && admit !== undefined ? admit(headers) : undefined;
      if (admission instanceof ServiceError) return exchange.replyError(admission);
      // A declared length is checked and held before a byte is read, so a refusal comes at once;
      // a chunked body holds its bytes chunk by chunk. All is given back when the answer went out.
      const declared = declaredLength(req.getHeader('content-length'));
      if (declared > maxRequestBytes) return exchange.replyError(tooLarge);
      let held = 0;
      const hold = (bytes: number): boolean => {
        if (!budget.take(bytes)) return false;
        held += bytes;
        return true;
      };
      exchange.onEnd(() => budget.give(held));
      // Over the budget, the body is not read at all: a flood of uploads then costs nothing but
      // the refusal. (A 413 still reads the body: clients that do not read an answer before they
      // have sent their body, as fetch does, would otherwise see a reset instead of the 413.)
      if (declared > 0 && !hold(declared)) return exchange.refuseUnread(overBudget);
      // A credential not seen before is checked while the body arrives (it must be read now or never).
      readBodyBytes(
        exchange.res,
        maxRequestBytes,
        (body) => {
          const proceed = (refused: Admission) => {
            if (!exchange.isOpen) return;
            if (refused !== undefined) return exchange.replyError(refused);
            if (!body.ok) return body.error === 'too large' ? exchange.replyError(tooLarge) : exchange.refuseUnread(overBudget);
            const outcome = client.send({ api: api.name, method, url, query, headers, body: body.bytes.buffer as ArrayBuffer }, (reply) => {
              if (reply === undefined) exchange.replyError(unavailable);
              else writeReply(exchange, reply);
            });
            if (outcome === 'unavailable') exchange.replyError(unavailable);
            else if (outcome === 'overloaded') exchange.replyError(overloaded);
          };
          if (admission === undefined) proceed(undefined);
          else void admission.then(proceed);
        },
        declared > 0 ? undefined : hold,
      );
    };
    for (const prefix of api.prefixes) {
      routes.push({ method: 'any', pattern: `${prefix}*`, handle });
      routes.push({ method: 'any', pattern: prefix.replace(/\/$/, ''), handle });
    }
  }
  return routes;
}

/** Content-Length as a number; 0 when absent or not a plain decimal (uWS frames such bodies itself). */
function declaredLength(header: string): number {
  return /^\d{1,15}$/.test(header) ? Number(header) : 0;
}
