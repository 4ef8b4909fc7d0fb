import { Unit, type CounterIncrement, type CounterStore } from '../engine/index.js';
import type { Tracing } from '../observability/index.js';

/**
 * A counter store whose calls are spans, named and described as upstream's: `Redis Pipeline
 * Execution` with the commands of the main and the per-second pipelines (an INCRBY and an EXPIRE
 * per key), `Memcached Fetch Execution` with the keys fetched. They are children of the decision
 * span that is active when the engine calls the store.
 */
export function tracedCounterStore(store: CounterStore, tracing: Tracing, kind: 'kvstore' | 'objcache', perSecondStore: boolean): CounterStore {
  const span = kind === 'kvstore' ? redisSpan(perSecondStore) : memcachedSpan;
  const traced: CounterStore = {
    increment: (increments) => tracing.inLeafSpan(span.name, () => span.attributes(increments), () => store.increment(increments)),
    close: () => store.close(),
  };
  const read = store.read?.bind(store);
  if (read !== undefined) {
    traced.read = (increments) => tracing.inLeafSpan(span.name, () => span.attributes(increments), () => read(increments));
  }
  return traced;
}

interface StoreSpan {
  name: string;
  attributes(increments: readonly CounterIncrement[]): Record<string, number>;
}

function redisSpan(perSecondStore: boolean): StoreSpan {
  return {
    name: 'Redis Pipeline Execution',
    attributes(increments) {
      const perSecond = perSecondStore ? increments.filter((inc) => inc.unit === Unit.SECOND).length : 0;
      return { 'pipeline length': 2 * (increments.length - perSecond), 'perSecondPipeline length': 2 * perSecond };
    },
  };
}

const memcachedSpan: StoreSpan = {
  name: 'Memcached Fetch Execution',
  attributes: (increments) => ({ 'keysToGet length': increments.length }),
};
