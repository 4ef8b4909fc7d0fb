import type { HttpResponse } from './uws.js';

/**
 * The response whose socket uWS holds corked at this moment, if any. uWS corks a request's
 * socket itself while it runs that request's `onData` callback: what is written there leaves in
 * one send when the callback returns. A reply written inside it needs no `res.cork` of its own,
 * which would cost a call into uWS and back into JavaScript on every response of the hot path.
 * Only that one response is known corked: a reply to any other request goes through `res.cork`.
 */
export const corkedByUws: { res: HttpResponse | undefined } = { res: undefined };
