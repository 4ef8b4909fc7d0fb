/** The decision API's counters on the debug port: read and reset the counter of a descriptor. */
export { counterRoutes } from './counter-routes.js';
export { parseCounterQuery } from './counter-query.js';
export type { CounterQuery } from './counter-query.js';
