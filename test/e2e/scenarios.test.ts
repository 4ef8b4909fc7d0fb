/**
 * Upstream's test scenarios (unit, integration and /json handler tests) through the real HTTP
 * `/json` endpoint of an in-process service (real settings, real YAML files, real listeners)
 * with a manual clock, so windows, remaining counts and durationUntilReset are exact.
 * Statistics are checked by full name.
 */
import t from 'tap';
import { DEFAULT_NOW, startService } from '../support/service-harness.js';
import { D, fixture, ruleStat } from '../support/service-inputs.js';
import { waitFor } from '../support/wait-for.js';
import { BAD_REQUEST, NO_LIMIT, TEXT_PLAIN, UNLIMITED, ok, over, response } from './expect.js';

// Seconds until reset at DEFAULT_NOW = 1,000,000 (MINUTE window 999960, HOUR 997200, DAY 950400).
const SEC = 1;
const MIN = 20;
const HOUR = 800;
const DAY = 36800;

t.test('scenario 1: unknown domain answers OK with a bare status and counts domain_not_found', async (t) => {
  const svc = await startService(t, { files: { 'basic.yaml': fixture('basic.yaml') } });
  const r = await svc.post({ domain: 'foo', descriptors: [D('hello', 'world')] });
  t.equal(r.status, 200);
  t.same(r.json, response('OK', [NO_LIMIT]));
  t.equal(r.text, '{"overallCode":"OK","statuses":[{"code":"OK"}]}');
  t.equal(svc.stat('ratelimit.service.rate_limit.foo.domain_not_found'), 1);
  await svc.post({ domain: 'foo', descriptors: [D('hello', 'world')] });
  t.equal(svc.stat('ratelimit.service.rate_limit.foo.domain_not_found'), 2);
  t.equal(svc.stat('ratelimit.service.rate_limit.basic.domain_not_found'), 0, 'a known domain is never "not found"');
});

t.test('scenario 2: simple per-second limit', async (t) => {
  const svc = await startService(t, { files: { 'basic.yaml': fixture('basic.yaml') } });
  const r = await svc.post({ domain: 'basic', descriptors: [D('key1', 'foo')] });
  t.equal(r.status, 200);
  t.equal(r.headers['content-type'], 'application/json');
  t.same(r.json, response('OK', [ok(50, 'SECOND', 49, SEC)]));
  t.equal(svc.stat(ruleStat('basic.key1', 'total_hits')), 1);
  t.equal(svc.stat(ruleStat('basic.key1', 'within_limit')), 1);
  t.equal(svc.stat(ruleStat('basic.key1', 'over_limit')), 0);
});

t.test('scenarios 3 and 4: minute limit exhausted, then two descriptors with AND semantics', async (t) => {
  const svc = await startService(t, { files: { 'another.yaml': fixture('another.yaml') } });
  const key2 = (s: string) => ruleStat('another.key2', s);
  const key3 = (s: string) => ruleStat('another.key3', s);

  // Scenario 3: 25 requests on one key2 value.
  for (let i = 0; i < 25; i++) {
    const r = await svc.post({ domain: 'another', descriptors: [D('key2', 'r3')] });
    if (i < 20) {
      t.equal(r.status, 200, `request ${i} is allowed`);
      t.same(r.json, response('OK', [ok(20, 'MINUTE', 19 - i, MIN)]), `request ${i}`);
    } else {
      t.equal(r.status, 429, `request ${i} is over`);
      t.same(r.json, response('OVER_LIMIT', [over(20, 'MINUTE', MIN)]), `request ${i}`);
    }
    t.equal(svc.stat(key2('total_hits')), i + 1, `total_hits after request ${i}`);
    t.equal(svc.stat(key2('over_limit')), Math.max(0, i - 19), `over_limit after request ${i}`);
  }
  // 20 within; near_limit counts hits 17..20 (threshold floor(20*0.8) = 16).
  t.equal(svc.stat(key2('within_limit')), 20);
  t.equal(svc.stat(key2('near_limit')), 4);

  // Scenario 4: [key2=r, key3=r] x 15 with a new value r.
  for (let i = 0; i < 15; i++) {
    const r = await svc.post({ domain: 'another', descriptors: [D('key2', 'r4'), D('key3', 'r4')] });
    if (i < 10) {
      t.equal(r.status, 200, `pair ${i} is allowed`);
      t.same(r.json, response('OK', [ok(20, 'MINUTE', 19 - i, MIN), ok(10, 'HOUR', 9 - i, HOUR)]), `pair ${i}`);
    } else {
      t.equal(r.status, 429, `pair ${i} is over`);
      t.same(r.json, response('OVER_LIMIT', [ok(20, 'MINUTE', 19 - i, MIN), over(10, 'HOUR', HOUR)]), `pair ${i}`);
    }
    t.equal(svc.stat(key3('over_limit')), Math.max(0, i - 9), `key3 over_limit after pair ${i}`);
    t.equal(svc.stat(key2('total_hits')), i + 26, `key2 total_hits keeps accumulating (pair ${i})`);
    t.equal(svc.stat(key2('over_limit')), 5, 'key2 over_limit stays 5');
  }
});

