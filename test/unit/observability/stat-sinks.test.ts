import t from 'tap';
import {
  StatsFlusher,
  StatsStore,
  StdoutSink,
  TIMER_BUCKET_BOUNDS_MS,
  compileMogrifier,
  joinTags,
  mogrify,
  parseTagList,
  silentLogger,
  splitTags,
  withExtraTags,
  type LogFields,
  type StatsBatch,
  type StatsSink,
} from '../../../src/observability/index.js';
import { StatsdSink } from '../../../src/observability/sinks/statsd-sink.js';
import { timerLineSuffix, timerSamples } from '../../../src/observability/sinks/stats-sink.js';
import { createServer } from 'node:net';
import { freePort } from '../../../src/transports/free-port.js';
import { waitFor } from '../../support/wait-for.js';

t.test('tags travel in the name as gostats writes them, sorted by key', async (t) => {
  t.equal(joinTags('a.b', [['z', '1'], ['a', '2']]), 'a.b.__a=2.__z=1');
  t.same(splitTags('ratelimit.memcache.multiget.__code=success'), { base: 'ratelimit.memcache.multiget', tags: [['code', 'success']] });
  t.same(splitTags('plain.name'), { base: 'plain.name', tags: [] });
  t.same(splitTags('x.__bad.__k=v'), { base: 'x', tags: [['k', 'v']] }, 'a suffix without = is not a tag');
  t.equal(withExtraTags('ratelimit.memcache.multiget.__code=success', [['env', 'prod'], ['code', 'extra']]), 'ratelimit.memcache.multiget.__code=success.__env=prod', "the statistic's own tag wins");
  t.equal(withExtraTags('a.b', []), 'a.b');
});

t.test('tag lists: k:v pairs, values sanitised for the wire, bad items refused', async (t) => {
  t.same(parseTagList('env:prod, region:eu-west:1', { allowEmptyValue: true }), [['env', 'prod'], ['region', 'eu-west_1']]);
  t.same(parseTagList('', { allowEmptyValue: true }), []);
  t.same(parseTagList('k:', { allowEmptyValue: true }), [['k', '']]);
  t.throws(() => parseTagList('k:', { allowEmptyValue: false }), /has no value/);
  t.throws(() => parseTagList('novalue', { allowEmptyValue: true }), /expected key:value/);
  t.throws(() => parseTagList(':5', { allowEmptyValue: true }), /has no key/);
  t.same(parseTagList('ip:10.0.0.1|x', { allowEmptyValue: true }), [['ip', '10_0_0_1_x']]);
});

t.test("mogrifiers: upstream's unanchored RE2 match, $n in name and tags, first match wins", async (t) => {
  const rules = compileMogrifier({ name: 'TAG', pattern: '^ratelimit\\.service\\.rate_limit\\.(.*)\\.(.*)\\.(.*)$', nameTemplate: 'ratelimit.service.rate_limit.$3', tags: [['domain', '$1'], ['descriptor', '$2']] });
  const any = compileMogrifier({ name: 'ANY', pattern: 'rate_limit', nameTemplate: 'caught.$0', tags: [] });
  t.same(mogrify([rules, any], 'ratelimit.service.rate_limit.mongo_cps.database_users.within_limit'), {
    name: 'ratelimit.service.rate_limit.within_limit',
    tags: [['domain', 'mongo_cps'], ['descriptor', 'database_users']],
  });
  t.same(mogrify([any, rules], 'ratelimit.service.rate_limit.mongo_cps.database_users.within_limit'), { name: 'caught.rate_limit', tags: [] }, 'order decides');
  t.same(mogrify([rules], 'ratelimit.other'), { name: 'ratelimit.other', tags: [] }, 'no match leaves the name');
  t.same(mogrify([], 'x'), { name: 'x', tags: [] });
  t.throws(() => compileMogrifier({ name: 'BAD', pattern: '(?=x)', nameTemplate: 'n', tags: [] }), 'RE2 has no look-ahead');
});

t.test('timers sort samples into buckets; sinks send a line per bucket with the count as a sample rate', async (t) => {
  const store = new StatsStore();
  const timer = store.timer('rt');
  for (const ms of [0, 0, 0, 3, 7, 12_000]) timer.record(ms);
  const delta = store.takeDelta();
  const samples = timerSamples(delta!.timers[0]!);
  t.same(samples, [
    { valueMs: 0, count: 3 },
    { valueMs: 3, count: 1 },
    { valueMs: 7, count: 1 },
    { valueMs: 12_000, count: 1 },
  ]);
  t.equal(timerLineSuffix(0, 3), '0|ms|@0.333333');
  t.equal(timerLineSuffix(7.25, 1), '7.25|ms');
  t.equal(TIMER_BUCKET_BOUNDS_MS[0], 0, 'whole-millisecond timers keep their zeros apart');
  const main = new StatsStore();
  main.applyDelta(delta!);
  main.applyDelta(delta!);
  t.equal(main.timer('rt').count, 12, 'deltas of two threads add up');
  t.equal(main.timer('rt').maxMs, 12_000);
});

class RecordingSink implements StatsSink {
  readonly batches: StatsBatch[] = [];
  isReady = true;
  ready(): boolean {
    return this.isReady;
  }
  send(batch: StatsBatch): void {
    this.batches.push(batch);
  }
  close(): Promise<void> {
    return Promise.resolve();
  }
}

