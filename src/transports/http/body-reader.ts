import { corkedByUws } from './corked-response.js';
import type { HttpResponse } from './uws.js';

export type BodyBytesResult = { ok: true; bytes: Uint8Array } | { ok: false; error: 'too large' | 'over budget' };
export type BodyTextResult = { ok: true; body: string } | { ok: false; error: 'too large' | 'invalid UTF-8' };
/** `bytes` is valid only during the callback it is handed to (see readBodyView). */
export type BodyViewResult = { ok: true; bytes: Uint8Array } | { ok: false; error: 'too large' };

/** Fatal, so malformed bytes are refused (as Go's JSON decoder does) instead of becoming U+FFFD. */
const utf8 = new TextDecoder('utf-8', { fatal: true });

/** How a body becomes a result; one constant per result type, so reading allocates no sink per request. */
interface BodyShape<R> {
  /** The whole body came in one chunk: uWS's own memory, valid only during this call. */
  single(chunk: ArrayBuffer): R;
  /** The whole body, gathered from several chunks into memory of our own. */
  gathered(bytes: Uint8Array): R;
  readonly tooLarge: R;
  /** The reader's `hold` refused a chunk (only shapes read with one have it). */
  readonly overBudget?: R;
}

/** Asked before each chunk is kept: false refuses the body (memory past a shared budget). */
export type BodyHold = (bytes: number) => boolean;

/**
 * Reads a request body from uWS, which hands it over in chunks whose memory it reuses after each
 * callback. Bodies past `maxBytes` are cut off as soon as they pass it (which covers chunked
 * bodies with no Content-Length). A request with no body reads as one empty chunk. The caller
 * must already have registered `onAborted` (Exchange does); after an abort uWS never calls again.
 */
function collect<R>(res: HttpResponse, maxBytes: number, shape: BodyShape<R>, done: (result: R) => void, hold?: BodyHold): void {
  let chunks: Uint8Array[] | undefined;
  let size = 0;
  let finished = false;
  res.onData((chunk, isLast) => {
    if (finished) return;
    const outer = corkedByUws.res;
    corkedByUws.res = res;
    try {
      size += chunk.byteLength;
      if (size > maxBytes) {
        finished = true;
        done(shape.tooLarge);
        return;
      }
      if (hold !== undefined && shape.overBudget !== undefined && !hold(chunk.byteLength)) {
        finished = true;
        done(shape.overBudget);
        return;
      }
      if (isLast && chunks === undefined) {
        finished = true;
        done(shape.single(chunk));
        return;
      }
      (chunks ??= []).push(new Uint8Array(chunk.slice(0)));
      if (isLast) {
        finished = true;
        done(shape.gathered(concat(chunks, size)));
      }
    } finally {
      corkedByUws.res = outer;
    }
  });
}

function concat(chunks: readonly Uint8Array[], size: number): Uint8Array {
  const whole = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    whole.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return whole;
}

/** Bytes of its own: the result owns its whole ArrayBuffer, so it can be kept or moved to another thread. */
const AS_BYTES: BodyShape<BodyBytesResult> = {
  single: (chunk) => ({ ok: true, bytes: new Uint8Array(chunk.slice(0)) }),
  gathered: (bytes) => ({ ok: true, bytes }),
  tooLarge: { ok: false, error: 'too large' },
  overBudget: { ok: false, error: 'over budget' },
};

/** The bytes as they are: a body in one chunk is a view of uWS's memory, with no copy (the /json hot path). */
const AS_VIEW: BodyShape<BodyViewResult> = {
  single: (chunk) => ({ ok: true, bytes: new Uint8Array(chunk) }),
  gathered: (bytes) => ({ ok: true, bytes }),
  tooLarge: { ok: false, error: 'too large' },
};

/** UTF-8 text; a body in one chunk is decoded straight from uWS's memory, with no copy. */
const AS_TEXT: BodyShape<BodyTextResult> = {
  single: (chunk) => decode(new Uint8Array(chunk)),
  gathered: (bytes) => decode(bytes),
  tooLarge: { ok: false, error: 'too large' },
};

/** The body as bytes of its own; `hold` is asked before each chunk is kept (see BodyBudget). */
export function readBodyBytes(res: HttpResponse, maxBytes: number, done: (result: BodyBytesResult) => void, hold?: BodyHold): void {
  collect(res, maxBytes, AS_BYTES, done, hold);
}

/**
 * The body's bytes, to be read during `done` only: a body that came in one chunk is uWS's own
 * memory, which it reuses once `done` returns. Whatever outlives the call must be copied.
 */
export function readBodyView(res: HttpResponse, maxBytes: number, done: (result: BodyViewResult) => void): void {
  collect(res, maxBytes, AS_VIEW, done);
}

export function readBodyText(res: HttpResponse, maxBytes: number, done: (result: BodyTextResult) => void): void {
  collect(res, maxBytes, AS_TEXT, done);
}

export function decode(bytes: Uint8Array): BodyTextResult {
  try {
    return { ok: true, body: utf8.decode(bytes) };
  } catch {
    return { ok: false, error: 'invalid UTF-8' };
  }
}