t.test('scenario 6: durationUntilReset counts down with the clock', async (t) => {
  const svc = await startService(t, { files: { 'another.yaml': fixture('another.yaml') } });
  const first = await svc.post({ domain: 'another', descriptors: [D('key4', 'durTest')] });
  t.same(first.json, response('OK', [ok(20, 'DAY', 19, DAY)]));
  svc.clock.now += 2;
  const second = await svc.post({ domain: 'another', descriptors: [D('key4', 'durTest')] });
  t.same(second.json, response('OK', [ok(20, 'DAY', 18, DAY - 2)]));
  const d1 = parseInt(first.json.statuses[0].durationUntilReset, 10);
  const d2 = parseInt(second.json.statuses[0].durationUntilReset, 10);
  t.ok(d2 < d1, `second durationUntilReset (${d2}) < first (${d1})`);
});

t.test('scenario 8: share_threshold makes every wildcard value share one counter', async (t) => {
  const svc = await startService(t, { files: { 'share_threshold.yaml': fixture('share_threshold.yaml') } });
  t.equal(svc.stat('ratelimit.service.config_load_success'), 1, 'the share_threshold config loads');
  const domain = 'share-threshold-test';
  for (let i = 0; i < 10; i++) {
    const r = await svc.post({ domain, descriptors: [D('files', 'files/a.pdf')] });
    t.same(r.json, response('OK', [ok(10, 'HOUR', 9 - i, HOUR)]), `files/a.pdf #${i}`);
  }
  const other = await svc.post({ domain, descriptors: [D('files', 'files/b.csv')] });
  t.equal(other.status, 429, 'another value matching files/* is over: the counter is shared');
  t.same(other.json, response('OVER_LIMIT', [over(10, 'HOUR', HOUR)]));
  t.equal(svc.stat(ruleStat('share-threshold-test.files_files/*', 'total_hits')), 11);
  t.equal(svc.stat(ruleStat('share-threshold-test.files_files/*', 'over_limit')), 1);

  for (let i = 0; i < 3; i++) {
    const r = await svc.post({ domain, descriptors: [D('files_no_share', `files_no_share/unique-${i}`)] });
    t.same(r.json, response('OK', [ok(10, 'HOUR', 9, HOUR)]), `files_no_share value ${i} has its own counter`);
  }
  t.equal(svc.stat(ruleStat('share-threshold-test.files_no_share_files_no_share/*', 'total_hits')), 3);
});

t.test('scenario 11: engine semantics at now=1234', async (t) => {
  const svc = await startService(t, { files: { 'engine.yaml': fixture('engine.yaml') }, now: 1234 });
  const single = await svc.post({ domain: 'domain', descriptors: [D('key', 'value')] });
  t.same(single.json, response('OK', [ok(10, 'SECOND', 9, 1)]));

  // [D(key2=value2) no limit, D(key2=value2, subkey2=subvalue2) 10/MINUTE] until the 11th hit.
  const pair = { domain: 'domain', descriptors: [D('key2', 'value2'), D('key2', 'value2', 'subkey2', 'subvalue2')] };
  for (let i = 0; i < 10; i++) {
    const r = await svc.post(pair);
    // 1234 % 60 = 34: the MINUTE window started at 1200 and resets in 26 s.
    t.same(r.json, response('OK', [NO_LIMIT, ok(10, 'MINUTE', 9 - i, 26)]), `pair ${i}`);
  }
  const r = await svc.post(pair);
  t.equal(r.status, 429);
  t.same(r.json, response('OVER_LIMIT', [NO_LIMIT, over(10, 'MINUTE', 26)]));
  t.equal(svc.stat(ruleStat('domain.key2_value2.subkey2_subvalue2', 'total_hits')), 11);
  t.equal(svc.stat(ruleStat('domain.key2_value2.subkey2_subvalue2', 'over_limit')), 1);
});

