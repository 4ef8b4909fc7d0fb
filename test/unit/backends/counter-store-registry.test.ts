import t from 'tap';
import { COUNTER_STORES, DEFAULT_COUNTER_STORE } from '../../../src/backends/registry.js';
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
