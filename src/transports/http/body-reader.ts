import type { HttpResponse } from './uws.js';

export type BodyResult = { ok: true; body: string } | { ok: false; tooLarge: true };

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
      done({ ok: false, tooLarge: true });
      return;
    }
    if (isLast && chunks === undefined) {
      finished = true;
      done({ ok: true, body: Buffer.from(chunk).toString('utf8') });
      return;
    }
    (chunks ??= []).push(Buffer.from(new Uint8Array(chunk)));
    if (isLast) {
      finished = true;
      done({ ok: true, body: Buffer.concat(chunks, size).toString('utf8') });
    }
  });
}