t.test('a flush sends counter deltas, every gauge, and waits while the sink is not ready', async (t) => {
  const store = new StatsStore();
  const sink = new RecordingSink();
  const flusher = new StatsFlusher({ store, sink, intervalMs: 3_600_000, extraTags: [['env', 'ci']], refresh: () => Promise.resolve(), logger: silentLogger, sinkName: 'test' });
  t.teardown(() => flusher.close());
  store.counter('hits').value += 5;
  store.gauge('size').value = 7;
  await flusher.flush();
  store.counter('hits').value += 2;
  await flusher.flush();
  await flusher.flush();
  t.same(sink.batches.map((b) => b.counters), [[['hits.__env=ci', 5]], [['hits.__env=ci', 2]], []], 'deltas; unchanged counters left out');
  t.same(sink.batches.map((b) => b.gauges.find(([name]) => name === 'size.__env=ci')?.[1]), [7, 7, 7], 'gauges every time');
  sink.isReady = false;
  store.counter('hits').value += 4;
  await flusher.flush();
  t.equal(sink.batches.length, 3, 'nothing taken while the sink cannot send');
  sink.isReady = true;
  await flusher.flush();
  t.same(sink.batches[3]?.counters, [['hits.__env=ci', 4]], 'kept for the next flush');
});

t.test('a failing sink is counted, logged once, then at most once a minute with a count', async (t) => {
  const store = new StatsStore();
  const logged: Array<{ msg: string; fields: LogFields | undefined }> = [];
  const logger = { ...silentLogger, warn: (msg: string, fields?: LogFields) => logged.push({ msg, fields }) };
  let now = 1_000_000;
  const flusher = new StatsFlusher({ store, sink: new RecordingSink(), intervalMs: 100, extraTags: [], refresh: () => Promise.resolve(), logger, sinkName: 'test', now: () => now });
  t.teardown(() => flusher.close());
  for (let i = 0; i < 5; i++) flusher.onSinkError(new Error('ECONNREFUSED'));
  t.equal(store.value('ratelimit.stats.sink_errors'), 5);
  t.equal(logged.length, 1, 'the first failure is logged at once');
  t.match(logged[0]?.fields, { failedSinceLastLine: 1, errors: 1 });
  now += 59_999;
  flusher.onSinkError(new Error('ECONNREFUSED'));
  t.equal(logged.length, 1, 'nothing more within a minute, however many flush intervals pass');
  now += 1;
  flusher.onSinkError(new Error('ECONNREFUSED'));
  t.equal(logged.length, 2, 'a line a minute while it keeps failing');
  t.match(logged[1]?.fields, { failedSinceLastLine: 6, errors: 7 });
});

t.test("standard output: gostats' logging sink lines", async (t) => {
  let out = '';
  const sink = new StdoutSink((text) => (out += text), () => 1_700_000_000_123);
  sink.send({ counters: [['a.b', 3]], gauges: [['g', 1]], timers: [] });
  t.equal(
    out,
    '{"level":"debug","ts":1700000000.123000,"logger":"gostats.loggingsink","msg":"flushing counter","json":{"name":"a.b","type":"counter","value":"3.000000"}}\n' +
      '{"level":"debug","ts":1700000000.123000,"logger":"gostats.loggingsink","msg":"flushing gauge","json":{"name":"g","type":"gauge","value":"1.000000"}}\n',
  );
});

t.test('a stop waits for the last flush to reach a connected metrics daemon, never for one that is not there', async (t) => {
  const batch: StatsBatch = { counters: [['last.hits', 3]], gauges: [], timers: [] };
  // Waits far past the test's timeout: a close that resolves went by the connection's own outcome.
  const sinkTo = (port: number, errors: Error[]) =>
    new StatsdSink({ host: '127.0.0.1', port, protocol: 'tcp', format: { kind: 'plain' }, onError: (error) => errors.push(error), closeWaitMs: 600_000 });

  const nothingListens = await freePort();
  const refusedDuringClose: Error[] = [];
  const fresh = sinkTo(nothingListens, refusedDuringClose);
  fresh.send(batch);
  await fresh.close();
  t.match(refusedDuringClose.map(String), [/ECONNREFUSED/], 'refused while the stop waited: the wait ends');

  const refusedBefore: Error[] = [];
  const broken = sinkTo(nothingListens, refusedBefore);
  broken.send(batch);
  await waitFor('the refusal', () => refusedBefore.length > 0);
  await broken.close();
  t.pass('known to be broken before the stop: no wait at all');

  let received = '';
  const daemon = createServer((socket) => socket.setEncoding('utf8').on('data', (text: string) => (received += text)));
  await new Promise<void>((resolve) => daemon.listen(0, '127.0.0.1', resolve));
  t.teardown(() => new Promise<void>((resolve) => daemon.close(() => resolve())));
  const live = sinkTo((daemon.address() as { port: number }).port, []);
  live.send(batch);
  await live.close();
  await waitFor('the last flush', () => received.includes('last.hits:3|c'));
  t.pass('a daemon that reads gets the last flush before the stop goes on');
});
