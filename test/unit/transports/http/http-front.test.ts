/**
 * The generic HTTP front on a real uWS listener: a route table of test routes, bodies of every
 * shape (none, one chunk, chunked, over the limit, cut off), catalogue errors and the 404.
 */
import { connect } from 'node:net';
import t from 'tap';
import { ServiceError } from '../../../../src/errors/index.js';
import { readBodyBytes, readBodyText, startHttpServer, type HttpRoute } from '../../../../src/transports/http/index.js';
import { httpRequest } from '../../../support/http-request.js';

const LIMIT = 16;
let aborted = 0;

const routes: HttpRoute[] = [
  {
    method: 'any',
    pattern: '/bytes',
    handle(exchange) {
      readBodyBytes(exchange.res, LIMIT, (result) => {
        if (!result.ok) exchange.reply('413 Payload Too Large', [], 'too large');
        else exchange.reply('200 OK', [['X-Length', String(result.bytes.byteLength)]], result.bytes);
      });
    },
  },
  {
    method: 'post',
    pattern: '/text',
    handle(exchange) {
      readBodyText(exchange.res, LIMIT, (result) => {
        if (!exchange.isOpen) {
          aborted++;
          return;
        }
        exchange.reply('200 OK', [['Content-Type', 'text/plain']], result.ok ? result.body : result.error);
      });
    },
  },
  {
    method: 'get',
    pattern: '/error',
    handle: (exchange) => exchange.replyError(new ServiceError('AM_NOT_FOUND', 'path /error was not found')),
  },
];

const server = await startHttpServer({ host: '127.0.0.1', port: 0, routes });
t.teardown(() => server.close(0));
const url = (path: string) => `http://127.0.0.1:${server.port}${path}`;

t.test('a request without a body reads as empty', async (t) => {
  const res = await httpRequest(url('/bytes'));
  t.equal(res.status, 200);
  t.equal(res.headers['x-length'], '0');
});

t.test('one-chunk, chunked and binary bodies arrive whole', async (t) => {
  t.equal((await httpRequest(url('/text'), { method: 'POST', body: 'hello' })).text, 'hello');
  const chunks = ['ab', 'cd', 'ef'];
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      const next = chunks.shift();
      if (next === undefined) controller.close();
      else controller.enqueue(new TextEncoder().encode(next));
    },
  });
  t.equal((await httpRequest(url('/text'), { method: 'POST', body: stream })).text, 'abcdef', 'chunked transfer');
  const binary = await fetch(url('/bytes'), { method: 'POST', body: new Uint8Array([0, 255, 7]) });
  t.same([...new Uint8Array(await binary.arrayBuffer())], [0, 255, 7]);
});

t.test('bodies over the limit are cut off, chunked ones too', async (t) => {
  t.equal((await httpRequest(url('/bytes'), { method: 'POST', body: 'x'.repeat(LIMIT + 1) })).status, 413);
  t.equal((await httpRequest(url('/text'), { method: 'POST', body: 'x'.repeat(LIMIT) })).text, 'x'.repeat(LIMIT), 'exactly the limit is fine');
  t.equal((await httpRequest(url('/text'), { method: 'POST', body: 'x'.repeat(LIMIT + 1) })).text, 'too large');
  t.equal((await httpRequest(url('/text'), { method: 'POST', body: new Uint8Array([0xc3, 0x28]) })).text, 'invalid UTF-8');
});

t.test('a client that leaves mid-body is forgotten, and the server keeps serving', async (t) => {
  await new Promise<void>((resolve, reject) => {
    const socket = connect(server.port, '127.0.0.1', () => {
      socket.write('POST /text HTTP/1.1\r\nHost: x\r\nContent-Length: 10\r\n\r\nabc');
      setImmediate(() => socket.destroy());
    });
    socket.once('close', () => resolve());
    socket.once('error', reject);
  });
  t.equal((await httpRequest(url('/text'), { method: 'POST', body: 'after' })).text, 'after');
  t.equal(aborted, 0, 'the body callback never ran for the aborted request');
});

t.test('catalogue errors are written in their API form; unknown paths get the 404', async (t) => {
  const error = await httpRequest(url('/error'));
  t.equal(error.status, 404);
  t.same(error.json, { code: 404, message: 'path /error was not found' });
  const missing = await httpRequest(url('/missing'));
  t.equal(missing.status, 404);
  t.equal(missing.text, '404 page not found\n');
  t.equal(missing.headers['content-type'], 'text/plain; charset=utf-8');
  const wrongMethod = await httpRequest(url('/error'), { method: 'DELETE' });
  t.equal(wrongMethod.status, 404, 'a method no route takes falls through to the 404');
});
