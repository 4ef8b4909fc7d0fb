/**
 * The debug port's counter routes on a real debug server over real sockets, with a real engine
 * inspector on the embedded store: a reset refused beyond loopback without DEBUG_TOKEN, a store
 * without a reset answered 501 by name, and a reset seen through another thread's handle on the same
 * memory.
 */
import t, { type Test } from 'tap';
import { SharedMemoryCounterStore } from '../../../src/backends/shared-memory/index.js';
import { loadConfig } from '../../../src/config/index.js';
import { CounterInspector, ManualClock, Unit, compileConfig, type CounterReport, type CounterStore } from '../../../src/engine/index.js';
import { counterRoutes } from '../../../src/ratelimit/counters/index.js';
import { startDebugServer } from '../../../src/transports/debug/index.js';

const NOW = 1_700_000_100;
const RULES = 'domain: d\ndescriptors:\n  - key: client\n    rate_limit: {unit: minute, requests_per_unit: 5}\n';

function inspectorOn(store: CounterStore, storeName = 'memory'): CounterInspector {
  const loaded = loadConfig([{ name: 'd.yaml', text: RULES }], { mergeDomainConfigs: false });
  if (!loaded.ok) throw new Error(loaded.error.message);
  const config = compileConfig(loaded.value, { nearLimitRatio: 0.8 });
  return new CounterInspector({ store, storeName, clock: new ManualClock(NOW), cacheKeyPrefix: '', config: () => config });
}

async function debugPort(t: Test, host: string, inspector: CounterInspector): Promise<string> {
  const server = await startDebugServer({
    host,
    port: 0,
    stats: () => [],
    rlconfig: () => '',
    metrics: () => Promise.resolve({ contentType: 'text/plain', body: '' }),
    jsonRoutes: counterRoutes(() => inspector),
  });
  t.teardown(() => server.close());
  return `http://127.0.0.1:${server.port}`;
}

const TARGET = '?domain=d&descriptor=client=alice';
const COUNTER = { key: `d_client_alice_${NOW}`, hits: 0, unit: Unit.MINUTE, windowStart: NOW };

t.test('beyond loopback without DEBUG_TOKEN: reading is open, a reset is refused', async (t) => {
  const store = SharedMemoryCounterStore.create({ maxKeysPerWindow: 64 });
  store.increment([{ ...COUNTER, hits: 2 }]);
  const base = await debugPort(t, '0.0.0.0', inspectorOn(store));

  const read = await fetch(`${base}/counters${TARGET}`);
  t.equal(read.status, 200);
  t.equal(((await read.json()) as CounterReport).limits[0]?.count, 2);

  const reset = await fetch(`${base}/counters/reset${TARGET}`, { method: 'POST', headers: { authorization: 'Bearer anything' } });
  t.equal(reset.status, 403);
  t.same(await reset.json(), {
    code: 'FORBIDDEN',
    message: 'counter resets are off: the debug port listens on 0.0.0.0, beyond loopback, and DEBUG_TOKEN is not set',
  });
  t.same(store.read([COUNTER]), [2], 'the counter is untouched');
});

t.test('a store without a reset: 501 naming the store, and the counter untouched', async (t) => {
  const shared = SharedMemoryCounterStore.create({ maxKeysPerWindow: 64 });
  shared.increment([{ ...COUNTER, hits: 1 }]);
  const withoutReset: CounterStore = { increment: (increments) => shared.increment(increments), close: () => shared.close() };
  const base = await debugPort(t, '127.0.0.1', inspectorOn(withoutReset, 'objcache'));
  const reset = await fetch(`${base}/counters/reset${TARGET}`, { method: 'POST' });
  t.equal(reset.status, 501);
  t.same(await reset.json(), { code: 'NOT_IMPLEMENTED', message: 'the objcache counter store cannot reset counters' });
  t.same(shared.read([COUNTER]), [1]);
});

t.test('an embedded-store reset is seen through another handle on the same memory; later hits count from zero', async (t) => {
  const store = SharedMemoryCounterStore.create({ maxKeysPerWindow: 64 });
  const other = SharedMemoryCounterStore.attach(store.buffer);
  const inspector = inspectorOn(store);
  // Increments before and after each reset through another handle on the same memory: the count
  // read afterwards is exactly the increments after the last reset.
  for (let round = 0; round < 50; round++) {
    other.increment([{ ...COUNTER, hits: 3 }]);
    const before = await inspector.reset('d', [{ key: 'client', value: 'alice' }]);
    t.equal((before as CounterReport).limits[0]?.count, 3, `round ${round}: the reset answers the count before it`);
    other.increment([{ ...COUNTER, hits: round % 4 }]);
    t.same(other.read([COUNTER]), [round % 4], `round ${round}: counted from zero`);
    await inspector.reset('d', [{ key: 'client', value: 'alice' }]);
  }
});
