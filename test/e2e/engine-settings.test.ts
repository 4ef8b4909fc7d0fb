/**
 * Every setting that changes what the engine answers, each checked end to end through /json:
 * NEAR_LIMIT_RATIO, SHADOW_MODE, LIMIT_RESPONSE_HEADERS_ENABLED (+ header names),
 * CACHE_KEY_PREFIX, MAX_DESCRIPTORS_PER_REQUEST, MAX_REQUEST_BYTES, and hits_addend.
 */
import t from 'tap';
import { startService } from '../support/service-harness.js';
import type { HttpResult } from '../support/http-request.js';
import { D, fixture, ruleStat } from '../support/service-inputs.js';
import { BAD_REQUEST, NO_LIMIT, TEXT_PLAIN, ok, over, response } from './expect.js';

const SEC = 1;
const MIN = 20;
const HOUR = 800;

t.test('NEAR_LIMIT_RATIO sets the near_limit threshold', async (t) => {
  // limit 10: threshold floor(f32(10) * f32(ratio)); hits above it (and within the limit) are near.
  const cases: Array<[string | undefined, number]> = [
    [undefined, 2], // default 0.8 -> 8: hits 9 and 10
    ['0.5', 5], // 5: hits 6..10
    ['0', 10], // 0: every hit
    ['1', 0], // 10: none
  ];
  for (const [ratio, near] of cases) {
    const svc = await startService(t, {
      files: { 'engine.yaml': fixture('engine.yaml') },
      ...(ratio === undefined ? {} : { env: { NEAR_LIMIT_RATIO: ratio } }),
    });
    for (let i = 0; i < 10; i++) await svc.post({ domain: 'domain', descriptors: [D('L10', 'n')] });
    t.equal(svc.stat(ruleStat('domain.L10', 'near_limit')), near, `NEAR_LIMIT_RATIO=${ratio ?? '(default)'}: near_limit`);
    t.equal(svc.stat(ruleStat('domain.L10', 'within_limit')), 10);
    // The crossing request: 9 -> 11 with limit 10 gives over += 1 and near += 10 - max(N, 9).
    await svc.post({ domain: 'domain', descriptors: [{ ...D('L10', 'x'), hitsAddend: 9 }] });
    const before = svc.stat(ruleStat('domain.L10', 'near_limit'));
    await svc.post({ domain: 'domain', descriptors: [{ ...D('L10', 'x'), hitsAddend: 2 }] });
    const threshold = 10 - near;
    t.equal(svc.stat(ruleStat('domain.L10', 'near_limit')) - before, 10 - Math.max(threshold, 9), `crossing near delta (N=${threshold})`);
    await svc.close();
  }
});

t.test('SHADOW_MODE: false (explicit) answers 429, true answers 200 with the same statuses', async (t) => {
  const bodies: HttpResult[] = [];
  for (const shadow of ['false', 'true']) {
    const svc = await startService(t, { files: { 'engine.yaml': fixture('engine.yaml') }, env: { SHADOW_MODE: shadow } });
    await svc.post({ domain: 'domain', descriptors: [{ ...D('foo', 'bar'), hitsAddend: 10 }] });
    bodies.push(await svc.post({ domain: 'domain', descriptors: [D('foo', 'bar'), D('baz', 'qux')] }));
    t.equal(svc.stat('ratelimit.service.global_shadow_mode'), shadow === 'true' ? 1 : 0, `SHADOW_MODE=${shadow}: global_shadow_mode`);
    await svc.close();
  }
  const [off, on] = bodies as [HttpResult, HttpResult];
  t.equal(off.status, 429);
  t.same(off.json, response('OVER_LIMIT', [over(10, 'MINUTE', MIN), { code: 'OK', limitRemaining: 4294967295 }]));
  t.equal(on.status, 200);
  t.same(on.json, response('OK', [over(10, 'MINUTE', MIN), { code: 'OK', limitRemaining: 4294967295 }]));
});

t.test('LIMIT_RESPONSE_HEADERS_ENABLED picks the most restrictive status', async (t) => {
  const svc = await startService(t, { files: { 'another.yaml': fixture('another.yaml') }, env: { LIMIT_RESPONSE_HEADERS_ENABLED: 'true' } });
  // key2 20/MINUTE (19 left) and key3 10/HOUR (9 left): the lowest remaining wins.
  const r = await svc.post({ domain: 'another', descriptors: [D('key2', 'h'), D('key3', 'h'), D('nothing', 'h')] });
  t.same(
    r.json,
    response('OK', [ok(20, 'MINUTE', 19, MIN), ok(10, 'HOUR', 9, HOUR), NO_LIMIT], [['RateLimit-Limit', '10'], ['RateLimit-Remaining', '9'], ['RateLimit-Reset', String(HOUR)]]),
  );
  // Two over-limit statuses: the last one is reported.
  await svc.post({ domain: 'another', descriptors: [{ ...D('key2', 'o'), hitsAddend: 20 }, { ...D('key3', 'o'), hitsAddend: 10 }] });
  const both = await svc.post({ domain: 'another', descriptors: [D('key3', 'o'), D('key2', 'o')] });
  t.same(
    both.json,
    response('OVER_LIMIT', [over(10, 'HOUR', HOUR), over(20, 'MINUTE', MIN)], [['RateLimit-Limit', '20'], ['RateLimit-Remaining', '0'], ['RateLimit-Reset', String(MIN)]]),
  );
  t.equal(both.headers['ratelimit-limit'], undefined, 'the headers travel in the body, not as HTTP headers of /json');
});

