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
    routes: [{ method: 'GET', path: '/v2/file', handle: () => ({ status: 200, body: pooled }) }],
    notFound: () => new ServiceError('SC_NOT_FOUND', 'none'),
    methodNotAllowed: () => new ServiceError('SC_METHOD_NOT_ALLOWED', 'no'),
    internalError: 'SC_INTERNAL',
  });
  const { port1, port2 } = new MessageChannel();
  new ApiThreadServer(router, { error: () => {} }).serve(port2);
  const reply = new Promise<ForwardedReply>((resolve) => port1.once('message', resolve));
  port1.postMessage({ id: 1, api: 'files', method: 'GET', url: '/v2/file', query: '', headers: [], body: new ArrayBuffer(0) });
  const { body } = await reply;
  t.type(body, ArrayBuffer);
  t.equal(Buffer.from(body as ArrayBuffer).toString(), 'three bytes');
  t.equal(pooled.toString(), 'three bytes', 'the handler keeps its buffer');
  port1.close();
});

const API = {
  name: 'things',
  routes: [
    { method: 'GET' as const, path: '/v9/things/:id', handle: () => ({ status: 200, body: 'one' }) },
    { method: 'DELETE' as const, path: '/v9/things/:id', handle: () => ({ status: 204 }) },
  ],
  notFound: (method: string, path: string) => new ServiceError('SC_NOT_FOUND', `no ${method} ${path}`),
  methodNotAllowed: (_method: string, _path: string, allowed: readonly string[]) => new ServiceError('SC_METHOD_NOT_ALLOWED', allowed.join(',')),
  internalError: 'SC_INTERNAL' as const,
};

t.test('a request is routed once, within the API the front chose for it', async (t) => {
  const router = new ApiRouter().add(API);
  const found = router.match('things', 'GET', '/v9/things/7');
  t.ok(found.found && found.params['id'] === '7', 'a route of that API, with its parameters');
  t.match(router.match('things', 'POST', '/v9/things/7'), { found: false, error: { code: 'SC_METHOD_NOT_ALLOWED', message: 'GET,DELETE' } }, 'other methods: its 405 with the methods it has');
  t.match(router.match('things', 'GET', '/v9/nothing'), { found: false, error: { code: 'SC_NOT_FOUND', message: 'no GET /v9/nothing' } }, 'no route: its own 404');
  t.match(router.match('others', 'GET', '/v9/things/7'), { found: false, error: { code: 'HTTP_NOT_FOUND' } }, 'an API the thread does not serve: the plain 404');
});

t.test('an API that has not opened answers its unavailable error until it has', async (t) => {
  const manifest = { name: 'things', prefixes: ['/v9/'], errors: { tooLarge: 'SC_BODY_TOO_LARGE' as const, unavailable: 'SC_UNAVAILABLE' as const } };
  const router = new ApiRouter().unavailable(manifest, new ServiceError('SC_UNAVAILABLE', 'the thing API is starting; try again'));
  t.match(router.match('things', 'GET', '/v9/things/7'), { found: false, error: { code: 'SC_UNAVAILABLE' } });
  router.add(API);
  t.ok(router.match('things', 'GET', '/v9/things/7').found, 'served once added');
});
