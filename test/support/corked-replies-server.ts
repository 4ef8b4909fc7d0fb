/**
 * A child process for corked-replies.test.ts: the generic HTTP front with routes that reply in
 * each of the ways a handler can, so the test can read uWS's own complaint about writes made
 * outside a cork from this process's stderr. Prints `LISTENING <port>`.
 *
 * - `/sync`: replies inside the body's `onData` callback, where uWS holds the socket corked.
 * - `/later`: replies on the next turn of the event loop, outside any uWS callback.
 * - `/park`, then `/release`: `/park` waits; `/release` replies to it from inside its own
 *   `onData` callback (where uWS holds `/release`'s socket corked, not the parked one's), then
 *   answers itself.
 * - `/lent`: replies with a large body only lent for the call (`replyLent`), then writes over
 *   that memory at once, as the next answer's encoding would.
 */
import { readBodyText, startHttpServer, type Exchange, type HttpRoute } from '../../src/transports/http/index.js';

const MAX_BYTES = 1024;
const TEXT: ReadonlyArray<readonly [string, string]> = [['Content-Type', 'text/plain']];
let parked: Exchange | undefined;

/** Past what a socket takes at once, so most of a lent body must wait for the client. */
const LENT_BYTES = 8 * 1024 * 1024;
const lent = new Uint8Array(LENT_BYTES);

const routes: HttpRoute[] = [
  {
    method: 'post',
    pattern: '/lent',
    handle: (exchange) =>
      readBodyText(exchange.res, MAX_BYTES, () => {
        for (let i = 0; i < lent.length; i++) lent[i] = 0x61 + (i % 26);
        exchange.replyLent('200 OK', TEXT, lent);
        lent.fill(0x2d);
      }),
  },
  {
    method: 'post',
    pattern: '/sync',
    handle: (exchange) => readBodyText(exchange.res, MAX_BYTES, (body) => exchange.reply('200 OK', TEXT, body.ok ? `sync ${body.body}` : 'bad')),
  },
  {
    method: 'post',
    pattern: '/later',
    handle: (exchange) => readBodyText(exchange.res, MAX_BYTES, (body) => setImmediate(() => exchange.reply('200 OK', TEXT, body.ok ? `later ${body.body}` : 'bad'))),
  },
  {
    method: 'post',
    pattern: '/park',
    handle: (exchange) => readBodyText(exchange.res, MAX_BYTES, () => (parked = exchange)),
  },
  {
    method: 'post',
    pattern: '/release',
    handle: (exchange) =>
      readBodyText(exchange.res, MAX_BYTES, () => {
        parked?.reply('200 OK', TEXT, 'parked, released');
        parked = undefined;
        exchange.reply('200 OK', TEXT, 'released');
      }),
  },
];

const server = await startHttpServer({ host: '127.0.0.1', port: 0, routes });
console.log(`LISTENING ${server.port}`);
process.once('SIGTERM', () => {
  void server.close(0).then(() => process.exit(0));
});
