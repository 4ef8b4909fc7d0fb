/**
 * Hostile and malformed input against the real process: every bad request gets a 4xx and the
 * service keeps serving (a good request answers 200 after each), nothing is counted for the
 * bad ones, and at the end SIGTERM still exits promptly (no request left "in flight").
 */
import { connect } from 'node:net';
import t from 'tap';
import { runtimeRoot, startProcess, type ServiceProcess } from '../support/process-harness.js';
import type { HttpResult } from '../support/http-request.js';
import { D, fixture } from '../support/service-inputs.js';
import { BAD_REQUEST, TEXT_PLAIN, ok, response } from './expect.js';

const { root } = await runtimeRoot(t, { 'basic.yaml': fixture('basic.yaml') });
const proc: ServiceProcess = await startProcess(t, { RUNTIME_ROOT: root });

/** A tap subtest (the parameter of t.test's callback). */
type Tap = Parameters<Parameters<typeof t.test>[0]>[0];

/** Good requests sent so far; each is one hit on basic.key1. */
let good = 0;

/** After a bad request: the process is alive and a good request is answered 200. */
async function stillServing(t: Tap, after: string): Promise<void> {
  t.ok(proc.running, `${after}: the process is still running`);
  const r = await proc.post({ domain: 'basic', descriptors: [D('key1', `good-${good}`)] });
  good++;
  t.equal(r.status, 200, `${after}: a good request still answers 200`);
  t.same(r.json, response('OK', [ok(50, 'SECOND', 49, 1)]), `${after}: with the right body`);
}

function badRequest(t: Tap, r: HttpResult, what: string): void {
  t.equal(r.status, 400, `${what}: 400`);
  t.equal(r.text, BAD_REQUEST, `${what}: body`);
  t.equal(r.headers['content-type'], TEXT_PLAIN, `${what}: content type`);
}

t.test('empty body', async (t) => {
  badRequest(t, await proc.post(''), 'POST with empty body');
  badRequest(t, await proc.request('/json'), 'GET without body');
  await stillServing(t, 'empty body');
});

t.test('invalid JSON', async (t) => {
  const bodies = [
    '}',
    '{',
    '{"domain":',
    'not json',
    '[1,2',
    "{'domain':'basic'}",
    '{"domain":"basic","descriptors":[{"entries":[{"key":"key1","value":"v"}]}]}garbage',
    '{"domain":"basic",}',
  ];
  for (const body of bodies) badRequest(t, await proc.post(body), `body ${JSON.stringify(body)}`);
  await stillServing(t, 'invalid JSON');
});

t.test('invalid JSON with control characters gets a well-formed 400', async (t) => {
  // The reason for a 400 must never put raw control characters into a response header:
  // strict HTTP clients (fetch/undici, Envoy) reject such a response altogether.
  for (const body of ['\u0000', '\u0001', '\u007f', '{"domain":"\u0000']) {
    let r: HttpResult | undefined;
    let failure = '';
    try {
      r = await proc.post(body);
    } catch (error) {
      failure = `${(error as Error).message}: ${String((error as Error & { cause?: Error }).cause?.message)}`;
    }
    t.equal(failure, '', `body ${JSON.stringify(body)}: the response is valid HTTP`);
    if (r !== undefined) badRequest(t, r, `body ${JSON.stringify(body)}`);
  }
  await stillServing(t, 'control characters');
});

t.test('wrong types', async (t) => {
  const entries = [{ key: 'key1', value: 'v' }];
  const bodies: unknown[] = [
    [],
    'a string',
    42,
    null,
    { domain: 5, descriptors: [{ entries }] },
    { domain: ['basic'], descriptors: [{ entries }] },
    { domain: 'basic', descriptors: {} },
    { domain: 'basic', descriptors: 'key1' },
    { domain: 'basic', descriptors: [null] },
    { domain: 'basic', descriptors: [entries] },
    { domain: 'basic', descriptors: [{ entries: 'key1=v' }] },
    { domain: 'basic', descriptors: [{ entries: [1] }] },
    { domain: 'basic', descriptors: [{ entries: [{ key: 1, value: 'v' }] }] },
    { domain: 'basic', descriptors: [{ entries: [{ key: 'key1', value: 2 }] }] },
    { domain: 'basic', descriptors: [{ entries: [{ key: 'key1', value: { v: 1 } }] }] },
    { domain: 'basic', hitsAddend: -1, descriptors: [{ entries }] },
    { domain: 'basic', hitsAddend: 1.5, descriptors: [{ entries }] },
    { domain: 'basic', hitsAddend: 'abc', descriptors: [{ entries }] },
    { domain: 'basic', hitsAddend: true, descriptors: [{ entries }] },
    { domain: 'basic', hitsAddend: 1e300, descriptors: [{ entries }] },
    { domain: 'basic', descriptors: [{ entries, hitsAddend: -5 }] },
    { domain: 'basic', descriptors: [{ entries, hitsAddend: '18446744073709551616' }] },
    { domain: 'basic', descriptors: [{ entries, limit: 'x' }] },
    { domain: 'basic', descriptors: [{ entries, limit: { requestsPerUnit: 'ten', unit: 'DAY' } }] },
    { domain: 'basic', descriptors: [{ entries, limit: { requestsPerUnit: 10, unit: 'FORTNIGHT' } }] },
    { domain: 'basic', descriptors: [{ entries, limit: { requestsPerUnit: 10, unit: 99 } }] },
  ];
  for (const body of bodies) badRequest(t, await proc.post(JSON.stringify(body)), `body ${JSON.stringify(body)}`);
  await stillServing(t, 'wrong types');
});

