import type { MessagePort } from 'node:worker_threads';
import { renderHttpError, ServiceError } from '../../../errors/index.js';
import type { ApiOutcome, ApiRequest } from './api-route.js';
import type { ApiRouter } from './api-router.js';
import type { ForwardedReply, ForwardedRequest } from './messages.js';

export interface ApiThreadLog {
  error(msg: string, fields?: Record<string, unknown>): void;
}

/** Texts from this many UTF-16 units are moved to the front as bytes rather than copied as strings. */
const TRANSFER_TEXT_FROM = 16 * 1024;
const textEncoder = new TextEncoder();

function toReply(id: number, outcome: ApiOutcome): { reply: ForwardedReply; transfer: ArrayBuffer[] } {
  if (outcome instanceof ServiceError) {
    const rendered = renderHttpError(outcome);
    return { reply: { id, status: rendered.status, headers: rendered.headers.map(([n, v]) => [n, v]), body: rendered.body }, transfer: [] };
  }
  const body = outcome.body ?? '';
  if (typeof body === 'string') {
    if (body.length < TRANSFER_TEXT_FROM) return { reply: { id, status: outcome.status, headers: outcome.headers ?? [], body }, transfer: [] };
    // A large text (43 MB of alerts) is encoded here and moved, so the front thread neither
    // deserialises a copy of it nor encodes it again: its work stays the same whatever the size.
    const encoded = textEncoder.encode(body);
    return { reply: { id, status: outcome.status, headers: outcome.headers ?? [], body: encoded.buffer }, transfer: [encoded.buffer] };
  }
  if (!(body instanceof Uint8Array)) return { reply: { id, status: outcome.status, headers: outcome.headers ?? [], body }, transfer: [] };
  // A binary body moves to the front thread: copy it into a buffer of its own unless it is one
  // (`new Uint8Array(view)` copies; a Buffer's slice() would share its pool).
  const own = body.byteOffset === 0 && body.byteLength === body.buffer.byteLength ? (body.buffer as ArrayBuffer) : new Uint8Array(body).buffer;
  return { reply: { id, status: outcome.status, headers: outcome.headers ?? [], body: own }, transfer: [own] };
}

function headerMap(headers: ReadonlyArray<[string, string]>): Map<string, string> {
  const map = new Map<string, string>();
  for (const [name, value] of headers) map.set(name, value);
  return map;
}

/**
 * The API thread's end of the hand-off: takes requests from every front thread's port, routes
 * them, runs the handler and posts the reply back on the port it came from. A handler that throws
 * or rejects is answered as its API's internal error and logged; the thread keeps serving.
 */
export class ApiThreadServer {
  constructor(
    private readonly router: ApiRouter,
    private readonly log: ApiThreadLog,
  ) {}

  serve(port: MessagePort): void {
    port.on('message', (request: ForwardedRequest) => {
      void this.dispatch(request).then((outcome) => {
        const { reply, transfer } = toReply(request.id, outcome);
        port.postMessage(reply, transfer);
      });
    });
  }

  /** Routes and runs one request; never rejects. */
  async dispatch(request: ForwardedRequest): Promise<ApiOutcome> {
    const match = this.router.match(request.api, request.method, request.url);
    if (!match.found) return match.error;
    const apiRequest: ApiRequest = {
      method: request.method,
      path: request.url,
      params: match.params,
      query: new URLSearchParams(request.query),
      headers: headerMap(request.headers),
      body: new Uint8Array(request.body),
    };
    try {
      return await match.handle(apiRequest);
    } catch (error) {
      this.log.error('API handler failed', { api: match.api.name, method: request.method, path: request.url, error: String(error) });
      return new ServiceError(match.api.internalError, 'internal error');
    }
  }
}
