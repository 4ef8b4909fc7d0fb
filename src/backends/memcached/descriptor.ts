import type { CounterStoreDescriptor } from '../counter-store-descriptor.js';
import type { MemcachedStoreOptions } from './memcached-options.js';
import { checkMemcachedStoreSettings, readMemcachedStoreSettings, type MemcachedStoreSettings } from './memcached-settings.js';

/** BACKEND_TYPE=objcache (upstream: memcache): every deciding thread opens its own connections. */
export const memcachedStore: CounterStoreDescriptor<'objcache', MemcachedStoreSettings, MemcachedStoreOptions> = {
  type: 'objcache',
  aliases: ['memcache'],
  readSettings: readMemcachedStoreSettings,
  checkSettings: checkMemcachedStoreSettings,
  start: (settings) => ({ shared: settings.objcache }),
  describe: (_settings, options) => [
    'counting in the object cache (memcached)',
    { servers: options.srv !== '' ? `SRV ${options.srv}` : options.servers.join(','), connectionsPerServer: options.connectionsPerServer },
  ],
  async load() {
    const { MemcachedCounterStore } = await import('./memcached-counter-store.js');
    return { open: (options, context) => new MemcachedCounterStore(options, context.stats, context.errorLog('object cache')) };
  },
  // Upstream's span, with the keys fetched.
  span: () => ({ name: 'Memcached Fetch Execution', attributes: (increments) => ({ 'keysToGet length': increments.length }) }),
};