t.test('unknown fields are rejected at every level', async (t) => {
  const entries = [{ key: 'key1', value: 'v' }];
  const bodies: unknown[] = [
    { domain: 'basic', descriptors: [{ entries }], foo: 1 },
    { domain: 'basic', descriptors: [{ entries, foo: 1 }] },
    { domain: 'basic', descriptors: [{ entries: [{ key: 'key1', value: 'v', foo: 'x' }] }] },
    { domain: 'basic', descriptors: [{ entries, limit: { requestsPerUnit: 1, unit: 'DAY', foo: 1 } }] },
    { Domain: 'basic', descriptors: [{ entries }] },
  ];
  for (const body of bodies) badRequest(t, await proc.post(JSON.stringify(body)), `body ${JSON.stringify(body)}`);
  await stillServing(t, 'unknown fields');
});

t.test('a 10 MB body is refused with 413', async (t) => {
  const big = '{"domain":"basic","descriptors":[' + ' '.repeat(10 * 1024 * 1024) + ']}';
  const declared = await proc.post(big);
  t.equal(declared.status, 413, 'with Content-Length');
  t.equal(declared.text, 'Payload Too Large\n');
  await stillServing(t, '10 MB body with Content-Length');

  const chunk = new TextEncoder().encode(' '.repeat(1024 * 1024));
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      for (let i = 0; i < 10; i++) controller.enqueue(chunk);
      controller.close();
    },
  });
  const chunked = await proc.post(stream);
  t.equal(chunked.status, 413, 'chunked, without Content-Length');
  await stillServing(t, '10 MB chunked body');
});

t.test('deeply nested JSON', async (t) => {
  const depth = 200_000;
  badRequest(t, await proc.post('['.repeat(depth) + ']'.repeat(depth)), '200k nested arrays');
  badRequest(t, await proc.post('['.repeat(depth)), '200k unclosed arrays');
  badRequest(t, await proc.post(`{"domain":"basic","descriptors":${'['.repeat(depth)}${']'.repeat(depth)}}`), '200k nested arrays as descriptors');
  badRequest(
    t,
    await proc.post(`{"domain":"basic","descriptors":[{"entries":[{"key":"key1","value":${'['.repeat(depth)}${']'.repeat(depth)}}]}]}`),
    '200k nested arrays as a value',
  );
  const objects = 100_000;
  badRequest(t, await proc.post('{"a":'.repeat(objects) + '1' + '}'.repeat(objects)), '100k nested objects');
  badRequest(
    t,
    await proc.post(`{"domain":"basic","descriptors":[{"entries":[{"key":"key1","value":"v"}],"limit":${'{"a":'.repeat(objects)}1${'}'.repeat(objects)}}]}`),
    '100k nested objects in the limit',
  );
  await stillServing(t, 'deeply nested JSON');
});

t.test('10,000 descriptors are refused with the default settings', async (t) => {
  const body = { domain: 'basic', descriptors: Array.from({ length: 10_000 }, (_, i) => D('key1', `many-${i}`)) };
  const r = await proc.post(body);
  t.ok(r.status >= 400 && r.status < 500, `4xx (got ${r.status})`);
  t.equal(r.status, 400);
  t.equal(r.text, BAD_REQUEST);
  await stillServing(t, '10,000 descriptors');
});

