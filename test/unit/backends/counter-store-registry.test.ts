import t from 'tap';
import { openSharedCounterStore } from '../../../src/backends/index.js';
import { COUNTER_STORES, DEFAULT_COUNTER_STORE } from '../../../src/backends/registry.js';
import { StatsStore } from '../../../src/observability/index.js';
import { EnvReader, loadSettings } from '../../../src/settings/index.js';

t.test('BACKEND_TYPE names one store: every type and alias is lowercase and belongs to one store only', async (t) => {
  const owners = new Map<string, string>();
  for (const store of COUNTER_STORES) {
    for (const name of [store.type, ...store.aliases]) {
      t.equal(name, name.toLowerCase(), `${name} is matched against a lowercased BACKEND_TYPE`);
      t.notOk(owners.has(name), `${name} names ${store.type}${owners.has(name) ? ` and ${owners.get(name)}` : ''}`);
      owners.set(name, store.type);
    }
  }
  t.ok(COUNTER_STORES.some((store) => store === DEFAULT_COUNTER_STORE), 'the default store is registered');
});

t.test("a store's settings join the service's settings without replacing another's", async (t) => {
  // The settings of every store and the rest of the service are one object: a field two parts
  // both read would silently keep only the last one's value.
  const env = new EnvReader({});
  const owners = new Map<string, string>(Object.keys(loadSettings({})).map((field) => [field, 'settings/']));
  owners.set('backendType', 'BACKEND_TYPE');
  for (const store of COUNTER_STORES) {
    for (const field of Object.keys(store.readSettings(env))) {
      t.notOk(owners.has(field), `${store.type}: ${field}${owners.has(field) ? ` is also read by ${owners.get(field)}` : ''}`);
      owners.set(field, store.type);
    }
  }
});

t.test("each store's code loads on demand, and a thread opens a store only once it loaded that store's code", async (t) => {
  const shared = { type: 'objcache' as const, shared: undefined };
  const context = { stats: new StatsStore(), errorLog: () => () => undefined, connectionsChanged: () => undefined };
  t.throws(() => openSharedCounterStore(shared, context), { message: /objcache counter store is opened on a thread that did not load its code \(loadCounterStoreCode\)/ });
  for (const store of COUNTER_STORES) {
    const code = await store.load();
    t.type(code.open, 'function', `${store.type}: its code loads`);
  }
});
