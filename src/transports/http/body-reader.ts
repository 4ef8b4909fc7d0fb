import type { HttpResponse } from './uws.js';

export type BodyResult = { ok: true; body: string } | { ok: false; error: 'too large' | 'invalid UTF-8' };

/** Fatal, so malformed bytes are refused (as Go's JSON decoder does) instead of becoming U+FFFD. */
const utf8 = new TextDecoder('utf-8', { fatal: true });

function decode(bytes: Uint8Array): BodyResult {
  try {
    return { ok: true, body: utf8.decode(bytes) };
  } catch {
    return { ok: false, error: 'invalid UTF-8' };
  }
}

/**
 * Reads a request body from uWS, which hands it over in chunks whose memory it reuses
 * after each callback: chunks are copied unless the whole body came in one. Bodies past
 * `maxBytes` are cut off early. The caller must already have registered `onAborted`.
 */
export function readBody(res: HttpResponse, maxBytes: number, done: (result: BodyResult) => void): void {
  let chunks: Buffer[] | undefined;
  let size = 0;
  let finished = false;
  res.onData((chunk, isLast) => {
    if (finished) return;
    size += chunk.byteLength;
    if (size > maxBytes) {
      finished = true;
      done({ ok: false, error: 'too large' });
      return;
    }
    if (isLast && chunks === undefined) {
      finished = true;
      done(decode(new Uint8Array(chunk)));
      return;
    }
    (chunks ??= []).push(Buffer.from(new Uint8Array(chunk)));
    if (isLast) {
      finished = true;
      done(decode(Buffer.concat(chunks, size)));
    }
  });
}