t.test('scenario 12: per-descriptor hits_addend 0 checks without consuming', async (t) => {
  const svc = await startService(t, { files: { 'engine.yaml': fixture('engine.yaml') } });
  const hour = (s: string) => ruleStat('domain.key3_value3', s);
  const day = (s: string) => ruleStat('domain.key3_value3.subkey3_subvalue3', s);
  // Bring the counters to 11 (HOUR) and 12 (DAY), as the mocked INCRBY results of the unit test.
  await svc.post({
    domain: 'domain',
    descriptors: [
      { ...D('key3', 'value3'), hitsAddend: 11 },
      { ...D('key3', 'value3', 'subkey3', 'subvalue3'), hitsAddend: 12 },
    ],
  });
  const before = { ht: svc.stat(hour('total_hits')), ho: svc.stat(hour('over_limit')), dt: svc.stat(day('total_hits')), do: svc.stat(day('over_limit')) };
  t.same(before, { ht: 11, ho: 1, dt: 12, do: 2 });

  const r = await svc.post({
    domain: 'domain',
    descriptors: [{ ...D('key3', 'value3'), hitsAddend: 0 }, D('key3', 'value3', 'subkey3', 'subvalue3')],
  });
  t.equal(r.status, 429);
  t.same(r.json, response('OVER_LIMIT', [over(10, 'HOUR', HOUR), over(10, 'DAY', DAY)]));
  t.equal(svc.stat(hour('total_hits')) - before.ht, 0, 'first descriptor: total_hits +0');
  t.equal(svc.stat(hour('over_limit')) - before.ho, 0, 'first descriptor: over_limit +0');
  t.equal(svc.stat(day('total_hits')) - before.dt, 1, 'second descriptor: total_hits +1');
  t.equal(svc.stat(day('over_limit')) - before.do, 1, 'second descriptor: over_limit +1');

  // hits_addend 0 on a counter still under the limit reports without consuming.
  const peek = () => svc.post({ domain: 'domain', descriptors: [{ ...D('key', 'value'), hitsAddend: 0 }] });
  t.same((await peek()).json, response('OK', [ok(10, 'SECOND', 10, SEC)]));
  t.same((await peek()).json, response('OK', [ok(10, 'SECOND', 10, SEC)]), 'still 10 remaining');
  t.equal(svc.stat(ruleStat('domain.key_value', 'total_hits')), 0);
});

t.test('scenario 13: near/over/within accounting with hits_addend, as upstream', async (t) => {
  const svc = await startService(t, { files: { 'engine.yaml': fixture('engine.yaml') } });
  // [limit, hits, counter after the request, code, remaining, over delta, near delta, within delta]
  const rows: Array<[number, number, number, 'OK' | 'OVER_LIMIT', number, number, number, number]> = [
    [15, 1, 11, 'OK', 4, 0, 0, 1],
    [15, 1, 13, 'OK', 2, 0, 1, 1],
    [15, 1, 16, 'OVER_LIMIT', 0, 1, 0, 0],
    [20, 3, 5, 'OK', 15, 0, 0, 3],
    [8, 2, 7, 'OK', 1, 0, 1, 2],
    [20, 3, 19, 'OK', 1, 0, 3, 3],
    [20, 3, 22, 'OVER_LIMIT', 0, 2, 1, 0],
    [20, 7, 22, 'OVER_LIMIT', 0, 2, 4, 0],
    [10, 3, 30, 'OVER_LIMIT', 0, 3, 0, 0],
    [10, 1, 5, 'OK', 5, 0, 0, 1],
  ];
  let row = 0;
  for (const [limit, hits, after, code, remaining, overD, nearD, withinD] of rows) {
    row++;
    const key = `L${limit}`;
    const value = `row${row}`;
    const before = after - hits;
    if (before > 0) await svc.post({ domain: 'domain', descriptors: [{ ...D(key, value), hitsAddend: before }] });
    const stat = (s: string) => svc.stat(ruleStat(`domain.${key}`, s));
    const b = { over: stat('over_limit'), near: stat('near_limit'), within: stat('within_limit'), total: stat('total_hits') };
    const r = await svc.post({ domain: 'domain', descriptors: [{ ...D(key, value), hitsAddend: hits }] });
    const expected = code === 'OK' ? ok(limit, 'SECOND', remaining, SEC) : over(limit, 'SECOND', SEC);
    t.same(r.json, response(code, [expected]), `L=${limit} h=${hits} a=${after}: response`);
    t.same(
      {
        over: stat('over_limit') - b.over,
        near: stat('near_limit') - b.near,
        within: stat('within_limit') - b.within,
        total: stat('total_hits') - b.total,
      },
      { over: overD, near: nearD, within: withinD, total: hits },
      `L=${limit} h=${hits} a=${after}: statistic deltas`,
    );
  }
  // The same with the request-level hitsAddend (uint32) instead of the descriptor's.
  await svc.post({ domain: 'domain', hitsAddend: 15, descriptors: [D('L20', 'request-level')] });
  const stat = (s: string) => svc.stat(ruleStat('domain.L20', s));
  const b = { over: stat('over_limit'), near: stat('near_limit'), within: stat('within_limit') };
  const r = await svc.post({ domain: 'domain', hitsAddend: 7, descriptors: [D('L20', 'request-level')] });
  t.same(r.json, response('OVER_LIMIT', [over(20, 'SECOND', SEC)]));
  t.same(
    { over: stat('over_limit') - b.over, near: stat('near_limit') - b.near, within: stat('within_limit') - b.within },
    { over: 2, near: 4, within: 0 },
    'limit 20, request hits 7, 15 -> 22: over +2, near +4',
  );
});

