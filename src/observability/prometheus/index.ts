/**
 * The Prometheus page and its statsd mapping, which the main thread alone serves. Not exported
 * from observability/index.ts, so that no other thread loads yaml; the page itself
 * (exposition.ts, prom-client) the main thread loads on the first scrape.
 */
export type { PrometheusExposition } from './exposition.js';
export { StatsdMapping, MappingError } from './statsd-mapping.js';
export { DEFAULT_MAPPING_YAML } from './default-mapping.js';