t.test('CACHE_KEY_PREFIX changes no response', async (t) => {
  const script = [
    { domain: 'basic', descriptors: [D('key1', 'p')] },
    { domain: 'basic', descriptors: [{ ...D('key1', 'p'), hitsAddend: 49 }] },
    { domain: 'basic', descriptors: [D('key1', 'p')] },
    { domain: 'basic', descriptors: [D('one_per_minute', 'p')] },
    { domain: 'basic', descriptors: [D('one_per_minute', 'p')] },
    { domain: 'another', descriptors: [D('key2', 'p'), D('key3', 'p')] },
    { domain: 'another', descriptors: [{ ...D('key3', 'p'), hitsAddend: 9 }, D('key4', 'p')] },
    { domain: 'another', descriptors: [D('key2', 'p'), D('key3', 'p')] },
  ];
  const runs: Array<Array<[number, string]>> = [];
  for (const prefix of [undefined, 'prefix:']) {
    const svc = await startService(t, {
      files: { 'basic.yaml': fixture('basic.yaml'), 'another.yaml': fixture('another.yaml') },
      ...(prefix === undefined ? {} : { env: { CACHE_KEY_PREFIX: prefix } }),
    });
    const answers: Array<[number, string]> = [];
    for (const request of script) {
      const r = await svc.post(request);
      answers.push([r.status, r.text]);
    }
    runs.push(answers);
    await svc.close();
  }
  t.same(runs[1], runs[0], 'identical status and body for every request');
  t.same(
    runs[0]?.map(([status]) => status),
    [200, 200, 429, 200, 429, 200, 200, 429],
    'and the script does reach both outcomes',
  );
});

t.test('MAX_DESCRIPTORS_PER_REQUEST', async (t) => {
  const svc = await startService(t, { files: { 'basic.yaml': fixture('basic.yaml') }, env: { MAX_DESCRIPTORS_PER_REQUEST: '2' } });
  const two = await svc.post({ domain: 'basic', descriptors: [D('key1', 'a'), D('key1', 'b')] });
  t.equal(two.status, 200);
  t.same(two.json, response('OK', [ok(50, 'SECOND', 49, SEC), ok(50, 'SECOND', 49, SEC)]));
  const three = await svc.post({ domain: 'basic', descriptors: [D('key1', 'a'), D('key1', 'b'), D('key1', 'c')] });
  t.equal(three.status, 400, 'one more than the maximum');
  t.equal(three.text, BAD_REQUEST);
  t.equal(three.headers['content-type'], TEXT_PLAIN);
  t.equal(svc.stat(ruleStat('basic.key1', 'total_hits')), 2, 'a rejected request counts nothing');
  const again = await svc.post({ domain: 'basic', descriptors: [D('key1', 'a')] });
  t.same(again.json, response('OK', [ok(50, 'SECOND', 48, SEC)]));
});

t.test('MAX_DESCRIPTORS_PER_REQUEST default is 1000', async (t) => {
  const svc = await startService(t, { files: { 'basic.yaml': fixture('basic.yaml') } });
  const many = (n: number) => ({ domain: 'basic', descriptors: Array.from({ length: n }, (_, i) => D('key1', `v${i}`)) });
  const r1000 = await svc.post(many(1000));
  t.equal(r1000.status, 200);
  t.equal(r1000.json?.statuses?.length, 1000);
  t.same(r1000.json?.statuses?.[999], ok(50, 'SECOND', 49, SEC));
  const r1001 = await svc.post(many(1001));
  t.equal(r1001.status, 400);
  t.equal(r1001.text, BAD_REQUEST);
});

