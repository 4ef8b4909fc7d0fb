import type { StoreSpan } from '../../backends/index.js';
import type { CounterStore } from '../../engine/index.js';
import type { Tracing } from '../../observability/index.js';

/**
 * A counter store whose calls are spans, named and described as upstream's for that store
 * (`Redis Pipeline Execution`, `Memcached Fetch Execution`). They are children of the decision
 * span that is active when the engine calls the store.
 */
export function tracedCounterStore(store: CounterStore, tracing: Tracing, span: StoreSpan): CounterStore {
  const traced: CounterStore = {
    increment: (increments) => tracing.inLeafSpan(span.name, () => span.attributes(increments), () => store.increment(increments)),
    close: () => store.close(),
  };
  const read = store.read?.bind(store);
  if (read !== undefined) {
    traced.read = (increments) => tracing.inLeafSpan(span.name, () => span.attributes(increments), () => read(increments));
  }
  const reset = store.reset?.bind(store);
  if (reset !== undefined) traced.reset = reset;
  return traced;
}
