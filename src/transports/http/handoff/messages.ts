import type { ApiFileBody } from './api-route.js';

/**
 * What an HTTP front thread and the API thread say to each other over their MessagePort.
 * Bodies travel as transferred ArrayBuffers (moved, not copied).
 */

/** Front -> API thread: a request the front has read whole. */
export interface ForwardedRequest {
  id: number;
  /** The API the front chose by the path's prefix (its manifest's name). */
  api: string;
  /** Upper case, as sent (`GET`). */
  method: string;
  /** The path as sent, still percent-encoded, without the query. */
  url: string;
  /** The query string without `?`; '' when none. */
  query: string;
  /** Header names in lower case, in the order sent. */
  headers: Array<[string, string]>;
  body: ArrayBuffer;
}

/** API thread -> front: the whole response, or where on disk the front reads its body from. */
export interface ForwardedReply {
  id: number;
  status: number;
  headers: Array<[string, string]>;
  body: string | ArrayBuffer | ApiFileBody;
}