t.test('MAX_REQUEST_BYTES', async (t) => {
  const svc = await startService(t, { files: { 'basic.yaml': fixture('basic.yaml') }, env: { MAX_REQUEST_BYTES: '2048' } });
  const body = JSON.stringify({ domain: 'basic', descriptors: [D('key1', 'big')] });
  const exact = body + ' '.repeat(2048 - body.length);
  const atLimit = await svc.post(exact);
  t.equal(atLimit.status, 200, 'a body of exactly MAX_REQUEST_BYTES is accepted');
  t.same(atLimit.json, response('OK', [ok(50, 'SECOND', 49, SEC)]));

  const tooBig = await svc.post(exact + ' ');
  t.equal(tooBig.status, 413, 'one byte more: 413');
  t.equal(tooBig.text, 'Payload Too Large\n');
  t.equal(tooBig.headers['content-type'], TEXT_PLAIN);

  // Without Content-Length (chunked), the limit applies while reading.
  const chunks = [exact.slice(0, 1500), exact.slice(1500) + '   '];
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(new TextEncoder().encode(chunk));
      controller.close();
    },
  });
  const chunked = await svc.post(stream);
  t.equal(chunked.status, 413, 'chunked body over the limit: 413');

  const small = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(new TextEncoder().encode(body.slice(0, 10)));
      controller.enqueue(new TextEncoder().encode(body.slice(10)));
      controller.close();
    },
  });
  const chunkedOk = await svc.post(small);
  t.equal(chunkedOk.status, 200, 'chunked body in two pieces');
  t.same(chunkedOk.json, response('OK', [ok(50, 'SECOND', 48, SEC)]));
  t.equal(svc.stat(ruleStat('basic.key1', 'total_hits')), 2, 'rejected bodies counted nothing');
});

t.test('hits_addend at request level and per descriptor', async (t) => {
  const svc = await startService(t, { files: { 'basic.yaml': fixture('basic.yaml') } });
  const total = () => svc.stat(ruleStat('basic.key1', 'total_hits'));

  t.same((await svc.post({ domain: 'basic', hitsAddend: 5, descriptors: [D('key1', 'r')] })).json, response('OK', [ok(50, 'SECOND', 45, SEC)]));
  t.equal(total(), 5);
  t.same((await svc.post({ domain: 'basic', hitsAddend: 0, descriptors: [D('key1', 'r')] })).json, response('OK', [ok(50, 'SECOND', 44, SEC)]), 'request-level 0 means 1');
  t.same((await svc.post({ domain: 'basic', descriptors: [D('key1', 'r')] })).json, response('OK', [ok(50, 'SECOND', 43, SEC)]), 'unset means 1');
  t.same((await svc.post({ domain: 'basic', hits_addend: '2', descriptors: [D('key1', 'r')] })).json, response('OK', [ok(50, 'SECOND', 41, SEC)]), 'snake_case, as a string');
  t.equal(total(), 9);

  // Per descriptor: 0 checks without consuming; a set value wins over the request's.
  const peek = await svc.post({ domain: 'basic', hitsAddend: 7, descriptors: [{ ...D('key1', 'r'), hitsAddend: 0 }, D('key1', 's')] });
  t.same(peek.json, response('OK', [ok(50, 'SECOND', 41, SEC), ok(50, 'SECOND', 43, SEC)]), 'descriptor 0 consumes nothing, the other takes the request-level 7');
  t.equal(total(), 16, 'total_hits += 0 + 7');
  const mixed = await svc.post({ domain: 'basic', hitsAddend: 7, descriptors: [{ ...D('key1', 'r'), hitsAddend: '41' }] });
  t.same(mixed.json, response('OK', [ok(50, 'SECOND', 0, SEC)]), 'uint64 as a string; exactly at the limit');
  const overR = await svc.post({ domain: 'basic', descriptors: [{ ...D('key1', 'r'), hitsAddend: 0 }] });
  t.same(overR.json, response('OK', [ok(50, 'SECOND', 0, SEC)]), 'a check at the limit is not over (50 is not > 50)');
  const overBy1 = await svc.post({ domain: 'basic', descriptors: [{ ...D('key1', 'r'), hitsAddend: 1 }] });
  t.equal(overBy1.status, 429);
  t.same(overBy1.json, response('OVER_LIMIT', [over(50, 'SECOND', SEC)]));
  const peekOver = await svc.post({ domain: 'basic', descriptors: [{ ...D('key1', 'r'), hitsAddend: 0 }] });
  t.equal(peekOver.status, 429, 'a check on a counter already over is OVER_LIMIT');
  t.equal(svc.stat(ruleStat('basic.key1', 'over_limit')), 1, 'and over_limit += 0');

  const negative = await svc.post({ domain: 'basic', hitsAddend: -1, descriptors: [D('key1', 'r')] });
  t.equal(negative.status, 400, 'negative hitsAddend');
  const tooLarge = await svc.post({ domain: 'basic', hitsAddend: 4294967296, descriptors: [D('key1', 'r')] });
  t.equal(tooLarge.status, 400, 'request-level hitsAddend is a uint32');
});
