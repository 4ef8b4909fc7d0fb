/** The stack of closers a thread unwinds, after a failed start as at a stop: order, deadline, failures. */
import { setTimeout as sleep } from 'node:timers/promises';
import t from 'tap';
import { Lifecycle } from '../../../src/app/lifecycle.js';
import { recordingLogger, type LogRecord } from '../../support/recording-logger.js';

t.test('closes the parts last added first', async (t) => {
  const closed: string[] = [];
  const lifecycle = new Lifecycle(recordingLogger([]));
  for (const name of ['store', 'channel', 'server']) lifecycle.add(name, () => void closed.push(name));
  await lifecycle.close(1000);
  t.same(closed, ['server', 'channel', 'store']);
});

t.test('each closer gets what is left of the one deadline', async (t) => {
  const given: number[] = [];
  const lifecycle = new Lifecycle(recordingLogger([]));
  lifecycle.add('second', (leftMs) => void given.push(leftMs));
  lifecycle.add('first', async (leftMs) => {
    given.push(leftMs);
    await sleep(40);
  });
  await lifecycle.close(1000);
  const [first = NaN, second = NaN] = given;
  t.ok(first <= 1000 && first > 900, `the first closer has about all of it (${first} ms)`);
  // Timers may fire a millisecond early by performance.now(); the wait took 40 ms at the least.
  t.ok(second <= first - 38, `the second has what the first left (${second} ms)`);
});

t.test('a closer that fails is logged, and the ones after it still run', async (t) => {
  const logs: LogRecord[] = [];
  const closed: string[] = [];
  const lifecycle = new Lifecycle(recordingLogger(logs));
  lifecycle.add('the store', () => void closed.push('the store'));
  lifecycle.add('the sink', () => Promise.reject(new Error('socket gone')));
  lifecycle.add('the server', () => {
    throw new Error('already closed');
  });
  await lifecycle.close(1000);
  t.same(closed, ['the store']);
  t.same(logs, [
    { level: 'error', msg: 'stopping the server failed', fields: { error: 'already closed' } },
    { level: 'error', msg: 'stopping the sink failed', fields: { error: 'socket gone' } },
  ]);
});

t.test('a closer that never finishes is left behind: close still ends at the deadline, and the rest run', async (t) => {
  const logs: LogRecord[] = [];
  const given: Record<string, number> = {};
  const lifecycle = new Lifecycle(recordingLogger(logs));
  lifecycle.add('the store', (leftMs) => void (given['the store'] = leftMs));
  lifecycle.add('the sink', () => new Promise<void>(() => undefined));
  const started = performance.now();
  await lifecycle.close(50);
  const took = performance.now() - started;
  t.ok(took >= 45 && took < 1000, `close ended after ${Math.round(took)} ms`);
  t.same(logs, [{ level: 'error', msg: 'stopping the sink did not finish in time; left behind', fields: undefined }]);
  const left = given['the store'] ?? NaN;
  t.ok(left < 2, `the store was closed with the deadline spent (${left} ms left)`);
});

t.test('closing twice unwinds once; both calls end with it', async (t) => {
  let closes = 0;
  const lifecycle = new Lifecycle(recordingLogger([]));
  lifecycle.add('the server', async () => {
    closes++;
    await sleep(10);
  });
  const first = lifecycle.close(1000);
  const second = lifecycle.close(1000);
  await Promise.all([first, second]);
  await lifecycle.close(1000);
  t.equal(closes, 1);
});
