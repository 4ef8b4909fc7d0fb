import { renderHttpError, statusLine, type ServiceError } from '../../errors/index.js';
import type { InFlight } from './in-flight.js';
import type { HttpResponse } from './uws.js';

export type HeaderList = ReadonlyArray<readonly [string, string]>;

/**
 * One request and its response. uWS forbids touching a response after the client went away or
 * after it was ended, so every write goes through here: it tracks both, and counts the request
 * in flight until then so shutdown can drain it.
 */
export class Exchange {
  private open = true;

  constructor(
    readonly res: HttpResponse,
    private readonly inFlight: InFlight,
  ) {
    inFlight.begin();
    res.onAborted(() => this.close());
  }

  /** False once answered or aborted: nothing may be written then. */
  get isOpen(): boolean {
    return this.open;
  }

  /** Marks the exchange answered or aborted; false if it already was. */
  private close(): boolean {
    if (!this.open) return false;
    this.open = false;
    this.inFlight.end();
    return true;
  }

  /**
   * Writes a whole response. `status` is a full status line (`200 OK`): uWS writes it verbatim,
   * and the hot path passes constants rather than building one per request.
   */
  reply(status: string, headers: HeaderList, body: string | Uint8Array | ArrayBuffer): void {
    if (!this.close()) return;
    const res = this.res;
    const closeConnection = this.inFlight.draining;
    res.cork(() => {
      res.writeStatus(status);
      for (let i = 0; i < headers.length; i++) {
        const header = headers[i] as readonly [string, string];
        res.writeHeader(header[0], header[1]);
      }
      res.end(body, closeConnection);
    });
  }

  /** The error in the body form of the API it belongs to (errors/http-rendering.ts). */
  replyError(error: ServiceError): void {
    const rendered = renderHttpError(error);
    this.reply(statusLine(rendered.status), rendered.headers, rendered.body);
  }
}