t.test('scenario 14: shadow rule answers OK past its limit; without shadow it is OVER_LIMIT', async (t) => {
  const svc = await startService(t, { files: { 'engine.yaml': fixture('engine.yaml') } });
  for (const [key, shadow] of [['shadow15', true], ['plain15', false]] as const) {
    await svc.post({ domain: 'domain', descriptors: [{ ...D(key, 'x'), hitsAddend: 10 }] });
    const stat = (s: string) => svc.stat(ruleStat(`domain.${key}`, s));
    const names = ['total_hits', 'over_limit', 'shadow_mode', 'near_limit', 'within_limit'];
    const before = Object.fromEntries(names.map((n) => [n, stat(n)]));
    const codes: number[] = [];
    const bodies: unknown[] = [];
    // The counter goes 10 -> 11, 13, 16, 17: upstream's INCRBY results 11, 13, 16, then one more.
    for (const hits of [1, 2, 3, 1]) {
      const r = await svc.post({ domain: 'domain', descriptors: [{ ...D(key, 'x'), hitsAddend: hits }] });
      codes.push(r.status);
      bodies.push(r.json);
    }
    const delta = Object.fromEntries(names.map((n) => [n, stat(n) - (before[n] as number)]));
    if (shadow) {
      t.same(codes, [200, 200, 200, 200], 'shadow: every request is allowed');
      t.same(bodies, [
        response('OK', [ok(15, 'HOUR', 4, HOUR)]),
        response('OK', [ok(15, 'HOUR', 2, HOUR)]),
        response('OK', [ok(15, 'HOUR', 0, HOUR)]),
        response('OK', [ok(15, 'HOUR', 0, HOUR)]),
      ]);
      // 13 -> 16 crosses: over += 16-15, near += 15-max(12,13); 17: over += 1.
      t.same(delta, { total_hits: 7, over_limit: 2, shadow_mode: 2, near_limit: 3, within_limit: 3 }, 'shadow statistics');
    } else {
      t.same(codes, [200, 200, 429, 429]);
      t.same(bodies, [
        response('OK', [ok(15, 'HOUR', 4, HOUR)]),
        response('OK', [ok(15, 'HOUR', 2, HOUR)]),
        response('OVER_LIMIT', [over(15, 'HOUR', HOUR)]),
        response('OVER_LIMIT', [over(15, 'HOUR', HOUR)]),
      ]);
      t.same(delta, { total_hits: 7, over_limit: 2, shadow_mode: 0, near_limit: 3, within_limit: 3 }, 'plain statistics');
    }
  }
});

t.test('scenario 15: limited, unmatched and unlimited descriptors together', async (t) => {
  const svc = await startService(t, { files: { 'engine.yaml': fixture('engine.yaml') } });
  const r = await svc.post({ domain: 'domain', descriptors: [D('foo', 'bar'), D('hello', 'world'), D('baz', 'qux')] });
  t.equal(r.status, 200);
  t.same(r.json, response('OK', [ok(10, 'MINUTE', 9, MIN), NO_LIMIT, UNLIMITED]));
  t.equal(svc.stat(ruleStat('domain.foo_bar', 'total_hits')), 1);
  t.equal(svc.stat(ruleStat('domain.baz_qux', 'total_hits')), 0, 'unlimited rules are not counted');
});

async function overFooBar(svc: Awaited<ReturnType<typeof startService>>): Promise<void> {
  await svc.post({ domain: 'domain', descriptors: [{ ...D('foo', 'bar'), hitsAddend: 10 }] });
}

t.test('scenario 16: RateLimit-* response headers at clock 2222', async (t) => {
  const svc = await startService(t, {
    files: { 'engine.yaml': fixture('engine.yaml') },
    env: { LIMIT_RESPONSE_HEADERS_ENABLED: 'true' },
    now: 2222,
  });
  const first = await svc.post({ domain: 'domain', descriptors: [D('foo', 'bar'), D('hello', 'world')] });
  t.same(
    first.json,
    response('OK', [ok(10, 'MINUTE', 9, 58), NO_LIMIT], [['RateLimit-Limit', '10'], ['RateLimit-Remaining', '9'], ['RateLimit-Reset', '58']]),
    'headers are added to OK answers too',
  );
  await svc.post({ domain: 'domain', descriptors: [{ ...D('foo', 'bar'), hitsAddend: 9 }] });
  const r = await svc.post({ domain: 'domain', descriptors: [D('foo', 'bar'), D('hello', 'world')] });
  t.equal(r.status, 429);
  t.same(
    r.json,
    response('OVER_LIMIT', [over(10, 'MINUTE', 58), NO_LIMIT], [['RateLimit-Limit', '10'], ['RateLimit-Remaining', '0'], ['RateLimit-Reset', '58']]),
  );
  const unmatched = await svc.post({ domain: 'domain', descriptors: [D('hello', 'world')] });
  t.same(unmatched.json, response('OK', [NO_LIMIT]), 'no limited status: no headers');
});

t.test('scenario 16: custom header names', async (t) => {
  const svc = await startService(t, {
    files: { 'engine.yaml': fixture('engine.yaml') },
    env: {
      LIMIT_RESPONSE_HEADERS_ENABLED: 'true',
      LIMIT_LIMIT_HEADER: 'A-Ratelimit-Limit',
      LIMIT_REMAINING_HEADER: 'A-Ratelimit-Remaining',
      LIMIT_RESET_HEADER: 'A-Ratelimit-Reset',
    },
    now: 2222,
  });
  await overFooBar(svc);
  const r = await svc.post({ domain: 'domain', descriptors: [D('foo', 'bar'), D('hello', 'world')] });
  t.same(
    r.json,
    response('OVER_LIMIT', [over(10, 'MINUTE', 58), NO_LIMIT], [['A-Ratelimit-Limit', '10'], ['A-Ratelimit-Remaining', '0'], ['A-Ratelimit-Reset', '58']]),
  );
});

