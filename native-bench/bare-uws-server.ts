/**
 * Ceiling (a): a bare uWS server doing what `/json` must at least do, and nothing more:
 * POST /json, read the whole body (copying chunks as uWS requires), JSON.parse it, answer a
 * fixed JSON reply. One thread. Prints `LISTENING <port>`.
 */
import { loadUws } from '../src/transports/http/uws.js';
import { FIXED_JSON_REPLY } from './bare-reply.js';

const uws = loadUws();
const decoder = new TextDecoder();

uws
  .App()
  .post('/json', (res) => {
    let aborted = false;
    let chunks: Buffer[] | undefined;
    res.onAborted(() => (aborted = true));
    res.onData((chunk, isLast) => {
      if (!isLast) {
        (chunks ??= []).push(Buffer.from(new Uint8Array(chunk)));
        return;
      }
      const bytes = chunks === undefined ? new Uint8Array(chunk) : Buffer.concat([...chunks, Buffer.from(new Uint8Array(chunk))]);
      let ok = true;
      try {
        JSON.parse(decoder.decode(bytes));
      } catch {
        ok = false;
      }
      if (aborted) return;
      res.cork(() => {
        if (ok) res.writeStatus('200 OK').writeHeader('Content-Type', 'application/json').end(FIXED_JSON_REPLY);
        else res.writeStatus('400 Bad Request').end('Bad Request\n');
      });
    });
  })
  .listen('127.0.0.1', 0, (socket) => {
    if (socket === false) {
      console.error('bare uWS server could not listen');
      process.exit(1);
    }
    console.log(`LISTENING ${uws.us_socket_local_port(socket)}`);
  });

process.once('SIGTERM', () => process.exit(0));
