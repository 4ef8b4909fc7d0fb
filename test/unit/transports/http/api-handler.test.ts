/**
 * Handlers built with apiHandler, through the API thread's real router and server: a step that
 * fails is the answer; an unexpected exception is still the API's internal error, logged.
 */
import t from 'tap';
import { ServiceError, unwrap } from '../../../../src/errors/index.js';
import { ApiRouter, ApiThreadServer, apiHandler, operationRoutes, type ApiOutcome, type ApiRequest, type ForwardedRequest } from '../../../../src/transports/http/handoff/index.js';

interface Parts {
  names: Map<string, string>;
}

/** A step: the name a request's `id` stands for. */
function nameOf(parts: Parts, request: ApiRequest): string | ServiceError {
  const id = request.params['id'] ?? '';
  return parts.names.get(id) ?? new ServiceError('SC_USER_NOT_FOUND', `no user ${JSON.stringify(id)}`, { param: 'id' });
}

async function getName(parts: Parts, request: ApiRequest): Promise<ApiOutcome> {
  const name = unwrap(nameOf(parts, request));
  await Promise.resolve();
  return { status: 200, body: name };
}

function getNameNow(parts: Parts, request: ApiRequest): ApiOutcome {
  return { status: 200, body: unwrap(nameOf(parts, request)).toUpperCase() };
}

async function getBroken(): Promise<ApiOutcome> {
  await Promise.resolve();
  throw new Error('the database is closed');
}

function serve(): { server: ApiThreadServer; logged: string[] } {
  const route = operationRoutes<Parts>({ names: new Map([['1', 'ada']]) });
  const router = new ApiRouter().add({
    name: 'scores',
    routes: [
      route('GET', '/v2/users/:id', getName),
      route('GET', '/v2/users/:id/now', getNameNow),
      route('GET', '/v2/broken', getBroken),
      { method: 'GET', path: '/v2/unwrapped', handle: () => unwrap<ApiOutcome>(new ServiceError('SC_BAD_REQUEST', 'stray')) },
      { method: 'GET', path: '/v2/wrapped', handle: apiHandler(() => unwrap<ApiOutcome>(new ServiceError('SC_BAD_REQUEST', 'kept'))) },
    ],
    notFound: () => new ServiceError('SC_NOT_FOUND', 'none'),
    methodNotAllowed: () => new ServiceError('SC_METHOD_NOT_ALLOWED', 'no'),
    internalError: 'SC_INTERNAL',
  });
  const logged: string[] = [];
  return { server: new ApiThreadServer(router, { error: (msg, fields) => logged.push(`${msg}: ${String(fields?.['error'])}`) }), logged };
}

const get = (url: string): ForwardedRequest => ({ id: 1, api: 'scores', method: 'GET', url, query: '', headers: [], body: new ArrayBuffer(0) });

t.test('an operation whose steps succeed answers', async (t) => {
  const { server } = serve();
  t.same(await server.dispatch(get('/v2/users/1')), { status: 200, body: 'ada' });
  t.same(await server.dispatch(get('/v2/users/1/now')), { status: 200, body: 'ADA' });
});

t.test('a failed step is the answer, not an internal error', async (t) => {
  const { server, logged } = serve();
  for (const url of ['/v2/users/2', '/v2/users/2/now']) {
    const outcome = await server.dispatch(get(url));
    t.type(outcome, ServiceError, url);
    t.match(outcome, { code: 'SC_USER_NOT_FOUND', message: 'no user "2"', details: { param: 'id' } }, url);
  }
  t.match(await server.dispatch(get('/v2/wrapped')), { code: 'SC_BAD_REQUEST', message: 'kept' });
  t.same(logged, [], 'nothing unexpected happened');
});

t.test('an unexpected exception still becomes the internal error and is logged', async (t) => {
  const { server, logged } = serve();
  t.match(await server.dispatch(get('/v2/broken')), { code: 'SC_INTERNAL', message: 'internal error' });
  t.same(logged, ['API handler failed: Error: the database is closed']);
});

t.test('unwrap in a handler that is not an apiHandler is a bug, reported as one', async (t) => {
  const { server, logged } = serve();
  t.match(await server.dispatch(get('/v2/unwrapped')), { code: 'SC_INTERNAL' });
  t.same(logged, ['API handler failed: unwrap() outside attempt(): SC_BAD_REQUEST: stray']);
});