t.test('scenario 16: headers are off by default', async (t) => {
  const svc = await startService(t, { files: { 'engine.yaml': fixture('engine.yaml') }, now: 2222 });
  await overFooBar(svc);
  const r = await svc.post({ domain: 'domain', descriptors: [D('foo', 'bar'), D('hello', 'world')] });
  t.same(r.json, response('OVER_LIMIT', [over(10, 'MINUTE', 58), NO_LIMIT]));
  t.equal(r.headers['ratelimit-limit'], undefined);
});

t.test('scenario 17: global SHADOW_MODE turns an OVER_LIMIT answer into OK, statuses unchanged', async (t) => {
  const svc = await startService(t, { files: { 'engine.yaml': fixture('engine.yaml') }, env: { SHADOW_MODE: 'true' }, now: 2222 });
  const first = await svc.post({ domain: 'domain', descriptors: [D('foo', 'bar'), D('hello', 'world')] });
  t.same(first.json, response('OK', [ok(10, 'MINUTE', 9, 58), NO_LIMIT]));
  t.equal(svc.stat('ratelimit.service.global_shadow_mode'), 0, 'nothing to override yet');
  await svc.post({ domain: 'domain', descriptors: [{ ...D('foo', 'bar'), hitsAddend: 9 }] });
  const r = await svc.post({ domain: 'domain', descriptors: [D('foo', 'bar'), D('hello', 'world')] });
  t.equal(r.status, 200);
  t.same(r.json, response('OK', [over(10, 'MINUTE', 58), NO_LIMIT]));
  t.equal(svc.stat('ratelimit.service.global_shadow_mode'), 1);
  t.equal(svc.stat(ruleStat('domain.foo_bar', 'over_limit')), 1, 'over_limit is still counted');
  await svc.post({ domain: 'domain', descriptors: [D('foo', 'bar'), D('foo', 'bar')] });
  t.equal(svc.stat('ratelimit.service.global_shadow_mode'), 2, 'once per request, not per descriptor');
});

t.test('scenario 18: rule shadow mixed with a regular rule', async (t) => {
  const svc = await startService(t, { files: { 'engine.yaml': fixture('engine.yaml') } });
  const mixed = { domain: 'domain', descriptors: [D('shadowA', 'x'), D('limitB', 'x')] };
  t.same((await svc.post(mixed)).json, response('OK', [ok(1, 'MINUTE', 0, MIN), ok(1, 'MINUTE', 0, MIN)]));
  const r = await svc.post(mixed);
  t.equal(r.status, 429, 'the non-shadow rule is over');
  t.same(r.json, response('OVER_LIMIT', [ok(1, 'MINUTE', 0, MIN), over(1, 'MINUTE', MIN)]));
  t.equal(svc.stat(ruleStat('domain.shadowA', 'shadow_mode')), 1);
  t.equal(svc.stat(ruleStat('domain.shadowA', 'over_limit')), 1);
  t.equal(svc.stat('ratelimit.service.global_shadow_mode'), 0);

  const both = { domain: 'domain', descriptors: [D('shadowA', 'y'), D('shadowC', 'y')] };
  await svc.post(both);
  const r2 = await svc.post(both);
  t.equal(r2.status, 200, 'both rules are shadow: overall OK');
  t.same(r2.json, response('OK', [ok(1, 'MINUTE', 0, MIN), ok(1, 'MINUTE', 0, MIN)]));
  t.equal(svc.stat(ruleStat('domain.shadowC', 'shadow_mode')), 1);
  t.equal(svc.stat('ratelimit.service.global_shadow_mode'), 0);
});

