import { renderHttpError, statusLine, type ServiceError } from '../../errors/index.js';
import type { InFlight } from './in-flight.js';
import type { HttpResponse } from './uws.js';

export type HeaderList = ReadonlyArray<readonly [string, string]>;

type Body = string | Uint8Array | ArrayBuffer;

function byteLengthOf(body: Body): number {
  return typeof body === 'string' ? Buffer.byteLength(body) : body.byteLength;
}

function bytesOf(body: Body): Uint8Array {
  if (typeof body === 'string') return Buffer.from(body);
  return body instanceof Uint8Array ? body : new Uint8Array(body);
}

/**
 * One request and its response. uWS forbids touching a response after the client went away or
 * after it was ended, so every write goes through here: it tracks both, and counts the request
 * in flight until the response is written whole, so shutdown can drain it.
 *
 * Backpressure: a response the socket cannot take at once is not buffered whole by uWS (as
 * `end` would do). The rest waits here until the client takes it (`onWritable`), and a request
 * pipelined behind a response still being written makes uWS close the connection. A client
 * that sends without reading therefore holds one response at most. (uWS's `pause` would stop
 * the socket's writable events too, so the rest would never go out.)
 */
export class Exchange {
  /** Until the response is written whole or the client went away. */
  private open = true;
  /** Set once a reply began: a second one is ignored. */
  private replied = false;

  constructor(
    readonly res: HttpResponse,
    private readonly inFlight: InFlight,
    /** A HEAD request: the reply's status and headers go out, its body does not. */
    private readonly head = false,
  ) {
    inFlight.begin();
    res.onAborted(() => this.finish());
  }

  /** False once a reply began or the client went away: handlers then write nothing. */
  get isOpen(): boolean {
    return this.open && !this.replied;
  }

  /** Marks the exchange done (written or aborted); false if it already was. */
  private finish(): boolean {
    if (!this.open) return false;
    this.open = false;
    this.inFlight.end();
    return true;
  }

  /**
   * Writes a whole response. `status` is a full status line (`200 OK`): uWS writes it verbatim,
   * and the hot path passes constants rather than building one per request.
   */
  reply(status: string, headers: HeaderList, body: Body): void {
    if (!this.isOpen) return;
    this.replied = true;
    const res = this.res;
    const closeConnection = this.inFlight.draining;
    res.cork(() => {
      res.writeStatus(status);
      for (let i = 0; i < headers.length; i++) {
        const header = headers[i] as readonly [string, string];
        res.writeHeader(header[0], header[1]);
      }
      if (this.head) {
        res.endWithoutBody(byteLengthOf(body), closeConnection);
        this.finish();
        return;
      }
      if (closeConnection) {
        // Shutting down: uWS buffers the rest and closes the connection after it.
        res.end(body, true);
        this.finish();
        return;
      }
      const total = byteLengthOf(body);
      const start = res.getWriteOffset();
      const [, done] = res.tryEnd(body, total);
      if (done) this.finish();
      else this.writeWhenWritable(bytesOf(body), start, total);
    });
  }

  /** The rest of a response the socket could not take, written as the client takes it. */
  private writeWhenWritable(bytes: Uint8Array, start: number, total: number): void {
    const res = this.res;
    res.onWritable((offset) => {
      if (!this.open) return true;
      const [ok, done] = res.tryEnd(bytes.subarray(offset - start), total);
      if (done) this.finish();
      return ok;
    });
  }

  /** The error in the body form of the API it belongs to (errors/http-rendering.ts). */
  replyError(error: ServiceError): void {
    const rendered = renderHttpError(error);
    this.reply(statusLine(rendered.status), rendered.headers, rendered.body);
  }
}
