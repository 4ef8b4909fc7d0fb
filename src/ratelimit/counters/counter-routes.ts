import type { CounterInspector } from '../../engine/index.js';
import { ServiceError } from '../../errors/index.js';
import type { DebugJsonRoute } from '../../transports/debug/index.js';
import { parseCounterQuery } from './counter-query.js';

/**
 * `GET /counters` and `POST /counters/reset` on the debug port: read or reset the counter a
 * descriptor counts against (upstream #422). Reading is open as `/stats` is; a reset changes what
 * clients are allowed, so it is guarded as the captures are, by DEBUG_TOKEN.
 */
export function counterRoutes(inspector: () => CounterInspector | Promise<CounterInspector>): DebugJsonRoute[] {
  return [
    {
      path: '/counters',
      method: 'GET',
      description: 'the counter a descriptor counts against now: ?domain=d&descriptor=k1=v1,k2=v2 (JSON)',
      handle: async (query) => {
        const named = parseCounterQuery(query);
        return named instanceof ServiceError ? named : (await inspector()).read(named.domain, named.entries);
      },
    },
    {
      path: '/counters/reset',
      method: 'POST',
      description: 'set that counter back to zero and answer what it was (needs DEBUG_TOKEN when set)',
      guard: {
        forbidden: (host) =>
          new ServiceError('DBG_COUNTER_RESET_FORBIDDEN', `counter resets are off: the debug port listens on ${host}, beyond loopback, and DEBUG_TOKEN is not set`),
        unauthorized: new ServiceError('DBG_COUNTER_RESET_UNAUTHORIZED', 'a counter reset needs DEBUG_TOKEN: send it as a bearer token or ?token=', {
          authenticate: 'Bearer',
        }),
      },
      handle: async (query) => {
        const named = parseCounterQuery(query);
        return named instanceof ServiceError ? named : (await inspector()).reset(named.domain, named.entries);
      },
    },
  ];
}