t.test('scenario 20: the /json handler', async (t) => {
  const svc = await startService(t, { files: { 'basic.yaml': fixture('basic.yaml') } });
  const serviceError = 'ratelimit.service.call.should_rate_limit.service_error';

  const empty = await svc.post('');
  t.equal(empty.status, 400, 'empty body');
  t.equal(empty.text, BAD_REQUEST);
  t.equal(empty.headers['content-type'], TEXT_PLAIN);

  const brace = await svc.post('}');
  t.equal(brace.status, 400, 'body `}`');
  t.equal(brace.text, BAD_REQUEST);
  t.equal(brace.headers['content-type'], TEXT_PLAIN);

  const noDomain = await svc.post({ domain: '', descriptors: [D('key1', 'a')] });
  t.equal(noDomain.status, 400, 'service error: empty domain');
  t.equal(noDomain.text, BAD_REQUEST);
  t.equal(svc.stat(serviceError), 1);
  const noDescriptors = await svc.post({ domain: 'basic', descriptors: [] });
  t.equal(noDescriptors.status, 400, 'service error: no descriptors');
  t.equal(noDescriptors.text, BAD_REQUEST);
  t.equal(svc.stat(serviceError), 2);
  const emptyObject = await svc.post({});
  t.equal(emptyObject.status, 400, '`{}` is an empty domain');
  t.equal(svc.stat(serviceError), 3);

  const okUnknown = await svc.post({ domain: 'unknown', descriptors: [D('a', 'b')] });
  t.equal(okUnknown.status, 200);
  t.equal(okUnknown.headers['content-type'], 'application/json');
  t.equal(okUnknown.text, '{"overallCode":"OK","statuses":[{"code":"OK"}]}');

  const first = await svc.post({ domain: 'basic', descriptors: [D('one_per_minute', 'x')] });
  t.equal(first.status, 200);
  t.equal(first.text, `{"overallCode":"OK","statuses":[{"code":"OK","currentLimit":{"requestsPerUnit":1,"unit":"MINUTE"},"durationUntilReset":"${MIN}s"}]}`);
  const overLimit = await svc.post({ domain: 'basic', descriptors: [D('one_per_minute', 'x')] });
  t.equal(overLimit.status, 429);
  t.equal(overLimit.headers['content-type'], 'application/json');
  t.equal(
    overLimit.text,
    `{"overallCode":"OVER_LIMIT","statuses":[{"code":"OVER_LIMIT","currentLimit":{"requestsPerUnit":1,"unit":"MINUTE"},"durationUntilReset":"${MIN}s"}]}`,
  );

  // Any method, and snake_case names are accepted (protojson).
  const put = await svc.post(
    { domain: 'basic', descriptors: [{ entries: [{ key: 'key1', value: 'snake' }], hits_addend: 3 }] },
    { method: 'PUT' },
  );
  t.same(put.json, response('OK', [ok(50, 'SECOND', 47, SEC)]), 'PUT with snake_case hits_addend');
  t.equal(svc.stat(serviceError), 3, 'good requests are not service errors');
});

t.test('/json: answers that name a limit in any script carry their exact length in bytes', async (t) => {
  // The answer's Content-Length is taken from the string's length when every part is ASCII: a
  // multi-byte name must still be measured, or the client reads a cut body or waits for more.
  const yaml = `domain: names
descriptors:
  - key: ascii
    rate_limit: { name: plain_name, unit: minute, requests_per_unit: 3 }
  - key: accented
    rate_limit: { name: "Pathétique", unit: minute, requests_per_unit: 3 }
  - key: wide
    rate_limit: { name: "限制🚦", unit: minute, requests_per_unit: 3 }
`;
  const svc = await startService(t, { files: { 'names.yaml': yaml } });
  for (const [key, name] of [['ascii', 'plain_name'], ['accented', 'Pathétique'], ['wide', '限制🚦']] as const) {
    for (let i = 0; i < 2; i++) {
      const r = await svc.post({ domain: 'names', descriptors: [D(key, 'x')] });
      t.equal(r.status, 200, `${key} request ${i + 1}`);
      t.equal(Number(r.headers['content-length']), Buffer.byteLength(r.text), `${key}: Content-Length is the body's bytes`);
      t.same(r.json, response('OK', [ok(3, 'MINUTE', 2 - i, MIN, name)]), `${key} request ${i + 1}`);
    }
  }
});

t.test('scenario 19/20: a failed first load answers every request with 400 "no configuration"', async (t) => {
  const svc = await startService(t, { files: { 'broken.yaml': "'''" } });
  t.equal(svc.stat('ratelimit.service.config_load_error'), 1);
  t.equal(svc.stat('ratelimit.service.config_load_success'), 0);
  const r = await svc.post({ domain: 'basic', descriptors: [D('key1', 'a')] });
  t.equal(r.status, 400);
  t.equal(r.text, BAD_REQUEST);
  t.equal(svc.stat('ratelimit.service.call.should_rate_limit.service_error'), 1);
});

