/**
 * Replies skip their own `res.cork` only where uWS already holds their socket corked (inside
 * that request's `onData`). A server process replies in every way a handler can: inside
 * `onData`, on a later turn of the event loop, and to a parked request from inside another
 * request's `onData`. Each answer must arrive whole, and uWS must never print its warning
 * about writes made outside a cork (which it does for every such write: a reply that skipped
 * `res.cork` on a later turn of the event loop would print it).
 */
import http from 'node:http';
import t from 'tap';
import { ManagedProcess } from '../../../support/managed-process.js';

const SERVER = new URL('../../../support/corked-replies-server.js', import.meta.url).pathname;
const UWS_WARNING = 'must be made from within a corked callback';

const server = new ManagedProcess({ command: process.execPath, args: [SERVER] });
t.teardown(() => server.stop());
const port = await server.waitFor('LISTENING <port>', (output) => /LISTENING (\d+)/.exec(output)?.[1]);
const agent = new http.Agent({ keepAlive: true });
t.teardown(() => agent.destroy());

function post(path: string, body: string): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const request = http.request({ host: '127.0.0.1', port, path, method: 'POST', agent, headers: { 'content-length': Buffer.byteLength(body) } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
    });
    request.on('error', reject);
    request.end(body);
  });
}

t.test('a reply inside the request body callback, and one on a later turn, arrive whole', async (t) => {
  for (let i = 0; i < 20; i++) {
    t.same(await post('/sync', `body ${i}`), { status: 200, text: `sync body ${i}` });
    t.same(await post('/later', `body ${i}`), { status: 200, text: `later body ${i}` });
  }
  t.notOk(server.output.includes(UWS_WARNING), 'uWS saw no write outside a cork');
});

t.test('a reply to another request, written inside this one body callback, arrives whole', async (t) => {
  let parkedAnswer: { status: number; text: string } | undefined;
  const parked = post('/park', 'wait').then((answer) => (parkedAnswer = answer));
  // /park is parked once its body has arrived; each /release answers it if it is there yet.
  for (let attempt = 0; attempt < 100 && parkedAnswer === undefined; attempt++) {
    t.same(await post('/release', ''), { status: 200, text: 'released' });
    await new Promise((resolve) => setImmediate(resolve));
  }
  t.same(await parked, { status: 200, text: 'parked, released' });
  t.notOk(server.output.includes(UWS_WARNING), 'uWS saw no write outside a cork');
});

t.test('a body lent for the call arrives whole though the socket could not take it at once', async (t) => {
  // The server writes over the lent memory as soon as replyLent returns.
  const answer = await post('/lent', '');
  t.equal(answer.status, 200);
  t.equal(answer.text.length, 8 * 1024 * 1024);
  const expected = (i: number) => String.fromCharCode(0x61 + (i % 26));
  const wrong = [0, 1, 25, 26, 65535, 1 << 20, (8 << 20) - 1].filter((i) => answer.text[i] !== expected(i));
  t.same(wrong, [], 'bytes at the start, in the middle and at the end are the lent ones');
  t.notOk(answer.text.includes('-'), 'nothing written over the lent memory reached the client');
});