t.test('bytes that are not UTF-8', async (t) => {
  // key1_local, so that requests wrongly accepted here do not disturb key1's count below.
  const prefix = Buffer.from('{"domain":"basic","descriptors":[{"entries":[{"key":"key1_local","value":"');
  const suffix = Buffer.from('"}]}]}');
  // Upstream decodes /json with protojson, which refuses invalid UTF-8 inside strings
  // ("invalid UTF-8 in string") and so answers 400 Bad Request.
  for (const bytes of [[0xff], [0xfe, 0xff], [0xc3], [0xc3, 0x28], [0xed, 0xa0, 0x80], [0xf8, 0x88, 0x80, 0x80, 0x80]]) {
    const r = await proc.post(new Uint8Array(Buffer.concat([prefix, Buffer.from(bytes), suffix])));
    const hex = bytes.map((b) => b.toString(16)).join(' ');
    t.equal(r.status, 400, `invalid UTF-8 (${hex}) inside a value: 400, as protojson`);
    t.equal(r.text, BAD_REQUEST, `invalid UTF-8 (${hex}): body`);
  }
  badRequest(t, await proc.post(new Uint8Array([0xff, 0xfe, 0x7b, 0x7d])), 'invalid bytes outside any string');
  // Escaped lone surrogates are not valid Unicode either; protojson refuses them too.
  for (const escape of ['\\ud800', '\\udc00', '\\ud800x']) {
    const r = await proc.post(`{"domain":"basic","descriptors":[{"entries":[{"key":"key1_local","value":"${escape}"}]}]}`);
    t.equal(r.status, 400, `lone surrogate ${escape}: 400, as protojson`);
  }
  await stillServing(t, 'non-UTF-8 bytes');
});

/**
 * Sends raw bytes on a new connection and resolves with what came back once the server closes
 * it, or right after writing (destroyAfterWrite), or after timeoutMs (then the socket is dropped).
 */
function rawExchange(
  port: number,
  chunks: Array<string | Buffer>,
  options: { destroyAfterWrite: boolean; timeoutMs?: number },
): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let received = '';
    let timer: NodeJS.Timeout | undefined;
    const done = (value: string) => {
      clearTimeout(timer);
      resolve(value);
    };
    socket.setEncoding('utf8');
    socket.on('data', (d: string) => (received += d));
    socket.on('error', (error) => (options.destroyAfterWrite ? done(received) : reject(error)));
    socket.on('close', () => done(received));
    socket.on('connect', () => {
      for (const chunk of chunks) socket.write(chunk);
      if (options.destroyAfterWrite) {
        // Hand the bytes to the kernel, then vanish.
        socket.end();
        socket.destroy();
      } else if (options.timeoutMs !== undefined) {
        timer = setTimeout(() => {
          socket.destroy();
          done(`${received}(no close within ${options.timeoutMs} ms)`);
        }, options.timeoutMs);
      }
    });
  });
}

t.test('a client that disconnects in the middle of the body', async (t) => {
  const port = proc.httpPort as number;
  const partial = '{"domain":"basic","descriptors":[{"entries":[{"key":"key1","va';
  for (let i = 0; i < 20; i++) {
    await rawExchange(
      port,
      [`POST /json HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n`, partial],
      { destroyAfterWrite: true },
    );
  }
  // Headers only, then gone; and a chunked body cut in the middle of a chunk.
  await rawExchange(port, ['POST /json HTTP/1.1\r\nHost: x\r\nContent-Length: 50\r\n\r\n'], { destroyAfterWrite: true });
  await rawExchange(port, ['POST /json HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n40\r\n{"domain":"ba'], { destroyAfterWrite: true });
  await stillServing(t, 'clients vanishing mid-body');
});

t.test('a malformed HTTP request line does not take the service down', async (t) => {
  const port = proc.httpPort as number;
  // Upstream (Go net/http) answers 400 and closes; uWS may instead wait for its idle timeout.
  const reply = await rawExchange(port, ['GARBAGE\r\n\r\n'], { destroyAfterWrite: false, timeoutMs: 1000 });
  t.notMatch(reply, /^HTTP\/1\.1 2/, `not answered with a 2xx (${JSON.stringify(reply.slice(0, 40))})`);
  await stillServing(t, 'a malformed request line');
});

t.test('many bad requests on one keep-alive connection are each answered', async (t) => {
  const port = proc.httpPort as number;
  const one = 'POST /json HTTP/1.1\r\nHost: x\r\nContent-Length: 1\r\n\r\n}';
  const last = 'POST /json HTTP/1.1\r\nHost: x\r\nContent-Length: 1\r\nConnection: close\r\n\r\n}';
  const reply = await rawExchange(port, [one.repeat(9) + last], { destroyAfterWrite: false });
  t.equal((reply.match(/^HTTP\/1\.1 400 Bad Request\r$/gm) ?? []).length, 10, 'ten 400 answers');
  await stillServing(t, 'pipelined bad requests');
});

t.test('bad requests counted nothing; SIGTERM still exits promptly', async (t) => {
  t.equal(await proc.stat('ratelimit.service.rate_limit.basic.key1.total_hits'), good, 'only the good requests were counted');
  const started = Date.now();
  proc.kill('SIGTERM');
  const exit = await proc.waitForExit(5000);
  t.same(exit, { code: 0, signal: null }, 'exit 0');
  t.ok(Date.now() - started < 3000, `exited within 3 s (${Date.now() - started} ms): no aborted request is still "in flight"`);
});
