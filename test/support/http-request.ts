/** Plain HTTP requests from a test, with the body read whole and parsed as JSON when it is JSON. */

export interface HttpResult {
  status: number;
  /** Lower-cased header names. */
  headers: Record<string, string>;
  text: string;
  /** The parsed body, or undefined when it is not JSON. */
  json: any;
}

/** Any subset of RequestInit that tests need (kept loose: fetch's types differ across @types/node). */
export interface RequestOptions {
  method?: string;
  headers?: Record<string, string>;
  body?: string | Uint8Array | ReadableStream<Uint8Array>;
}

export async function httpRequest(url: string, options: RequestOptions = {}): Promise<HttpResult> {
  const init: Record<string, unknown> = { method: options.method ?? 'GET', headers: options.headers };
  if (options.body !== undefined) {
    init['body'] = options.body;
    if (typeof ReadableStream !== 'undefined' && options.body instanceof ReadableStream) init['duplex'] = 'half';
  }
  const response = await fetch(url, init as RequestInit);
  const text = await response.text();
  const headers: Record<string, string> = {};
  response.headers.forEach((value, key) => {
    headers[key] = value;
  });
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: response.status, headers, text, json };
}

/** Body for /json: strings, bytes and streams (sent chunked) as they are, anything else as JSON. */
export function jsonBody(body: unknown): string | Uint8Array | ReadableStream<Uint8Array> {
  if (typeof body === 'string' || body instanceof Uint8Array || body instanceof ReadableStream) return body;
  return JSON.stringify(body);
}