t.test('scenario 21: a config with an error keeps the old one serving', async (t) => {
  const svc = await startService(t, {
    files: { 'basic.yaml': fixture('basic.yaml') },
    env: { RUNTIME_WATCH_ROOT: 'false', RUNTIME_WATCH_POLL_INTERVAL: '100ms' },
  });
  const success = 'ratelimit.service.config_load_success';
  const error = 'ratelimit.service.config_load_error';
  t.equal(svc.stat(success), 1);
  t.equal(svc.stat(error), 0);

  const cases: Array<[string, string, string]> = [
    ['bad_yaml.yaml', "'''\n", 'bad_yaml.yaml: error loading config file: yaml: line 2: found unexpected end of stream'],
    [
      'duplicate_key.yaml',
      'domain: test-domain\ndescriptors:\n  - key: key1\n    value: value1\n  - key: key1\n    value: value1\n',
      "duplicate_key.yaml: duplicate descriptor composite key 'test-domain.key1_value1'",
    ],
    ['misspelled.yaml', 'domain: d\ndescriptors:\n  - key: k\n    ratelimit:\n      unit: second\n', "misspelled.yaml: config error, unknown key 'ratelimit'"],
    ['dup_domain.yaml', 'domain: basic\ndescriptors:\n  - key: other\n', "dup_domain.yaml: duplicate domain 'basic' in config file"],
  ];
  let errors = 0;
  for (const [name, text, message] of cases) {
    await svc.writeConfig(name, text);
    errors++;
    await waitFor(`config_load_error = ${errors} after writing ${name}`, () => svc.stat(error) >= errors);
    t.equal(svc.stat(error), errors, `${name}: one more config_load_error`);
    const logged = svc.logs.filter((l) => l.msg.startsWith('Error loading new configuration: ')).map((l) => l.msg);
    t.equal(logged[logged.length - 1], `Error loading new configuration: ${message}`, `${name}: logged message`);
    const r = await svc.post({ domain: 'basic', descriptors: [D('key1', 'foo')] });
    t.same(r.json, response('OK', [ok(50, 'SECOND', 49 - (errors - 1), SEC)]), `${name}: the old config still answers`);
    await svc.removeConfig(name);
    await waitFor(`a successful reload after removing ${name}`, () => svc.stat(success) >= errors + 1);
  }
  t.equal(svc.stat(success), cases.length + 1);
  t.equal(svc.stat(error), cases.length);
});

t.test('scenario 22: matching rules (basic_config)', async (t) => {
  const svc = await startService(t, { files: { 'basic_config.yaml': fixture('basic_config.yaml') } });
  const ask = async (...kv: string[]) => (await svc.post({ domain: 'test-domain', descriptors: [D(...kv)] })).json;
  const total = (fullKey: string) => svc.stat(ruleStat(fullKey, 'total_hits'));

  t.same(await ask('key1', 'something'), response('OK', [NO_LIMIT]), 'no rule for the value');
  t.same(await ask('key1', 'value1'), response('OK', [NO_LIMIT]), 'node without a limit');
  t.same(await ask('key2', 'value2', 'subkey', 'subvalue'), response('OK', [NO_LIMIT]), 'deeper than the config');
  t.same(await ask('key5', 'value5', 'subkey5', 'subvalue'), response('OK', [NO_LIMIT]), 'no default at that level');
  t.same(await ask('key2', 'value3'), response('OK', [NO_LIMIT]), 'whitelisted');

  t.same(await ask('key1', 'value1', 'subkey1', 'something'), response('OK', [ok(5, 'SECOND', 4, SEC)]));
  t.equal(total('test-domain.key1_value1.subkey1'), 1);
  t.same(await ask('key1', 'value1', 'subkey1', 'subvalue1'), response('OK', [ok(10, 'SECOND', 9, SEC)]));
  t.equal(total('test-domain.key1_value1.subkey1_subvalue1'), 1);
  t.equal(total('test-domain.key1_value1.subkey1'), 1, 'the more specific rule won');
  t.same(await ask('key2', 'something'), response('OK', [ok(20, 'MINUTE', 19, MIN)]));
  t.equal(total('test-domain.key2'), 1);
  t.same(await ask('key2', 'value2'), response('OK', [ok(30, 'MINUTE', 29, MIN)]));
  t.equal(total('test-domain.key2_value2'), 1);
  t.equal(total('test-domain.key2'), 1);
  t.same(await ask('key3', 'x'), response('OK', [ok(1, 'HOUR', 0, HOUR)]));
  t.same(await ask('key4', 'foo'), response('OK', [ok(1, 'DAY', 0, DAY, 'key4_rate_limit')]), 'named limit');
  t.same(await ask('key5', 'value5'), response('OK', [ok(15, 'DAY', 14, DAY)]));
  t.same(await ask('key5', 'value5', 'subkey5', 'subvalue5'), response('OK', [ok(25, 'DAY', 24, DAY)]));
  t.same(await ask('key6', 'foo'), response('OK', [UNLIMITED]));
  t.equal(total('test-domain.key6'), 0);
  t.same(await ask('key7', 'unspecified_value'), response('OK', [ok(70, 'MINUTE', 69, MIN)]));
  t.equal(total('test-domain.key7_unspecified_value'), 1, 'detailed_metric: stats per value');
  t.equal(total('test-domain.key7'), 0);
  // A key-only rule keeps one counter per value.
  t.same(await ask('key2', 'other'), response('OK', [ok(20, 'MINUTE', 19, MIN)]));
  t.equal(total('test-domain.key2'), 2);
});

