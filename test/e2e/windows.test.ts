/**
 * Fixed windows aligned to the Unix epoch (upstream's cache key and durationUntilReset), driven by
 * the service's injected manual clock: requests stay in one window for as long as the clock says
 * so, and moving the clock past the window's end starts a fresh count.
 */
import t from 'tap';
import { startService } from '../support/service-harness.js';
import { D, fixture, ruleStat } from '../support/service-inputs.js';
import { NO_LIMIT, ok, over, response } from './expect.js';

t.test('SECOND window: exhausted, then reset one second later', async (t) => {
  const svc = await startService(t, { files: { 'basic.yaml': fixture('basic.yaml') }, now: 1_000_000 });
  const key1 = (hitsAddend?: number) =>
    svc.post({ domain: 'basic', descriptors: [{ ...D('key1', 'win'), ...(hitsAddend === undefined ? {} : { hitsAddend }) }] });
  t.same((await key1(50)).json, response('OK', [ok(50, 'SECOND', 0, 1)]), '50 of 50 used');
  const overR = await key1();
  t.equal(overR.status, 429);
  t.same(overR.json, response('OVER_LIMIT', [over(50, 'SECOND', 1)]));
  t.same((await key1()).json, response('OVER_LIMIT', [over(50, 'SECOND', 1)]), 'same second: still over');
  svc.clock.now += 1;
  const next = await key1();
  t.equal(next.status, 200, 'the next second is a new window');
  t.same(next.json, response('OK', [ok(50, 'SECOND', 49, 1)]));
  t.equal(svc.stat(ruleStat('basic.key1', 'total_hits')), 53);
  t.equal(svc.stat(ruleStat('basic.key1', 'over_limit')), 2);
});

t.test('MINUTE window: aligned to the epoch, not to the first request', async (t) => {
  // 1,000,000 is 40 s into the minute that starts at 999,960.
  const svc = await startService(t, { files: { 'basic.yaml': fixture('basic.yaml') }, now: 1_000_000 });
  const once = () => svc.post({ domain: 'basic', descriptors: [D('one_per_minute', 'w')] });
  t.same((await once()).json, response('OK', [ok(1, 'MINUTE', 0, 20)]));
  t.same((await once()).json, response('OVER_LIMIT', [over(1, 'MINUTE', 20)]));
  svc.clock.now = 1_000_019; // last second of the window
  t.same((await once()).json, response('OVER_LIMIT', [over(1, 'MINUTE', 1)]), 'last second of the window: still over');
  svc.clock.now = 1_000_020; // first second of the next window
  t.same((await once()).json, response('OK', [ok(1, 'MINUTE', 0, 60)]), 'new window, full minute until reset');
  t.same((await once()).json, response('OVER_LIMIT', [over(1, 'MINUTE', 60)]));
  t.equal(svc.stat(ruleStat('basic.one_per_minute', 'total_hits')), 5);
  t.equal(svc.stat(ruleStat('basic.one_per_minute', 'over_limit')), 3);
  t.equal(svc.stat(ruleStat('basic.one_per_minute', 'within_limit')), 2);
});

t.test('descriptors with different units keep independent windows', async (t) => {
  const svc = await startService(t, { files: { 'another.yaml': fixture('another.yaml') }, now: 1_000_000 });
  const pair = () => svc.post({ domain: 'another', descriptors: [D('key2', 'u'), D('key3', 'u')] });
  for (let i = 0; i < 10; i++) await pair();
  const r = await pair();
  t.same(r.json, response('OVER_LIMIT', [ok(20, 'MINUTE', 9, 20), over(10, 'HOUR', 800)]));
  svc.clock.now = 1_000_020; // next minute, same hour (997,200 .. 1,000,799)
  t.same((await pair()).json, response('OVER_LIMIT', [ok(20, 'MINUTE', 19, 60), over(10, 'HOUR', 780)]), 'minute reset, hour not');
  svc.clock.now = 1_000_800; // next hour
  t.same((await pair()).json, response('OK', [ok(20, 'MINUTE', 19, 60), ok(10, 'HOUR', 9, 3600)]), 'both reset');
});

t.test('DAY window and a jump of several windows', async (t) => {
  const svc = await startService(t, { files: { 'another.yaml': fixture('another.yaml') }, now: 1_000_000 });
  const day = (hitsAddend?: number) =>
    svc.post({ domain: 'another', descriptors: [{ ...D('key4', 'd'), ...(hitsAddend === undefined ? {} : { hitsAddend }) }] });
  t.same((await day(20)).json, response('OK', [ok(20, 'DAY', 0, 36800)]));
  t.same((await day()).json, response('OVER_LIMIT', [over(20, 'DAY', 36800)]));
  svc.clock.now = 1_036_799; // last second of the day that started at 950,400
  t.same((await day()).json, response('OVER_LIMIT', [over(20, 'DAY', 1)]));
  svc.clock.now = 1_036_800 + 3 * 86400 + 5; // three days later
  t.same((await day()).json, response('OK', [ok(20, 'DAY', 19, 86395)]));
});

t.test('the window only moves when the clock does: no real time passes in these tests', async (t) => {
  const svc = await startService(t, { files: { 'basic.yaml': fixture('basic.yaml') }, now: 1_000_000 });
  const first = await svc.post({ domain: 'basic', descriptors: [D('one_per_minute', 'fixed')] });
  t.same(first.json, response('OK', [ok(1, 'MINUTE', 0, 20)]));
  // Wait (by polling, not sleeping blindly) until real wall-clock seconds have changed at least once.
  const start = Math.floor(Date.now() / 1000);
  await new Promise<void>((resolve) => {
    const timer = setInterval(() => {
      if (Math.floor(Date.now() / 1000) !== start) {
        clearInterval(timer);
        resolve();
      }
    }, 20);
  });
  const second = await svc.post({ domain: 'basic', descriptors: [D('one_per_minute', 'fixed')] });
  t.same(second.json, response('OVER_LIMIT', [over(1, 'MINUTE', 20)]), 'same manual instant: same window and reset');
  t.same((await svc.post({ domain: 'basic', descriptors: [D('unknown_key', 'x')] })).json, response('OK', [NO_LIMIT]));
});
