// Imported: on Node 20 the global `Buffer` is an accessor, a getter call per use on the hot path.
import { Buffer } from 'node:buffer';
import { open, type FileHandle } from 'node:fs/promises';
import { renderHttpError, statusLine, type ServiceError } from '../../errors/index.js';
import { corkedByUws } from './corked-response.js';
import type { InFlight } from './in-flight.js';
import type { HttpResponse } from './uws.js';

export type HeaderList = ReadonlyArray<readonly [string, string]>;

type Body = string | Uint8Array | ArrayBuffer;

const NO_HEADERS: HeaderList = [];

/** Bytes read from a file per write: large enough to fill a socket buffer, small enough to hold per connection. */
const FILE_CHUNK_BYTES = 256 * 1024;

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
  /** A file body waiting for the socket to take more; woken when the client goes away too. */
  private wakeWriter: (() => void) | undefined;
  /** Runs once the response is written whole or the client went away (see `onEnd`). */
  private ended: (() => void) | undefined;

  constructor(
    readonly res: HttpResponse,
    private readonly inFlight: InFlight,
    /** A HEAD request: the reply's status and headers go out, its body does not. */
    private readonly head = false,
    /** Headers every response of the server carries (the web configuration's), unless the reply sets the same one. */
    private readonly serverHeaders: HeaderList = NO_HEADERS,
  ) {
    inFlight.begin();
    res.onAborted(() => this.finish());
  }

  /** False once a reply began or the client went away: handlers then write nothing. */
  get isOpen(): boolean {
    return this.open && !this.replied;
  }

  /** Runs `release` once the response is written whole or the client went away (one per exchange). */
  onEnd(release: () => void): void {
    if (!this.open) release();
    else this.ended = release;
  }

  /** Marks the exchange done (written or aborted); false if it already was. */
  private finish(): boolean {
    if (!this.open) return false;
    this.open = false;
    this.inFlight.end();
    this.wakeWriter?.();
    this.ended?.();
    return true;
  }

  /**
   * Writes a whole response. `status` is a full status line (`200 OK`): uWS writes it verbatim,
   * and the hot path passes constants rather than building one per request.
   */
  reply(status: string, headers: HeaderList, body: Body): void {
    this.send(status, headers, body, false);
  }

  /**
   * Writes a whole response whose body is only lent for the call (an encoder's reused buffer):
   * what the socket does not take at once is copied before this returns.
   */
  replyLent(status: string, headers: HeaderList, body: Uint8Array): void {
    this.send(status, headers, body, true);
  }

  private send(status: string, headers: HeaderList, body: Body, lent: boolean): void {
    if (!this.isOpen) return;
    this.replied = true;
    if (corkedByUws.res === this.res) this.writeReply(status, headers, body, lent);
    else this.res.cork(() => this.writeReply(status, headers, body, lent));
  }

  /** The reply's status, headers and body; the socket is corked, so they leave in one send. */
  private writeReply(status: string, headers: HeaderList, body: Body, lent: boolean): void {
    const res = this.res;
    const closeConnection = this.inFlight.draining;
    res.writeStatus(status);
    for (let i = 0; i < headers.length; i++) {
      const header = headers[i] as readonly [string, string];
      res.writeHeader(header[0], header[1]);
    }
    if (this.serverHeaders.length > 0) this.writeServerHeaders(headers);
    const total = byteLengthOf(body);
    if (this.head) {
      res.endWithoutBody(total, closeConnection);
      this.finish();
      return;
    }
    if (closeConnection) {
      // Shutting down: uWS buffers the rest and closes the connection after it.
      res.end(body, true);
      this.finish();
      return;
    }
    const start = res.getWriteOffset();
    const [, done] = res.tryEnd(body, total);
    if (done) this.finish();
    else this.writeWhenWritable(lent ? bytesOf(body).slice() : bytesOf(body), start, total);
  }

  /** The server's headers the reply does not set itself (its own value wins, as a Go handler's Set does). */
  private writeServerHeaders(replyHeaders: HeaderList): void {
    for (const [name, value] of this.serverHeaders) {
      const lower = name.toLowerCase();
      if (!replyHeaders.some(([own]) => own.toLowerCase() === lower)) this.res.writeHeader(name, value);
    }
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

  /**
   * Writes a response whose body is `size` bytes of the file at `path`, read a chunk at a time as
   * the client takes it: a body of any size holds one chunk of memory. A file that cannot be read
   * after the status went out closes the connection (the client sees a short body, not a wrong one).
   */
  replyFile(status: string, headers: HeaderList, path: string, size: number): void {
    if (!this.isOpen) return;
    this.replied = true;
    const res = this.res;
    res.cork(() => {
      res.writeStatus(status);
      for (const [name, value] of headers) res.writeHeader(name, value);
      if (this.serverHeaders.length > 0) this.writeServerHeaders(headers);
      if (this.head || size === 0) {
        res.endWithoutBody(size, this.inFlight.draining);
        this.finish();
      }
    });
    if (this.open) void this.streamFile(path, size);
  }

  private async streamFile(path: string, size: number): Promise<void> {
    let file: FileHandle | undefined;
    try {
      file = await open(path, 'r');
      const start = this.res.getWriteOffset();
      const buffer = Buffer.allocUnsafe(Math.min(FILE_CHUNK_BYTES, size));
      for (let sent = 0; sent < size && this.open; ) {
        const { bytesRead } = await file.read(buffer, 0, Math.min(buffer.length, size - sent), sent);
        if (bytesRead === 0) throw new Error(`${path} is shorter than ${size} bytes`);
        if (!this.open) return;
        await this.writeChunk(buffer.subarray(0, bytesRead), start + sent, size);
        sent += bytesRead;
      }
    } catch {
      if (this.open) {
        this.res.close();
        this.finish();
      }
    } finally {
      await file?.close();
    }
  }

  /** Hands one chunk to uWS; resolves once the socket took all of it, or the exchange ended. */
  private writeChunk(chunk: Uint8Array, chunkStart: number, total: number): Promise<void> {
    const res = this.res;
    return new Promise((resolve) => {
      let ok = false;
      let done = false;
      res.cork(() => ([ok, done] = res.tryEnd(chunk, total)));
      if (done) this.finish();
      if (ok || done) return resolve();
      this.wakeWriter = resolve;
      res.onWritable((offset) => {
        if (!this.open) return true;
        const [written, ended] = res.tryEnd(chunk.subarray(offset - chunkStart), total);
        if (ended) this.finish();
        if (written || ended) {
          this.wakeWriter = undefined;
          resolve();
        }
        return written;
      });
    });
  }

  /**
   * Refuses a request whose body is not read (too large, over the body budget): the socket stops
   * being read first, so a client that keeps sending costs this thread nothing; the answer, small,
   * still goes out with `Connection: close`, and uWS closes the connection when it has been idle
   * for its timeout (10 s).
   * Closing at once instead would reset the connection and lose the answer on the client's side.
   */
  refuseUnread(error: ServiceError): void {
    if (!this.isOpen) return;
    this.res.pause();
    const rendered = renderHttpError(error);
    // The connection reads nothing more: the client must not send another request on it.
    this.reply(statusLine(rendered.status), [...rendered.headers, ['Connection', 'close']], rendered.body);
  }

  /** The error in the body form of the API it belongs to (errors/http-rendering.ts). */
  replyError(error: ServiceError): void {
    const rendered = renderHttpError(error);
    this.reply(statusLine(rendered.status), rendered.headers, rendered.body);
  }
}
