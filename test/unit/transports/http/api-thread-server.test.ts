/** The API thread's end of the hand-off over a real MessageChannel: binary bodies reach the front intact. */
import { MessageChannel } from 'node:worker_threads';
import t from 'tap';
import { ServiceError } from '../../../../src/errors/index.js';
import { ApiRouter, ApiThreadServer, type ForwardedReply } from '../../../../src/transports/http/handoff/index.js';

t.test('a binary body that is a view into a larger buffer arrives as exactly its own bytes', async (t) => {
  // Small Buffers share Node's 8 KiB pool: the reply must carry this view's bytes, not the pool.
  const pooled = Buffer.from('three bytes');
  t.ok(pooled.byteOffset > 0 || pooled.buffer.byteLength > pooled.byteLength, 'the body is a view');
  const router = new ApiRouter().add({
    name: 'files',
    prefixes: ['/v2/'],
    routes: [{ method: 'GET', path: '/v2/file', handle: () => ({ status: 200, body: pooled }) }],
    notFound: () => new ServiceError('SC_NOT_FOUND', 'none'),
    methodNotAllowed: () => new ServiceError('SC_METHOD_NOT_ALLOWED', 'no'),
    internalError: 'SC_INTERNAL',
  });
  const { port1, port2 } = new MessageChannel();
  new ApiThreadServer(router, { error: () => {} }).serve(port2);
  const reply = new Promise<ForwardedReply>((resolve) => port1.once('message', resolve));
  port1.postMessage({ id: 1, method: 'GET', url: '/v2/file', query: '', headers: [], body: new ArrayBuffer(0) });
  const { body } = await reply;
  t.type(body, ArrayBuffer);
  t.equal(Buffer.from(body as ArrayBuffer).toString(), 'three bytes');
  t.equal(pooled.toString(), 'three bytes', 'the handler keeps its buffer');
  port1.close();
});