t.test('scenario 23: wildcards', async (t) => {
  const svc = await startService(t, { files: { 'wildcard.yaml': fixture('wildcard.yaml') } });
  const ask = async (...kv: string[]) => (await svc.post({ domain: 'test-domain', descriptors: [D(...kv)] })).json;
  const total = (fullKey: string) => svc.stat(ruleStat(fullKey, 'total_hits'));
  const first = response('OK', [ok(20, 'MINUTE', 19, MIN)]);

  t.same(await ask('wild', 'foo1'), first);
  t.same(await ask('wild', 'foo2'), first, 'separate counters: the cache key has the value');
  t.same(await ask('wild', 'foo1'), response('OK', [ok(20, 'MINUTE', 18, MIN)]));
  t.equal(total('test-domain.wild_foo*'), 3, 'one stats key for the pattern');
  t.same(await ask('wild', 'bar'), response('OK', [NO_LIMIT]));
  t.same(await ask('noWild', 'foo1'), response('OK', [NO_LIMIT]));
  t.same(await ask('noWild', 'foo'), first);

  for (const value of ['barab', 'bar123b', 'barb']) t.same(await ask('midWild', value), first, `midWild ${value} matches`);
  for (const value of ['bara', 'xbarb']) t.same(await ask('midWild', value), response('OK', [NO_LIMIT]), `midWild ${value} does not match`);
  t.equal(total('test-domain.midWild_bar*b'), 3);
  for (const value of ['foo123bar456baz', 'foobarbaz']) t.same(await ask('multiWild', value), first, `multiWild ${value} matches`);
  for (const value of ['foo123baz', 'bar456baz']) t.same(await ask('multiWild', value), response('OK', [NO_LIMIT]), `multiWild ${value} does not match`);
  t.equal(total('test-domain.multiWild_foo*bar*baz'), 2);

  t.same(await ask('nestedWild', 'val1', 'wild', 'goo2'), first);
  t.equal(total('test-domain.nestedWild_val1.wild_goo*'), 1);
  t.same(await ask('nestedWild', 'val1', 'wild', 'foo2'), response('OK', [NO_LIMIT]));
});

t.test('scenario 24: limit override through /json', async (t) => {
  const svc = await startService(t, { files: { 'basic_config.yaml': fixture('basic_config.yaml') } });
  const entries = D('key1', 'value1', 'subkey1', 'something').entries;
  // Override statistics are keyed by the entry keys only, never by request values (which would
  // make six counters per distinct value, without end).
  const stat = (s: string) => svc.stat(ruleStat('test-domain.key1.subkey1', s));

  const r = await svc.post({ domain: 'test-domain', descriptors: [{ entries, limit: { requestsPerUnit: 10, unit: 'DAY' } }] });
  t.equal(r.status, 200);
  t.same(r.json, response('OK', [ok(10, 'DAY', 9, DAY)]));
  t.equal(stat('total_hits'), 1, 'stats keyed by the entry keys');
  t.equal(svc.stat(ruleStat('test-domain.key1_value1.subkey1', 'total_hits')), 0, 'the configured rule is not used');

  const r2 = await svc.post({ domain: 'test-domain', descriptors: [{ entries, limit: { requests_per_unit: 42, unit: 'HOUR' } }] });
  t.same(r2.json, response('OK', [ok(42, 'HOUR', 41, HOUR)]));
  t.equal(stat('total_hits'), 2, 'another override value reuses the same stats');

  const r3 = await svc.post({
    domain: 'test-domain',
    descriptors: [{ entries: D('key1', 'value1', 'subkey1', 'other').entries, limit: { requestsPerUnit: 10, unit: 4 } }],
  });
  t.same(r3.json, response('OK', [ok(10, 'DAY', 9, DAY)]), 'unit by enum number');
  t.equal(stat('total_hits'), 3, 'a new value counts under the same key');
  t.equal(svc.stat(ruleStat('test-domain.key1_value1.subkey1_other', 'total_hits')), 0, 'no statistic per value');

  const unmatched = await svc.post({ domain: 'test-domain', descriptors: [{ entries: D('nothing', 'here').entries, limit: { requestsPerUnit: 1, unit: 'MINUTE' } }] });
  t.same(unmatched.json, response('OK', [ok(1, 'MINUTE', 0, MIN)]), 'override applies whether or not config matches');

  const unknown = await svc.post({ domain: 'nope', descriptors: [{ entries, limit: { requestsPerUnit: 10, unit: 'DAY' } }] });
  t.same(unknown.json, response('OK', [NO_LIMIT]), 'unknown domain with an override: no limit');
  t.equal(svc.stat('ratelimit.service.rate_limit.nope.domain_not_found'), 1);

  const bad = await svc.post({ domain: 'test-domain', descriptors: [{ entries, limit: { requestsPerUnit: 10, unit: 'UNKNOWN' } }] });
  t.equal(bad.status, 400, 'override with unit UNKNOWN is rejected');
  t.equal(bad.text, BAD_REQUEST);
  const badNumber = await svc.post({ domain: 'test-domain', descriptors: [{ entries, limit: { requestsPerUnit: 10 } }] });
  t.equal(badNumber.status, 400, 'override without a unit is UNKNOWN too');
  const after = await svc.post({ domain: 'test-domain', descriptors: [D('key2', 'alive')] });
  t.equal(after.status, 200, 'the service keeps serving');
  t.same(after.json, response('OK', [ok(20, 'MINUTE', 19, MIN)]));
  t.equal(stat('total_hits'), 3, 'the rejected requests counted nothing');
});

t.test('DEFAULT_NOW is the reference instant of these expectations', async (t) => {
  t.equal(DEFAULT_NOW, 1_000_000);
});
